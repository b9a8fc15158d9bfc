package dev.weft.internal.woven;

/**
 * How the woven engine enters the body of a symmetric coroutine: the weaver makes every class
 * that declares the twin of {@code void run()} (a {@code Coroutine} subclass, a
 * {@code Runnable}) implement this interface. The engine checks that the body's {@code run} is
 * the twin's original before it relies on it.
 */
public interface TwinRunnable {

    void run$weft(Fiber fiber);
}
