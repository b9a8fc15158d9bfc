package dev.weft.sessions;

/**
 * The store could not be reached, or the connection to it was lost before a step's
 * {@code COMMIT} was sent: nothing of the operation is stored, and the session (if one was
 * concerned) stays at its last stored version. Retry later, as it was; if it keeps failing,
 * the message says what the driver reported (a server down, a refused connection, a SQLite file
 * that cannot be opened). Thrown by {@link SessionStore#postgres} and {@link SessionStore#sqlite}
 * too, when the database cannot be reached as the store is opened, with no session
 * ({@link #sessionId()} null).
 *
 * <p>Refusals that retrying does not change (a wrong password, a database that does not exist,
 * a statement the database rejects) are not this exception.
 */
public final class SessionStoreUnavailableException extends SessionException {

    private static final long serialVersionUID = 1L;

    SessionStoreUnavailableException(String sessionId, String message, Throwable cause) {
        super(sessionId, message, cause);
    }

    /** The store as a whole could not be reached: no session concerned. */
    SessionStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
