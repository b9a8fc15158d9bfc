package dev.weft.sessions;

/** The store holds no session under that id: it never existed, was removed, or finished and was deleted. */
public final class SessionNotFoundException extends SessionException {

    private static final long serialVersionUID = 1L;

    SessionNotFoundException(String sessionId) {
        super(sessionId, "no such session in the store (never started, removed, or finished and deleted)", null);
    }
}
