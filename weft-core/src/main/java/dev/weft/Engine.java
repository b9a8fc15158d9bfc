package dev.weft;

/**
 * What suspends and resumes a coroutine's stack. Chosen when the coroutine is created; the API
 * and its semantics are the same on both, within the limits each states.
 */
public enum Engine {

    /**
     * HotSpot's own continuations (the default). Any code may suspend, woven or not, including
     * callbacks that JDK code calls; only native frames (a class initializer, JNI) and, before
     * JDK 24, monitors are refused. A switch freezes and thaws the frames involved, so its cost
     * grows little with depth. Serializing a coroutine needs its code woven by
     * {@code weft-weaver}.
     */
    NATIVE,

    /**
     * The coroutine's woven code saves its own frames and returns on every suspension, and
     * rebuilds them when resumed (Kilim's scheme), through the twin methods the weaver adds: no
     * JDK-internal API is involved, and a shallow switch is an order of magnitude cheaper than
     * the native engine's, a deep one costlier. Its body must be a woven class (a subclass
     * overriding {@code run}, or a {@code Runnable} or {@code AsymRunnable} class; not a lambda,
     * whose class the weaver never sees), and every frame between the body and a suspension
     * point must be a woven method called from woven code and holding no monitor. A suspension
     * reached any other way (through a JDK callback, a lambda, reflection, a class that is not
     * woven, inside {@code synchronized}) is refused with an exception that names the frame,
     * and the coroutine is left as it was. A suspended coroutine's frames are saved already:
     * {@code serialize()} reads them without resuming it, and they are the same frames the
     * native engine captures, so that frames move between the engines both ways.
     */
    WOVEN
}
