package dev.weft.internal.woven;

/**
 * How the woven engine enters an {@code AsymRunnable} body: the weaver makes every class that
 * declares the twin of {@code Object run(AsymCoroutine, Object)} implement this interface. The
 * engine checks that the body's {@code run} is the twin's original before it relies on it.
 */
public interface TwinAsymRunnable {

    Object run$weft(dev.weft.AsymCoroutine<?, ?> self, Object input, Fiber fiber);
}
