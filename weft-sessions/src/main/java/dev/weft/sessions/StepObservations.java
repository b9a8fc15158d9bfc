package dev.weft.sessions;

import dev.weft.Engine;
import dev.weft.sessions.SessionObserver.Outcome;
import dev.weft.sessions.SessionObserver.StepKind;
import dev.weft.sessions.SessionStore.Row;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Tells a node's {@link SessionObserver}s of its steps: a step is observed from its beginning
 * ({@link #observe}, {@link #worker}, {@link #child}) to its end, and the step machinery reports
 * what it learns on the way, after each commit ({@link #stored}), as it locks the session
 * ({@link #locked}) and as it takes a message ({@link #messageTaken}). A node without observers
 * has none of this ({@code null} where it would be held, the class not even loaded): its steps
 * check one field and allocate nothing. Any thread; each step's record is confined to the thread
 * that runs it.
 */
final class StepObservations {

    /* Implementation notes: the record of the step running on a thread is in a ThreadLocal, so
     * that the places that learn something of it (Steps' lock and commits, Messages' take) need
     * no parameter for it; a child's first step runs inside its parent's on the same thread, so
     * each record keeps the one it hides, and gives it back as it ends. A worker's record begins
     * when its claim locks a session (before that it knows no id, and may claim none); the
     * observers are told only of records that began. */

    private static final System.Logger LOG = System.getLogger(StepObservations.class.getName());

    private final SessionObserver[] observers;
    private final Clock clock;
    private final Engine engine;
    private final ThreadLocal<Observed> current = new ThreadLocal<>();

    /** The observations of a node with {@code observers}, at least one, on {@code clock} and {@code engine}. */
    StepObservations(List<SessionObserver> observers, Clock clock, Engine engine) {
        assert !observers.isEmpty() : "a node without observers has no StepObservations";
        this.observers = observers.toArray(new SessionObserver[0]);
        this.clock = clock;
        this.engine = engine;
    }

    /** Tells each observer of the node it watches. */
    void observing(Sessions sessions) {
        for (SessionObserver observer : observers) {
            observer.observing(sessions);
        }
    }

    /** A step's work, which may throw what its store throws. */
    @FunctionalInterface
    interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /** Runs {@code work}, a caller's step of session {@code id}, observed. */
    <T, E extends Exception> T observe(StepKind kind, String id, Work<T, E> work) throws E {
        Observed observed = enter(kind);
        observed.begin(id);
        return run(observed, work);
    }

    /** Runs {@code work}, a worker's claim and step, observed from the claim's lock on, if it claims one. */
    <T, E extends Exception> T worker(Work<T, E> work) throws E {
        return run(enter(StepKind.WORKER), work);
    }

    /** Runs {@code firstStep}, child {@code id}'s first step in its parent's, observed. */
    <O> Children.FirstStep<O> child(String id, Work<Children.FirstStep<O>, java.sql.SQLException> firstStep)
            throws java.sql.SQLException {
        Observed observed = enter(StepKind.CHILD);
        observed.begin(id);
        return run(observed, () -> {
            Children.FirstStep<O> started = firstStep.run();
            observed.stored(started.row());
            observed.thrown = started.result().thrown;
            return started;
        });
    }

    private Observed enter(StepKind kind) {
        Observed observed = new Observed(kind, current.get());
        current.set(observed);
        return observed;
    }

    private <T, E extends Exception> T run(Observed observed, Work<T, E> work) throws E {
        T result;
        try {
            result = work.run();
        } catch (Exception | Error e) {
            observed.thrown = e;
            observed.end();
            throw e;
        }
        if (result instanceof SessionStep<?> replied) {
            observed.replied = replied.version();
        }
        observed.end();
        return result;
    }

    /** Steps: the row of the session the step on this thread locked, as stored before it. */
    void locked(Row row) {
        Observed observed = current.get();
        if (observed != null) {
            observed.locked(row);
        }
    }

    /** Steps: the step on this thread committed {@code row}; null if it deleted the session (finished). */
    void stored(Row row) {
        Observed observed = current.get();
        if (observed != null) {
            observed.stored(row);
        }
    }

    /** Messages: the step on this thread took a message sent with {@code trace} (null for none). */
    void messageTaken(String trace) {
        Observed observed = current.get();
        if (observed != null) {
            observed.messageTaken = true;
            observed.trace = trace;
        }
    }

    /** Messages: the trace context to store with a message sent on this thread now; null for none. */
    String messageTrace() {
        for (SessionObserver observer : observers) {
            String trace;
            try {
                trace = observer.messageTrace();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "session observer " + observer + " failed to give a trace context", e);
                continue;
            }
            if (trace != null) {
                return trace.length() <= SessionObserver.MAX_TRACE ? trace : null;
            }
        }
        return null;
    }

    /** One step, as observed on the thread that runs it. */
    private final class Observed {
        final StepKind kind;
        /** The step this one runs inside (a child's parent's), or null. */
        final Observed outer;
        String id;
        boolean begun;
        long beganNanos;
        long beganMillis;
        Object[] tokens;
        /** The version the session was at when locked; 0 if it was not. */
        long versionBefore;
        /** The wait stored when it was locked, by name, and its due time; null for none. */
        String waitBefore;
        Long dueBefore;
        boolean stored;
        /** What the step committed; null if it deleted the session, or stored nothing. */
        Row row;
        /** The version the step's reply names; 0 for none. */
        long replied;
        boolean messageTaken;
        String trace;
        Throwable thrown;

        Observed(StepKind kind, Observed outer) {
            this.kind = kind;
            this.outer = outer;
        }

        void begin(String sessionId) {
            id = sessionId;
            begun = true;
            beganMillis = clock.millis();
            tokens = new Object[observers.length];
            for (int i = 0; i < observers.length; i++) {
                try {
                    tokens[i] = observers[i].stepBegun(kind, sessionId);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "session observer " + observers[i] + " failed as a step began", e);
                }
            }
            beganNanos = System.nanoTime();
        }

        void locked(Row locked) {
            if (!begun) {
                begin(locked.id());
            }
            versionBefore = locked.version();
            waitBefore = locked.waitKind();
            dueBefore = locked.dueAt();
        }

        void stored(Row committed) {
            stored = true;
            row = committed;
        }

        /** Gives the thread back the step this one hid, and tells the observers of this one if it began. */
        void end() {
            if (outer == null) {
                current.remove();
            } else {
                current.set(outer);
            }
            if (!begun) {
                return;
            }
            SessionObserver.Step step = step(Duration.ofNanos(System.nanoTime() - beganNanos));
            for (int i = 0; i < observers.length; i++) {
                try {
                    observers[i].stepEnded(tokens[i], step);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "session observer " + observers[i] + " failed as a step ended", e);
                }
            }
        }

        private SessionObserver.Step step(Duration duration) {
            Outcome outcome = outcome();
            long version = row != null ? row.version() : replied > 0 ? replied : stored ? versionBefore + 1
                    : versionBefore;
            SessionInfo.WaitKind waiting = outcome == Outcome.WAITING || outcome == Outcome.RETRYING
                    ? waitKind(row.waitKind()) : null;
            SessionInfo.WaitKind dueWait = kind != StepKind.WORKER || outcome == Outcome.CANCELLED ? null
                    : waitKind(waitBefore);
            Duration lateness = null;
            if (dueWait != null && !messageTaken && dueBefore != null && outcome.stored()) {
                lateness = Duration.ofMillis(Math.max(0, beganMillis - dueBefore));
            }
            return new SessionObserver.Step(kind, id, outcome, version, engine, waiting, dueWait, lateness, duration,
                    thrown, trace);
        }

        private Outcome outcome() {
            if (stored) {
                return storedOutcome(row);
            }
            if (thrown == null) {
                return Outcome.SKIPPED;
            }
            return thrownOutcome(thrown);
        }
    }

    /** The outcome of a step that committed {@code row} (null: the session finished and was deleted). */
    private static Outcome storedOutcome(Row row) {
        if (row == null || row.status() == SessionStatus.FINISHED) {
            return Outcome.FINISHED;
        }
        if (row.status() == SessionStatus.FAILED) {
            return Outcome.FAILED;
        }
        if (row.status() == SessionStatus.CANCELLED) {
            return Outcome.CANCELLED;
        }
        if (row.waitKind() == null) {
            return Outcome.SUSPENDED;
        }
        SessionInfo.WaitKind wait = waitKind(row.waitKind());
        return wait == SessionInfo.WaitKind.RETRY || wait == SessionInfo.WaitKind.RETRY_TIMEOUT ? Outcome.RETRYING
                : Outcome.WAITING;
    }

    /** The outcome of a step that stored nothing and threw {@code thrown}. */
    private static Outcome thrownOutcome(Throwable thrown) {
        if (thrown instanceof SessionRefusedException) {
            return Outcome.REFUSED;
        }
        if (thrown instanceof SessionConflictException) {
            return Outcome.CONFLICT;
        }
        if (thrown instanceof SessionBusyException) {
            return Outcome.BUSY;
        }
        if (thrown instanceof SessionStoreUnavailableException || thrown instanceof SessionOutcomeUnknownException
                || !(thrown instanceof SessionException) || thrown.getCause() != null) {
            return Outcome.ERROR;
        }
        return Outcome.REJECTED;
    }

    /** The public kind of the wait stored as {@code name}; null for none, or a name that is none. */
    private static SessionInfo.WaitKind waitKind(String name) {
        if (name != null) {
            for (SessionInfo.WaitKind kind : SessionInfo.WaitKind.values()) {
                if (kind.name().equals(name)) {
                    return kind;
                }
            }
        }
        return null;
    }
}
