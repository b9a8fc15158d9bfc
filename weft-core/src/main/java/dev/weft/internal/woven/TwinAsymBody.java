package dev.weft.internal.woven;

/**
 * Implemented by the weaver for every class that declares the twin of {@code Object run(Object)} of an {@code AsymCoroutine} subclass (the bridge, for a generic one): how the woven
 * engine enters a coroutine's body. The engine checks that the body's {@code run} is the
 * twin's original before it relies on it.
 */
public interface TwinAsymBody {

    Object run$weft(Object input, Fiber fiber);
}
