package dev.weft.sessions;

/**
 * Where a stored session is.
 *
 * <pre>
 * (start) -> SUSPENDED    // the body ran to its first ret
 * SUSPENDED -> SUSPENDED  // a step ran to the next ret
 * SUSPENDED -> FINISHED   // a step ran to the body's end (the row is kept only if configured)
 * SUSPENDED -> FAILED     // the body threw; the exception is stored
 * </pre>
 */
public enum SessionStatus {
    /** Waiting for its next input. */
    SUSPENDED,
    /** Its body returned; kept only with {@link Sessions.Builder#keepFinished(boolean)}. */
    FINISHED,
    /** Its body threw; {@link SessionInfo#failure()} holds the exception. */
    FAILED
}
