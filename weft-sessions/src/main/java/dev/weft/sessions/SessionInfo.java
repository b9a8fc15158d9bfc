package dev.weft.sessions;

import java.time.Instant;

/**
 * What the store says about one session, without loading its frames, as it was when read: a
 * snapshot, which the session's next step does not change. Immutable; any thread.
 *
 * @param id        the session's id
 * @param status    where it is
 * @param version   how many steps have run (the start is step 1)
 * @param build     the fingerprint of the code its frames were written by; null once it has ended
 * @param point     the named point it is suspended at ({@link StepContext#suspendingAt}), or null
 * @param failure   the body's exception (class, message, stack trace) if it failed, else null
 * @param created   when it was started, by the starting node's clock ({@link Sessions.Builder#clock})
 * @param updated   when its last step was stored, by that step's node's clock
 * @param waiting   what it waits for besides a plain input, and until when; null if it waits for
 *                  a plain input with no deadline, or has ended
 * @param parent    the id of the session that started it ({@link StepContext#startChild}), or null
 * @param deadline  when a worker cancels it if it has not ended ({@link Sessions.Builder#deadline}),
 *                  or null; a session cancelled for it says so in {@link #failure()}
 */
public record SessionInfo(String id, SessionStatus status, long version, String build, String point, String failure,
        Instant created, Instant updated, Waiting waiting, String parent, Instant deadline) {

    /**
     * What the store says about a session with no parent and no deadline: as the canonical
     * constructor with {@code parent} and {@code deadline} null.
     *
     * @param id      the session's id
     * @param status  where it is
     * @param version how many steps have run
     * @param build   its build, or null
     * @param point   its named point, or null
     * @param failure its failure, or null
     * @param created when it was started
     * @param updated when its last step was stored
     * @param waiting what it waits for, or null
     */
    public SessionInfo(String id, SessionStatus status, long version, String build, String point, String failure,
            Instant created, Instant updated, Waiting waiting) {
        this(id, status, version, build, point, failure, created, updated, waiting, null, null);
    }

    /**
     * What the store says about a session that waits for a plain input with no deadline, or has
     * ended: as the canonical constructor with {@code waiting} null.
     *
     * @param id      the session's id
     * @param status  where it is
     * @param version how many steps have run
     * @param build   its build, or null
     * @param point   its named point, or null
     * @param failure its failure, or null
     * @param created when it was started
     * @param updated when its last step was stored
     */
    public SessionInfo(String id, SessionStatus status, long version, String build, String point, String failure,
            Instant created, Instant updated) {
        this(id, status, version, build, point, failure, created, updated, null, null, null);
    }

    /**
     * What a suspended session waits for besides a plain input: the kinds a body names in its
     * step ({@link StepContext#sleep}, {@link StepContext#awaitInput}, ...). A session that waits
     * for none of them waits for a plain input, with no deadline.
     */
    public enum WaitKind {
        /** A time: the body sleeps, and only a worker resumes it, once due; an input is refused. */
        SLEEP,
        /** An input, until a deadline: from then on a worker resumes it, as timed out. */
        INPUT,
        /**
         * A message ({@link Sessions#send}): a worker resumes it with the oldest of its inbox, or
         * at the deadline, if it has one, as timed out; an input is refused.
         */
        MESSAGE,
        /** A retry of its failed step, with the input that step had ({@link RetryPolicy}); an input is refused. */
        RETRY,
        /** A retry of its failed step, which ran because a wait came due: timed out again. */
        RETRY_TIMEOUT
    }

    /**
     * What a suspended session waits for, and until when. Immutable; any thread.
     *
     * @param kind  what it waits for
     * @param until when a worker resumes it: the end of its sleep, its deadline for an input or a
     *              message, or its retry; null for a message awaited with no deadline
     *              (an instant of the nodes' clock; a worker resumes it once its clock has passed it)
     */
    public record Waiting(WaitKind kind, Instant until) {
        /**
         * Checks its parts.
         *
         * @throws NullPointerException if {@code kind} is null, or {@code until} is null for a
         *         kind other than {@link WaitKind#MESSAGE}
         */
        public Waiting {
            if (kind == null || until == null && kind != WaitKind.MESSAGE) {
                throw new NullPointerException(kind == null ? "kind" : "until");
            }
        }
    }
}
