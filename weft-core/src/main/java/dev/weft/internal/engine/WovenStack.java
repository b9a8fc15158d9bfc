package dev.weft.internal.engine;

import dev.weft.internal.woven.Fiber;

import java.util.function.Consumer;

/**
 * An {@link ExecutionStack} of the woven engine: the body runs on the resuming thread's own
 * stack, as twin methods that unwind to {@link #resume()} when the coroutine suspends and
 * rewind from it when it is resumed ({@link Fiber}). Nothing of the coroutine stays on any
 * thread's stack while it is suspended, so it may be resumed on any thread, and needs no
 * JDK-internal API.
 *
 * <p>Confined to one thread at a time, as {@link ExecutionStack} says.
 */
public final class WovenStack implements ExecutionStack {

    private final Fiber fiber;
    private final Consumer<Fiber> body;
    private boolean done;

    /**
     * A stack that runs {@code body}, which must reach the coroutine's code through twins only,
     * with {@code fiber}; the body must catch what the coroutine's code throws.
     */
    public WovenStack(Fiber fiber, Consumer<Fiber> body) {
        this.fiber = fiber;
        this.body = body;
    }

    public Fiber fiber() {
        return fiber;
    }

    @Override
    public void resume() {
        if (fiber.hasSavedFrames()) {
            fiber.startRewinding();
        }
        body.accept(fiber);
        if (fiber.isUnwinding()) {
            fiber.finishUnwinding();
        } else {
            done = true;
            fiber.discardSavedFrames();
        }
    }

    @Override
    public boolean isDone() {
        return done;
    }
}
