package dev.weft.internal.engine;

/**
 * The woven engine's stack of a woven body that the native engine runs on a HotSpot
 * continuation: the body runs as twins, as on the woven engine, but its suspension points
 * suspend the continuation rather than unwind; only a capture unwinds it, its frames saving
 * themselves into the fiber, and what was captured or restored is resumed by the woven engine's
 * trampoline, on a new continuation. The native stack that holds it calls {@link #resume()}
 * inside its continuation and decides, when it is resumed only to be captured, whether the
 * frames can unwind.
 *
 * <p>Confined, as {@link ExecutionStack} is, to the thread that owns the coroutine.
 */
public interface TwinsOnContinuation extends ExecutionStack {

    /**
     * Whether the coroutine is suspended in a suspension point that a twin called, so that every
     * frame between its body and that point is a twin, which can save itself.
     */
    boolean suspendedByTwin();

    /**
     * Makes the frames save themselves and return as the suspension point returns, down to
     * {@link #resume()}; only when {@link #suspendedByTwin()}.
     */
    void unwind();
}
