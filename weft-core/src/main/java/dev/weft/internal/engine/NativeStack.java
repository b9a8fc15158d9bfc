package dev.weft.internal.engine;

import jdk.internal.vm.Continuation;
import jdk.internal.vm.ContinuationScope;

import java.util.EnumSet;
import java.util.List;

/**
 * An {@link ExecutionStack} that is a HotSpot one-shot continuation.
 *
 * <p>Suspending freezes the frames above the innermost running {@code NativeStack} into heap
 * stack chunks; resuming thaws them onto the current thread's stack, so a suspended stack may
 * be resumed on any thread. A stack resumed from inside another runs nested in it, and
 * {@link #suspend()} always suspends the innermost one.
 *
 * <p>Loading this class requires {@code jdk.internal.vm} to be exported to Weft; only
 * {@link NativeEngine} touches it, after checking that.
 */
final class NativeStack extends Continuation implements ExecutionStack {

    static final ContinuationScope SCOPE = new ContinuationScope("weft");

    /** What this stack runs for; only its {@code toString()} is used, to name it in errors. */
    private final Object coroutine;

    NativeStack(Object coroutine, Runnable body) {
        super(SCOPE, body);
        this.coroutine = coroutine;
    }

    @Override
    public void resume() {
        run();
    }

    List<StackWalker.StackFrame> frames() {
        return stackWalker(EnumSet.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_HIDDEN_FRAMES))
                .walk(s -> s.toList());
    }

    /**
     * The coroutine of the innermost native stack running on the current carrier thread, or
     * null outside of all of them. Read afresh at each call: C2 loads the carrier thread
     * ({@code Thread.currentCarrierThread()}, under {@code getCurrentContinuation}) from memory
     * that every call clobbers, unlike {@code Thread.currentThread()}, so a frame resumed on
     * another thread sees its new one. {@code Continuation.yield} finds its continuation the
     * same way.
     */
    static Object runningCoroutine() {
        Continuation innermost = Continuation.getCurrentContinuation(SCOPE);
        return innermost == null ? null : ((NativeStack) innermost).coroutine;
    }

    static void suspend() {
        Continuation.yield(SCOPE);
    }

    /** Called on this stack when HotSpot refuses to freeze it; the exception reaches the suspender. */
    @Override
    protected void onPinned(Pinned reason) {
        throw new IllegalStateException(coroutine + " cannot suspend on thread "
                + Thread.currentThread().getName() + ": " + explain(reason));
    }

    private static String explain(Pinned reason) {
        return switch (reason) {
            case NATIVE -> "a native or VM frame is on its stack (a class initializer, a JNI"
                    + " method, or another call made through the VM); suspend outside of it";
            case MONITOR -> "a frame on its stack holds a monitor (synchronized), which this JDK ("
                    + Runtime.version() + ") cannot suspend; JDK 24 or newer can";
            case CRITICAL_SECTION -> "it is inside a critical section of the JDK";
            default -> "HotSpot reports it as pinned (" + reason + ")";
        };
    }
}
