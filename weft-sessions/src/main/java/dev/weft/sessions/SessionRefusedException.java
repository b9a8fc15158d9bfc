package dev.weft.sessions;

/**
 * This node cannot resume the session: its stored frames were written by code that differs from
 * this node's (another build), or cannot be read. The session is left exactly as it was (never
 * marked failed), so a node that still runs its build can resume it, or an
 * {@linkplain Sessions.Builder#upgrade upgrade} can move it.
 */
public final class SessionRefusedException extends SessionException {

    private static final long serialVersionUID = 1L;

    /** The build fingerprint the session was stored with. */
    private final String build;
    /** Why this node refused it. */
    private final String reason;

    SessionRefusedException(String sessionId, String build, String reason, Throwable cause) {
        super(sessionId, "refused by this node, left untouched: " + reason + " (stored build " + build + ")", cause);
        this.build = build;
        this.reason = reason;
    }

    /**
     * The build fingerprint the session was stored with.
     *
     * @return the fingerprint
     */
    public String build() {
        return build;
    }

    /**
     * Why this node refused it.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
