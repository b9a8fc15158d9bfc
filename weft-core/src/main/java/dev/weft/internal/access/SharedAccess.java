package dev.weft.internal.access;

import dev.weft.CoroutineBase;
import dev.weft.internal.woven.Fiber;

import java.lang.invoke.MethodHandles;

/**
 * The one bridge through which Weft's internal packages reach state that other packages keep
 * package-private (the JDK's {@code SharedSecrets} pattern): the API classes' scheduler state,
 * and the engine-side control of a {@link Fiber}. Each accessor is set once, by the class that
 * implements it, from that class's static initializer; a getter initializes that class first,
 * so it never sees an accessor missing.
 *
 * <p>Nothing outside Weft can use this to change behaviour: the package is not exported, and
 * each setter accepts only its own implementing class as caller, once. Any thread.
 */
public final class SharedAccess {

    private static final StackWalker CALLERS = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private static volatile CoroutineAccess coroutines;
    private static volatile FiberAccess fibers;

    private SharedAccess() {
    }

    /**
     * Called once by {@link CoroutineBase}'s static initializer.
     *
     * @throws IllegalStateException if called by any other class, or a second time
     */
    public static void setCoroutineAccess(CoroutineAccess access) {
        checkSetter(CoroutineBase.class, coroutines);
        coroutines = access;
    }

    /**
     * Called once by {@link Fiber}'s static initializer.
     *
     * @throws IllegalStateException if called by any other class, or a second time
     */
    public static void setFiberAccess(FiberAccess access) {
        checkSetter(Fiber.class, fibers);
        fibers = access;
    }

    /** The scheduler's side of the API classes. */
    public static CoroutineAccess coroutines() {
        CoroutineAccess access = coroutines;
        if (access == null) {
            ensureInitialized(CoroutineBase.class);
            access = coroutines;
        }
        return access;
    }

    /** The engine's control of fibers. */
    public static FiberAccess fibers() {
        FiberAccess access = fibers;
        if (access == null) {
            ensureInitialized(Fiber.class);
            access = fibers;
        }
        return access;
    }

    private static void checkSetter(Class<?> owner, Object current) {
        Class<?> caller = CALLERS.walk(frames -> frames.skip(2).findFirst()).orElseThrow().getDeclaringClass();
        if (caller != owner || current != null) {
            throw new IllegalStateException("only " + owner.getName() + " sets its access, once; "
                    + caller.getName() + " tried" + (current != null ? " after it was set" : ""));
        }
    }

    private static void ensureInitialized(Class<?> type) {
        try {
            MethodHandles.lookup().ensureInitialized(type);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Weft cannot initialize " + type.getName(), e);
        }
    }
}
