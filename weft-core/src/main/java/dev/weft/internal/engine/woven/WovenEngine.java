package dev.weft.internal.engine.woven;

import dev.weft.CoroutineBase;
import dev.weft.internal.engine.ExecutionStack;
import dev.weft.internal.engine.TwinsOnContinuation;

/**
 * The woven engine: coroutines whose code is woven by {@code weft-weaver}, run through twin
 * methods that save their frames into a {@link dev.weft.internal.woven.Fiber} and return when
 * the coroutine suspends, and rebuild them when it resumes (Kilim's scheme). Needs no
 * JDK-internal API. Any thread.
 */
public final class WovenEngine {

    private WovenEngine() {
    }

    /**
     * A new stack that will run {@code coroutine}'s body through its twins.
     *
     * @throws IllegalArgumentException naming the coroutine and the class, if its body is not
     *         woven (a lambda, or a class the weaver has not seen)
     */
    public static ExecutionStack newStack(CoroutineBase coroutine) {
        return new WovenStack(coroutine, WovenEntries.of(coroutine), false);
    }

    /**
     * A new stack that will run {@code coroutine}'s body through its twins on a native stack's
     * continuation, or null if its body is not woven.
     */
    public static TwinsOnContinuation onContinuation(CoroutineBase coroutine) {
        WovenEntries.Entry entry = WovenEntries.ifWoven(coroutine);
        return entry == null ? null : new WovenStack(coroutine, entry, true);
    }

    /**
     * A new stack for frames to be restored into {@code coroutine} on a native stack's
     * continuation, whose body may not be woven: its outermost frame is then entered by its own
     * method's twin, as the woven engine restores frames of another body.
     */
    public static TwinsOnContinuation toRestoreOnContinuation(CoroutineBase coroutine) {
        WovenEntries.Entry entry = WovenEntries.ifWoven(coroutine);
        return new WovenStack(coroutine, entry == null ? WovenEntries.nothing() : entry, true);
    }
}
