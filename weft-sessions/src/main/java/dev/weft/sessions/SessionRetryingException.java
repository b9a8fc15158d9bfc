package dev.weft.sessions;

import java.time.Instant;

/**
 * The session's body threw in a step that its node's {@link RetryPolicy} retries: nothing of the
 * step is stored (its writes rolled back), and the session stays at its last stored suspension,
 * due again at {@link #nextAttempt()}, when a worker runs the step again with the same input.
 * Thrown by the step whose body threw, with that exception as the cause; a resume meanwhile is
 * refused with {@link SessionWaitingException}.
 */
public final class SessionRetryingException extends SessionException {

    private static final long serialVersionUID = 1L;

    /** The step that failed. */
    private final long step;
    /** How many times it has run. */
    private final int attempt;
    /** When a worker runs it again. */
    private final Instant nextAttempt;

    SessionRetryingException(String sessionId, long step, int attempt, int attempts, Instant nextAttempt,
            String failure, Throwable cause) {
        super(sessionId, "step " + step + " threw (attempt " + attempt + " of " + attempts + "); a worker runs it"
                + " again at " + nextAttempt + " with the same input: " + SessionFailedException.firstLine(failure),
                cause);
        this.step = step;
        this.attempt = attempt;
        this.nextAttempt = nextAttempt;
    }

    /**
     * The step that threw: the session's version once it is stored.
     *
     * @return the step's number
     */
    public long step() {
        return step;
    }

    /**
     * Which run of the step threw: 1 for its first.
     *
     * @return the attempt
     */
    public int attempt() {
        return attempt;
    }

    /**
     * When a worker runs the step again.
     *
     * @return the time of the next attempt
     */
    public Instant nextAttempt() {
        return nextAttempt;
    }
}
