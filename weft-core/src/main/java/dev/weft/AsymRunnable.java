package dev.weft;

/**
 * The code of an {@link AsymCoroutine} that is not written as a subclass (thesis figure 3.5).
 *
 * @param <I> what each {@code call} passes in
 * @param <O> what each {@code ret}, and the final return, passes out
 */
@FunctionalInterface
public interface AsymRunnable<I, O> {

    /**
     * Runs the coroutine's code.
     *
     * @param coroutine the coroutine running this code, for its {@link AsymCoroutine#ret ret}
     * @param value the input of the first {@code call}
     * @return the output of the last {@code call}, which finishes the coroutine
     */
    O run(AsymCoroutine<? extends I, ? super O> coroutine, I value);
}
