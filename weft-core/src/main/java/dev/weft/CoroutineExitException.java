package dev.weft;

/**
 * Thrown at a coroutine's suspension point when it is {@linkplain CoroutineBase#close() closed},
 * so that its {@code finally} blocks run as it unwinds (thesis 4.2.8). A coroutine that lets it
 * propagate finishes normally; one that catches it cannot suspend again: every further
 * {@code yield}, {@code yieldTo} or {@code ret} throws it anew.
 */
public class CoroutineExitException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * An exit request for {@code coroutine}. It carries no stack trace: it is thrown once per
     * suspension attempt of a closing coroutine, as control flow rather than as an error.
     *
     * @param coroutine the coroutine being closed
     */
    public CoroutineExitException(CoroutineBase coroutine) {
        super(coroutine.getName() + " is being closed", null, false, false);
    }

    /**
     * An exit request with a message of the caller's.
     *
     * @param message the detail message
     */
    public CoroutineExitException(String message) {
        super(message);
    }
}
