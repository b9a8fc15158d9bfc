package dev.weft.sessions;

import java.io.Serializable;

/**
 * How a child session ended ({@link StepContext#startChild}): the message the step that ended it
 * put in its parent's inbox, in that step's transaction, which the parent takes in a step that
 * waits for a message ({@link StepContext#awaitChildren()}). One per end of the child: exactly
 * once, as the step that ends it commits exactly once. Immutable.
 *
 * @param childId the child's id
 * @param status  how it ended: {@link SessionStatus#FINISHED}, {@link SessionStatus#FAILED} (no
 *                retry left) or {@link SessionStatus#CANCELLED}
 * @param output  what its body returned, if it finished (null if it returned null, or a value
 *                that cannot be stored); null otherwise
 * @param failure its body's exception (class, message, stack trace) if it failed; why it was
 *                cancelled, if it was for its deadline (or what a {@code finally} block threw as
 *                it was closed); else null
 */
public record ChildOutcome(String childId, SessionStatus status, Object output, String failure)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * Whether the child finished: its body returned {@link #output()}.
     *
     * @return whether its status is {@link SessionStatus#FINISHED}
     */
    public boolean finished() {
        return status == SessionStatus.FINISHED;
    }
}
