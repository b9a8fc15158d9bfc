package dev.weft.sessions;

/**
 * Another resume of the same session is in progress (on this node or another) and did not end
 * within the configured wait ({@link Sessions.Builder#waitWhenBusy}). Nothing ran: retry later.
 */
public final class SessionBusyException extends SessionException {

    private static final long serialVersionUID = 1L;

    SessionBusyException(String sessionId, String detail) {
        super(sessionId, "busy: another step of this session is running (" + detail + "); nothing ran, try again",
                null);
    }
}
