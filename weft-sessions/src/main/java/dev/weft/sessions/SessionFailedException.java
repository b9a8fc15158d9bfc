package dev.weft.sessions;

/**
 * The session's body threw: the exception is stored as the session's failure (its
 * {@linkplain SessionInfo#failure() stack trace}), and the session is {@link SessionStatus#FAILED}.
 * Thrown by the step whose body threw, with that exception as the cause, and by every later
 * resume of the session, with the stored failure in {@link #failure()}.
 */
public final class SessionFailedException extends SessionException {

    private static final long serialVersionUID = 1L;

    /** The body's exception as stored. */
    private final String failure;

    SessionFailedException(String sessionId, long version, String failure, Throwable cause) {
        super(sessionId, "failed in step " + version + ": " + firstLine(failure), cause);
        this.failure = failure;
    }

    /**
     * The body's exception as stored: its class, message and stack trace.
     *
     * @return the stored failure
     */
    public String failure() {
        return failure;
    }

    static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return (newline < 0 ? text : text.substring(0, newline)).strip();
    }
}
