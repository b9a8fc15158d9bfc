package dev.weft.internal.woven;

/**
 * Implemented by the weaver for every class that declares the twin of {@code Object run(AsymCoroutine, Object)} of an {@code AsymRunnable}: how the woven
 * engine enters a coroutine's body. The engine checks that the body's {@code run} is the
 * twin's original before it relies on it.
 */
public interface TwinAsymRunnable {

    Object run$weft(dev.weft.AsymCoroutine<?, ?> self, Object input, Fiber fiber);
}
