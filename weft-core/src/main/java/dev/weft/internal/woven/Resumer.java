package dev.weft.internal.woven;

import java.lang.invoke.MethodHandle;

/**
 * How the engine calls the innermost saved frame of a kind on resume: its twin on the frame's
 * receiver, every parameter zero ({@link Twins#resumer}). Each kind gets a resumer of its own, an
 * instance of a hidden class that holds the kind's handle as a constant ({@link HandleClass}),
 * so that the JIT inlines the twin into the engine's call wherever that call meets one or two
 * kinds, as it inlines a virtual call.
 *
 * <p>Immutable; thread-safe.
 */
abstract class Resumer {

    /** The hidden classes of resumers: {@code resume} calls the handle, of type {@code (Object, Fiber) Object}. */
    private static final HandleClass CLASSES = new HandleClass(Resumer.class, "resume", Twins.RESUMER_TYPE);

    Resumer() {
    }

    /** Calls the kind's twin on {@code receiver} (null for a static method), resuming from {@code fiber}'s saved values. */
    abstract Object resume(Object receiver, Fiber fiber) throws Throwable;

    /** A resumer that calls {@code handle}, of type {@code (Object, Fiber) Object}. */
    static Resumer of(MethodHandle handle) {
        if (!handle.type().equals(Twins.RESUMER_TYPE)) {
            throw new IllegalArgumentException("a resumer's handle must be of type " + Twins.RESUMER_TYPE + ": " + handle);
        }
        return CLASSES.instance(handle);
    }
}
