package dev.weft.internal.woven;

/**
 * Implemented by the weaver for every class that declares the twin of {@code void run()} of a {@code Coroutine} subclass or of a {@code Runnable}: how the woven
 * engine enters a coroutine's body. The engine checks that the body's {@code run} is the
 * twin's original before it relies on it.
 */
public interface TwinRunnable {

    void run$weft(Fiber fiber);
}
