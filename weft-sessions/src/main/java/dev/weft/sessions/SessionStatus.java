package dev.weft.sessions;

/**
 * Where a stored session is.
 *
 * <pre>
 * (start) -> SUSPENDED    // the body ran to its first ret
 * SUSPENDED -> SUSPENDED  // a step ran to the next ret
 * SUSPENDED -> FINISHED   // a step ran to the body's end (the row is kept only if configured)
 * SUSPENDED -> SUSPENDED  // the body threw and the step is retried later (Builder.retry): nothing of it stored
 * SUSPENDED -> FAILED     // the body threw (no retry left); the exception is stored, the frames kept
 * FAILED -> SUSPENDED     // Sessions.retry ran the failed step again
 * SUSPENDED -> CANCELLED  // Sessions.cancel closed it: its finally blocks ran
 * FAILED -> CANCELLED
 * </pre>
 */
public enum SessionStatus {
    /** Waiting for its next input. */
    SUSPENDED,
    /** Its body returned; kept only with {@link Sessions.Builder#keepFinished(boolean)}. */
    FINISHED,
    /** Its body threw; {@link SessionInfo#failure()} holds the exception. */
    FAILED,
    /**
     * {@link Sessions#cancel} closed it, running its {@code finally} blocks; kept until
     * {@link Sessions#remove}. {@link SessionInfo#failure()} holds what those blocks threw, if anything.
     */
    CANCELLED
}
