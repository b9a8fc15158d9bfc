package dev.weft;

/**
 * The code of an {@link AsymCoroutine} that is not written as a subclass (thesis figure 3.5).
 *
 * <p>A lambda or method reference will do for a coroutine that stays in memory. A coroutine that
 * is serialized ({@link CoroutineBase#serialize()}, {@link CoroutineOutputStream}, or a durable
 * session of {@code weft-sessions}) carries this object in its outermost frame, so it must then
 * be {@link java.io.Serializable}, and so must every field it holds: a named class that
 * implements both interfaces, its classes woven. Otherwise the first serialization is refused
 * with an exception that names the class and the frame's slot, before anything is written.
 *
 * <pre>{@code
 * public final class Interview implements AsymRunnable<String, String>, Serializable {
 *     public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
 *         String name = self.ret("Please enter your name:");
 *         String country = self.ret("Please enter your country:");
 *         return "Hello " + name + " from " + country;
 *     }
 * }
 * }</pre>
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
