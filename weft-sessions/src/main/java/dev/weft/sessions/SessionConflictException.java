package dev.weft.sessions;

/**
 * A resume that named the version it answers ({@link Sessions#resume(String, long, Object)})
 * found the session at another version, or finished: the step it answers has run already (a
 * retry after a lost reply, or another node got there first). Nothing ran. The stored session's
 * version, status and last output say where it is.
 */
public final class SessionConflictException extends SessionException {

    private static final long serialVersionUID = 1L;

    /** The session's stored version. */
    private final long currentVersion;
    /** The session's stored status. */
    private final SessionStatus status;
    private final transient Object lastOutput;

    SessionConflictException(String sessionId, long expectedVersion, long currentVersion, SessionStatus status,
            Object lastOutput) {
        super(sessionId, (expectedVersion < 0 ? "" : expectedVersion == 0 ? "a session with this id exists already, "
                : "expected version " + expectedVersion + ", ")
                + "the session is " + status.name().toLowerCase(java.util.Locale.ROOT) + " at version " + currentVersion
                + "; nothing ran", null);
        this.currentVersion = currentVersion;
        this.status = status;
        this.lastOutput = lastOutput;
    }

    /**
     * The session's stored version: how many steps have run.
     *
     * @return the version
     */
    public long currentVersion() {
        return currentVersion;
    }

    /**
     * The session's stored status.
     *
     * @return the status
     */
    public SessionStatus status() {
        return status;
    }

    /**
     * The output of the session's last step, as stored; null if it was not serializable.
     *
     * @return the output, or null
     */
    public Object lastOutput() {
        return lastOutput;
    }
}
