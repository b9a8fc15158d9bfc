package dev.weft.sessions;

/**
 * Why a session operation did not happen as asked; its message names the session and the
 * reason. Subclasses tell the cases apart; of them, {@link SessionBusyException} and
 * {@link SessionStoreUnavailableException} are worth retrying as they are, and
 * {@link SessionOutcomeUnknownException} says how to find out whether a step was stored.
 */
public class SessionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The id of the session concerned; null for the store as a whole. */
    private final String sessionId;

    SessionException(String sessionId, String message, Throwable cause) {
        super("session " + sessionId + ": " + message, cause);
        this.sessionId = sessionId;
    }

    /** An exception about the store as a whole, no session concerned: {@link #sessionId()} is null. */
    SessionException(String message, Throwable cause) {
        super(message, cause);
        this.sessionId = null;
    }

    /**
     * The id of the session concerned.
     *
     * @return the id; null if no session was concerned ({@link SessionStoreUnavailableException}
     *         when a store is opened)
     */
    public String sessionId() {
        return sessionId;
    }
}
