package dev.weft.sessions;

import java.time.Instant;

/**
 * An input came for a session that does not wait for one now: it sleeps
 * ({@link StepContext#sleep}), and only a worker resumes it when the time comes; its deadline
 * for an input ({@link StepContext#awaitInput}) has passed, and a worker resumes it as timed
 * out; or it waits for a message ({@link StepContext#awaitMessage()}), which a worker gives it
 * once {@link Sessions#send sent}. Nothing ran; the message says what the session waits for and
 * until when.
 */
public final class SessionWaitingException extends SessionException {

    private static final long serialVersionUID = 1L;

    /** Whether the session sleeps, rather than having passed its deadline for an input. */
    private final boolean sleeping;
    /** Whether the session waits for a message. */
    private final boolean awaitingMessage;
    /** When a worker resumes it; null for a message awaited with no deadline. */
    private final Instant until;

    SessionWaitingException(String sessionId, SessionWait.Kind kind, Instant until, String detail) {
        super(sessionId, detail + "; nothing ran", null);
        this.sleeping = kind == SessionWait.Kind.SLEEP;
        this.awaitingMessage = kind == SessionWait.Kind.MESSAGE;
        this.until = until;
    }

    /**
     * Whether the session sleeps (else it waits for a message, or its deadline for an input has
     * passed).
     *
     * @return true if it sleeps
     */
    public boolean sleeping() {
        return sleeping;
    }

    /**
     * Whether the session waits for a message ({@link Sessions#send}), not an input.
     *
     * @return true if it waits for a message
     */
    public boolean awaitingMessage() {
        return awaitingMessage;
    }

    /**
     * When a worker resumes the session as timed out: the end of its sleep, or its deadline;
     * null for a message awaited with no deadline.
     *
     * @return the due time, or null
     */
    public Instant until() {
        return until;
    }
}
