package dev.weft.internal.engine.hotspot;

import dev.weft.CoroutineBase;
import dev.weft.internal.engine.ExecutionStack;
import dev.weft.internal.engine.NativeEngineLink;
import dev.weft.internal.frames.FrameTransfer;


/**
 * The native engine: coroutine stacks that are HotSpot continuations. JDK 21 and later only:
 * {@link dev.weft.internal.engine.Engines} creates the one instance, by name, on such a JDK, and
 * nothing else refers to this package, so that {@code weft-core} loads on JDK 17.
 *
 * <p>Every method may be called from any thread.
 */
public final class NativeEngine implements NativeEngineLink {

    private static final String CONTINUATION_PACKAGE = "jdk.internal.vm";

    /** Null when this module may use {@code jdk.internal.vm}; otherwise what the user must do. */
    private static final String ACCESS_PROBLEM = accessProblem();

    /** Called by {@link dev.weft.internal.engine.Engines}, once. */
    public NativeEngine() {
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

    @Override
    public ExecutionStack newStack(CoroutineBase coroutine) {
        requireAccess();
        return new NativeStack(coroutine);
    }

    /** A few loads, no lookup (see {@link dev.weft.internal.engine.Engines#runningCoroutine()}). */
    @Override
    public CoroutineBase runningCoroutine() {
        return ACCESS_PROBLEM == null ? NativeStack.runningCoroutine() : null;
    }

    @Override
    public FrameTransfer currentTransfer() {
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
