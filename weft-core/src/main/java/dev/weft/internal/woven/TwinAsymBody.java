package dev.weft.internal.woven;

/**
 * How the woven engine enters the body of an {@code AsymCoroutine} subclass: the weaver makes
 * every class that declares the twin of {@code Object run(Object)} (for a generic subclass, the
 * bridge method's) implement this interface. The engine checks that the body's {@code run} is
 * the twin's original before it relies on it.
 */
public interface TwinAsymBody {

    Object run$weft(Object input, Fiber fiber);
}
