package dev.weft.sessions;

import dev.weft.Engine;

import java.time.Duration;

/**
 * Watches a node's steps, for metrics and traces ({@link Sessions.Builder#observe}): told as each
 * step begins and as it ends, with what it left. Two come with Weft, each in a package of its
 * own whose library is an optional dependency: {@code dev.weft.sessions.micrometer.SessionsMeters}
 * (Micrometer's meters) and {@code dev.weft.sessions.opentelemetry.SessionsTracing}
 * (OpenTelemetry's spans). A node without an observer loads neither library, and its steps
 * cost one check of a field each.
 *
 * <pre>{@code
 * Sessions sessions = Sessions.builder(store)
 *         .observe(new SessionsMeters(meterRegistry))
 *         .observe(new SessionsTracing(openTelemetry))
 *         .build();
 * }</pre>
 *
 * <p>A step is told on the thread that runs it: {@link #stepBegun} before it touches the store
 * (a worker's step: once its claim has locked a session, the worker's transaction begun),
 * {@link #stepEnded} after its transaction committed or rolled back, on the same thread, with
 * what {@code stepBegun} returned; whatever the observer makes current on the thread in between
 * (a span, say) is current while the body runs. A child's first step ({@link StepKind#CHILD}) is
 * told inside its parent's step, as it runs: it is stored if and when that step commits. Steps
 * run on many threads at once: an observer must be thread-safe. One that throws as a step begins
 * or ends, or as it gives a message's trace context, is logged and otherwise ignored: the step's
 * outcome is what it is ({@link #observing} throws to the node's builder). Every method does
 * nothing by default.
 */
public interface SessionObserver {

    /** Who runs a step. */
    enum StepKind {
        /** A session's first step, {@link Sessions#start}. */
        START,
        /** A caller's input, {@link Sessions#resume}. */
        RESUME,
        /** A worker's step for a wait come due, a message, a retry or a deadline ({@link Sessions.Builder#workers}). */
        WORKER,
        /** A failed step run again by a caller, {@link Sessions#retry}. */
        RETRY,
        /** A caller's {@link Sessions#cancel}. */
        CANCEL,
        /** A child's first step, inside its parent's step ({@link StepContext#startChild}). */
        CHILD
    }

    /** What a step left. The first six are stored by the step; the others left the session as it was. */
    enum Outcome {
        /** Stored suspended, awaiting a plain input. */
        SUSPENDED,
        /** Stored suspended, waiting for a time, an input until a deadline, or a message ({@link Step#waiting()}). */
        WAITING,
        /** The body threw; stored to be run again by a worker ({@link RetryPolicy}). */
        RETRYING,
        /** The body returned: the session ended. */
        FINISHED,
        /** The body threw with no retry left: stored {@link SessionStatus#FAILED}. */
        FAILED,
        /** Closed: by {@link Sessions#cancel}, or by a worker for its deadline. */
        CANCELLED,
        /** A worker's claim found nothing to run after all (by its clock, the wait was not due); nothing ran. */
        SKIPPED,
        /** This node refuses the session: its row or a message is not to be trusted, or its build is not its own. */
        REFUSED,
        /** The session is at another version than the one answered, or has ended, or exists already (a start). */
        CONFLICT,
        /** Another step of the session held it. */
        BUSY,
        /** The session cannot take the step: not found, waiting for something else, failed, past its deadline. */
        REJECTED,
        /** The store failed, or the step's state could not be stored. */
        ERROR;

        /**
         * Whether a step with this outcome was stored (or, for a child, is stored with its parent's step).
         *
         * @return whether it was stored
         */
        public boolean stored() {
            return ordinal() <= CANCELLED.ordinal();
        }
    }

    /**
     * One step as it ended.
     *
     * @param kind      who ran it
     * @param sessionId the session's id
     * @param outcome   what it left
     * @param version   the session's version after it: the step's number if it stored one, the
     *                  version it stayed at if not (a retry to come keeps its version); 0 if it
     *                  was never read (busy, not found)
     * @param engine    the engine this node runs steps on
     * @param waiting   what the session waits for after it, if it is {@link Outcome#WAITING} or
     *                  {@link Outcome#RETRYING}; else null
     * @param dueWait   for a worker's step, what it ran for: the wait that came due or the
     *                  message it took; else null (a deadline's cancel too)
     * @param lateness  for a worker's step that ran its body because a time came due (a sleep's
     *                  end, a deadline of an input or a message, a retry's backoff): how long after
     *                  that time it began, by the node's clock; else null
     * @param duration  how long it took, from {@link #stepBegun} to after its commit or rollback
     * @param thrown    what it threw to its caller (a {@link SessionFailedException} or
     *                  {@link SessionRetryingException} whose cause is what the body threw, or
     *                  why it did not run), or for a child that failed, what its body threw; null
     *                  if it returned
     * @param trace     the trace context the message it took was sent with (a W3C
     *                  {@code traceparent}, as {@link #messageTrace()} gave it), or null
     */
    record Step(StepKind kind, String sessionId, Outcome outcome, long version, Engine engine,
            SessionInfo.WaitKind waiting, SessionInfo.WaitKind dueWait, Duration lateness, Duration duration,
            Throwable thrown, String trace) {
    }

    /**
     * Called once, as a node with this observer is built, before its workers start: an observer
     * that reads the node (its {@link Sessions#countDue()}, say) keeps it from here.
     *
     * @param sessions the node
     */
    default void observing(Sessions sessions) {
    }

    /**
     * A step begins on this thread.
     *
     * @param kind      who runs it
     * @param sessionId the session
     * @return what {@link #stepEnded} is given back for this step (a span, say), or null
     */
    default Object stepBegun(StepKind kind, String sessionId) {
        return null;
    }

    /**
     * The step begun on this thread ended: committed, rolled back, or never begun in the store.
     *
     * @param begun what {@link #stepBegun} returned for it
     * @param step  the step
     */
    default void stepEnded(Object begun, Step step) {
    }

    /**
     * The trace context to store with a message sent now on this thread ({@link Sessions#send},
     * {@link StepContext#send}, a child's outcome), given back with the step that takes it
     * ({@link Step#trace()}); at most {@value #MAX_TRACE} characters, or null for none (a longer
     * one is not stored). It is not sealed with the message: it names a trace, nothing more.
     *
     * @return the current trace context, or null
     */
    default String messageTrace() {
        return null;
    }

    /** The longest trace context a message is stored with. */
    int MAX_TRACE = 256;
}
