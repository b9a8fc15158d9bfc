package dev.weft.sessions;

/**
 * Why a session operation did not happen as asked; its message names the session and the
 * reason. Subclasses tell the cases apart.
 */
public class SessionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The id of the session concerned. */
    private final String sessionId;

    SessionException(String sessionId, String message, Throwable cause) {
        super("session " + sessionId + ": " + message, cause);
        this.sessionId = sessionId;
    }

    /**
     * The id of the session concerned.
     *
     * @return the id
     */
    public String sessionId() {
        return sessionId;
    }
}
