package dev.weft.internal.engine.hotspot;

import dev.weft.CoroutineBase;
import dev.weft.internal.engine.ExecutionStack;
import dev.weft.internal.frames.FrameTransfer;


/**
 * The native engine: coroutine stacks that are HotSpot continuations.
 *
 * <p>Every method may be called from any thread.
 */
public final class NativeEngine {

    private static final String CONTINUATION_PACKAGE = "jdk.internal.vm";

    /** Null when this module may use {@code jdk.internal.vm}; otherwise what the user must do. */
    private static final String ACCESS_PROBLEM = accessProblem();

    private NativeEngine() {
    }

    /**
     * Throws {@link IllegalStateException} naming the JVM option to add when the JVM does not
     * export {@code jdk.internal.vm} to Weft.
     */
    private static void requireAccess() {
        if (ACCESS_PROBLEM != null) {
            throw new IllegalStateException(ACCESS_PROBLEM);
        }
    }

    /** A new stack that will run {@code coroutine}'s body. */
    public static ExecutionStack newStack(CoroutineBase coroutine) {
        requireAccess();
        return new NativeStack(coroutine);
    }

    /**
     * The coroutine whose native stack is the innermost one running on the current thread, or
     * null when the caller runs on no stack of this engine (see {@link dev.weft.internal.engine.Engines#runningCoroutine()}).
     * A few loads, no lookup.
     */
    public static CoroutineBase runningCoroutine() {
        return ACCESS_PROBLEM == null ? NativeStack.runningCoroutine() : null;
    }

    /**
     * The frames moving out of or into the innermost native stack running on the current
     * thread, which woven code captures itself into or restores itself from; null if there are none.
     */
    public static FrameTransfer currentTransfer() {
        return ACCESS_PROBLEM == null ? NativeStack.currentTransfer() : null;
    }

    /** The option that gives Weft access to HotSpot's continuations, for this deployment. */
    public static String accessOption() {
        Module weft = NativeEngine.class.getModule();
        String target = weft.isNamed() ? weft.getName() : "ALL-UNNAMED";
        return "--add-exports java.base/" + CONTINUATION_PACKAGE + "=" + target;
    }

    private static String accessProblem() {
        if (Object.class.getModule().isExported(CONTINUATION_PACKAGE, NativeEngine.class.getModule())) {
            return null;
        }
        return "Weft runs coroutines on HotSpot continuations, and the JVM does not export "
                + CONTINUATION_PACKAGE + " to it: start java with the option " + accessOption();
    }
}
