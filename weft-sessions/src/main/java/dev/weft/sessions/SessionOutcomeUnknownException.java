package dev.weft.sessions;

/**
 * The connection to the store was lost after a step's (or a start's) {@code COMMIT} was sent
 * and before the database's reply came back: the step may have been stored or not, and this
 * node cannot tell which. Its body ran; its output is lost with the reply.
 *
 * <p>To find out, call {@link Sessions#status(String)}: {@link #versionIfStored()} (or no session
 * at all, if the step ended it and finished sessions are not kept) means it was stored;
 * {@link #versionBefore()} means it was not. To answer again without having it taken twice,
 * resend with the version, {@link Sessions#resume(String, long, Object) resume(id,
 * versionBefore(), input)}, which runs the step if it was not stored and is refused with
 * {@link SessionConflictException} if it was (or {@link SessionNotFoundException}, if the step
 * ended the session and finished sessions are not kept); a start under {@link #sessionId()} again,
 * {@link Sessions#start(String, dev.weft.AsymRunnable, Object)}, is refused the same way if the
 * start was stored. Never resend with {@link Sessions#resume(String, Object)}, which would run
 * the next step with the same input if this one was stored.
 */
public final class SessionOutcomeUnknownException extends SessionException {

    private static final long serialVersionUID = 1L;

    /** The session's version before the step: 0 for a start. */
    private final long versionBefore;
    /** The version the step stores, if it was stored. */
    private final long versionIfStored;

    SessionOutcomeUnknownException(String sessionId, long versionBefore, long versionIfStored, String store,
            Throwable cause) {
        super(sessionId, message(sessionId, versionBefore, versionIfStored, store, cause), cause);
        this.versionBefore = versionBefore;
        this.versionIfStored = versionIfStored;
    }

    private static String message(String id, long before, long ifStored, String store, Throwable cause) {
        String lost = "the connection to " + store + " was lost after the COMMIT of ";
        if (before == 0) {
            return lost + "its start was sent, so it may have been stored: status(\"" + id + "\") says whether"
                    + " it was; start(\"" + id + "\", body, first) starts it if it was not and is refused with"
                    + " SessionConflictException if it was (" + cause + ")";
        }
        return lost + "step " + ifStored + " was sent, so it may have been stored: status(\"" + id + "\") says"
                + " whether it was (version " + ifStored + ", or no session if the step ended it, means it was;"
                + " version " + before + " that it was not); resume(\"" + id + "\", " + before + ", input) runs"
                + " it if it was not and is refused with SessionConflictException if it was; do not resend with"
                + " resume(id, input), which would run another step (" + cause + ")";
    }

    /**
     * The session's version before the step: the version to resend with
     * ({@link Sessions#resume(String, long, Object)}); 0 for a start.
     *
     * @return the version before the step
     */
    public long versionBefore() {
        return versionBefore;
    }

    /**
     * The version the step left the session at, if it was stored.
     *
     * @return {@link #versionBefore()} plus one
     */
    public long versionIfStored() {
        return versionIfStored;
    }
}
