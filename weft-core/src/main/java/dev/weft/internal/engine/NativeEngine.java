package dev.weft.internal.engine;

import java.util.List;

/**
 * The native engine: coroutine stacks that are HotSpot continuations.
 *
 * <p>Every method may be called from any thread. {@link #suspend()} must be called on a stack
 * created here, by the code running on it.
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
    public static void requireAccess() {
        if (ACCESS_PROBLEM != null) {
            throw new IllegalStateException(ACCESS_PROBLEM);
        }
    }

    /**
     * A new stack that will run {@code body}; {@code coroutine}'s {@code toString()} names it in
     * errors.
     */
    public static ExecutionStack newStack(Object coroutine, Runnable body) {
        requireAccess();
        return new NativeStack(coroutine, body);
    }

    /**
     * Suspends the innermost running native stack of the current thread: its {@code resume()}
     * returns. Returns when the stack is resumed. Throws {@link IllegalStateException}, without
     * suspending, when HotSpot cannot freeze the stack (a native frame on it, for instance).
     */
    public static void suspend() {
        NativeStack.suspend();
    }

    /**
     * The coroutine (as given to {@link #newStack}) whose stack is the innermost one running on
     * the current thread, or null when the caller runs on no stack of this engine. Correct in
     * a frame that was suspended on one thread and resumed on another, unlike anything derived
     * from {@code Thread.currentThread()}, which HotSpot's compilers may keep from before the
     * suspension. A few loads, no lookup.
     */
    public static Object runningCoroutine() {
        return ACCESS_PROBLEM == null ? NativeStack.runningCoroutine() : null;
    }

    /**
     * The frames of a suspended {@code stack}, innermost first, with their classes and
     * hidden frames included. Names, classes and bytecode indexes only: HotSpot does not report
     * the values of a suspended stack's slots reliably.
     */
    public static List<StackWalker.StackFrame> frames(ExecutionStack stack) {
        return ((NativeStack) stack).frames();
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
