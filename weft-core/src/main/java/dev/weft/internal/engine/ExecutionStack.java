package dev.weft.internal.engine;

/**
 * A stack on which one coroutine's body runs, and which can be suspended and resumed.
 *
 * <p>Confined to one thread at a time: whoever calls {@link #resume()} must own the coroutine
 * (the caller's locking, not this interface, moves it between threads).
 */
public interface ExecutionStack {

    /**
     * Runs the body on this stack, from its start or from where it last suspended, until it
     * suspends again or ends. Returns on the calling thread's own stack.
     */
    void resume();

    /** Whether the body has ended (returned or thrown); a done stack cannot be resumed. */
    boolean isDone();
}
