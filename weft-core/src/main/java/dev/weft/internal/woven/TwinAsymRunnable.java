package dev.weft.internal.woven;

/**
 * What a class woven in format 8 or before implements if it declares the twin of
 * {@code Object run(AsymCoroutine, Object)}: the woven engine entered such bodies through this interface. Woven code of
 * format 9 implements none (its twins are private, and the engine enters a body through a
 * {@link BodyCall}); the type stays, empty, so that a class woven before still loads and is
 * refused by its registration, with a message that names it and says to weave it again, rather
 * than failing to link.
 */
public interface TwinAsymRunnable {
}
