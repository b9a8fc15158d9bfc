/**
 * Weft's coroutines: the whole public contract.
 *
 * <ul>
 *   <li>{@link dev.weft.Coroutine}: symmetric coroutines; {@code yield()} passes control round a
 *       fair per-thread ring, {@code yieldTo(c)} to a chosen one.
 *   <li>{@link dev.weft.AsymCoroutine}: asymmetric coroutines; {@code call(i)} runs one until it
 *       {@code ret}s a value, and each is an {@code Iterable} of the values it returns.
 *   <li>{@link dev.weft.CoroutineBase}: what both share: the states, {@code close()},
 *       {@code steal()} to another thread, {@code serialize()} and {@code deserialize}.
 *   <li>{@link dev.weft.CoroutineFrame}, {@link dev.weft.CoroutineOutputStream} and
 *       {@link dev.weft.CoroutineInputStream}: a suspended coroutine as frames, and as bytes for
 *       another process to resume.
 *   <li>{@link dev.weft.Engine}: which engine runs a coroutine: HotSpot's continuations
 *       ({@code NATIVE}, the default on JDK 21 and later) or woven code that saves its own frames
 *       ({@code WOVEN}, the default on JDK 17 to 20).
 * </ul>
 *
 * <pre>{@code
 * AsymCoroutine<Void, Integer> squares = new AsymCoroutine<>((self, in) -> {
 *     int i = 1;
 *     for (; i < 3; i++) {
 *         self.ret(i * i);    // each ret is one value of the loop below
 *     }
 *     return i * i;           // and so is what run returns: the last one
 * });
 * for (int square : squares) {
 *     System.out.println(square);   // 1, 4, 9
 * }
 * }</pre>
 *
 * <p>Iterating calls the coroutine until it is finished, so the loop sees every value passed to
 * {@code ret} and then the value the body returns: a body that returned {@code null} here would
 * end the loop with a {@code NullPointerException} as {@code int square} unboxes it.
 *
 * <p>A coroutine belongs to the thread that created it; touching it from another thread throws
 * {@link java.lang.WrongThreadException} (an {@link IllegalStateException} on JDK 17 and 18,
 * which lack it), except {@code steal()}. The native engine needs JDK 21 or later and
 * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED} (class path) or
 * {@code =dev.weft} (module path); the woven engine runs on JDK 17 and later, and needs classes
 * woven by {@code weft-weaver}.
 */
package dev.weft;
