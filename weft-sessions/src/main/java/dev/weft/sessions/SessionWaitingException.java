package dev.weft.sessions;

import java.time.Instant;

/**
 * An input came for a session that does not wait for one now: it sleeps
 * ({@link StepContext#sleep}), and only a worker resumes it when the time comes; or its deadline
 * for an input ({@link StepContext#awaitInput}) has passed, and a worker resumes it as timed
 * out. Nothing ran; the message says what the session waits for and until when.
 */
public final class SessionWaitingException extends SessionException {

    private static final long serialVersionUID = 1L;

    /** Whether the session sleeps, rather than having passed its deadline for an input. */
    private final boolean sleeping;
    /** When a worker resumes it. */
    private final Instant until;

    SessionWaitingException(String sessionId, SessionWait.Kind kind, Instant until, String detail) {
        super(sessionId, detail + "; nothing ran", null);
        this.sleeping = kind == SessionWait.Kind.SLEEP;
        this.until = until;
    }

    /**
     * Whether the session sleeps (else its deadline for an input has passed).
     *
     * @return true if it sleeps
     */
    public boolean sleeping() {
        return sleeping;
    }

    /**
     * When a worker resumes the session: the end of its sleep, or its deadline.
     *
     * @return the due time
     */
    public Instant until() {
        return until;
    }
}
