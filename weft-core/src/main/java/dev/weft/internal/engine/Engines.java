package dev.weft.internal.engine;

import dev.weft.CoroutineBase;
import dev.weft.Engine;
import dev.weft.internal.engine.hotspot.NativeEngine;
import dev.weft.internal.engine.woven.WovenEngine;

/**
 * The engines behind {@link Engine}: where the scheduler gets a coroutine's stack, and what it
 * asks of them all. Adding an engine adds a constant to {@link Engine} and a case here; the API
 * classes and the scheduler do not change. Any thread.
 */
public final class Engines {

    private Engines() {
    }

    /**
     * A new stack of {@code engine} that will run {@code coroutine}'s body from its start.
     *
     * @throws IllegalArgumentException naming the coroutine, if the engine cannot run its body
     * @throws IllegalStateException naming what to do, if the engine is not available in this JVM
     */
    public static ExecutionStack newStack(Engine engine, CoroutineBase coroutine) {
        return switch (engine) {
            case NATIVE -> NativeEngine.newStack(coroutine);
            case WOVEN -> WovenEngine.newStack(coroutine);
        };
    }

    /**
     * The coroutine whose stack runs innermost on the current thread, as the engines whose
     * frames stay on a stack while it runs can tell, read afresh; null when they cannot (the
     * caller then relies on its thread). Correct in a frame that was suspended on one thread and
     * resumed on another, unlike anything derived from {@code Thread.currentThread()}, which
     * HotSpot's compilers may keep from before the suspension.
     */
    public static CoroutineBase runningCoroutine() {
        return NativeEngine.runningCoroutine();
    }
}
