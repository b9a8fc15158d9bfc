package dev.weft.internal.access;

import dev.weft.CoroutineBase;
import dev.weft.internal.frames.FrameTransfer;
import dev.weft.internal.woven.Fiber;

import java.lang.invoke.MethodHandles;
import java.security.CodeSource;

/**
 * The one bridge through which Weft's internal packages reach state that other packages keep
 * package-private (the JDK's {@code SharedSecrets} pattern): the API classes' scheduler state,
 * the engine-side control of a {@link Fiber}, and the count of frame transfers in progress.
 * Each accessor is set once, by the class that implements it, from that class's static
 * initializer; a getter initializes that class first, so it never sees an accessor missing.
 *
 * <p>Nothing outside Weft can use this to change behaviour: the package is not exported, and
 * each setter accepts only its own implementing class as caller, once. The one accessor that
 * changes what all woven code in the JVM does, {@link #transferCount()}, is moreover handed only
 * to Weft's own classes, which on the class path (where nothing hides a public member) are those
 * loaded by this class's loader from the same place (jar or directory) as this class. Any thread.
 */
public final class SharedAccess {

    private static final StackWalker CALLERS = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private static volatile CoroutineAccess coroutines;
    private static volatile FiberAccess fibers;
    private static volatile TransferCount transfers;

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

    /**
     * Called once by {@link FrameTransfer}'s static initializer.
     *
     * @throws IllegalStateException if called by any other class, or a second time
     */
    public static void setTransferCount(TransferCount count) {
        checkSetter(FrameTransfer.class, transfers);
        transfers = count;
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

    /**
     * The count of captures and restores in progress, for the native engine.
     *
     * @throws IllegalStateException if the caller is not one of Weft's own classes
     */
    public static TransferCount transferCount() {
        Class<?> caller = CALLERS.getCallerClass();
        if (!isWeftCore(caller)) {
            throw new IllegalStateException("only Weft's own classes reach the count of frame transfers in progress, which"
                    + " sends all woven code down its slow path; " + caller.getName() + " tried");
        }
        TransferCount count = transfers;
        if (count == null) {
            ensureInitialized(FrameTransfer.class);
            count = transfers;
        }
        return count;
    }

    /** Whether {@code type} is one of weft-core's own classes: in its module, or on the class path, loaded from where this class was. */
    private static boolean isWeftCore(Class<?> type) {
        Module own = SharedAccess.class.getModule();
        if (own.isNamed() || type.getModule().isNamed()) {
            return type.getModule() == own;
        }
        return type.getClassLoader() == SharedAccess.class.getClassLoader()
                && location(type).equals(location(SharedAccess.class));
    }

    /** Where {@code type} was loaded from, as a string: "none" if its loader does not say. */
    private static String location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null || source.getLocation() == null ? "none" : source.getLocation().toString();
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
