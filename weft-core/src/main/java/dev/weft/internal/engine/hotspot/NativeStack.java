package dev.weft.internal.engine.hotspot;

import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.internal.access.CoroutineAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.access.TransferCount;
import dev.weft.internal.engine.ExecutionStack;
import dev.weft.internal.engine.TwinsOnContinuation;
import dev.weft.internal.engine.woven.WovenEngine;
import dev.weft.internal.frames.Bridges;
import dev.weft.internal.frames.FrameTransfer;
import dev.weft.internal.frames.StackCheck;
import dev.weft.internal.frames.StackTraces;
import dev.weft.internal.frames.ThrownTraces;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jdk.internal.vm.Continuation;
import jdk.internal.vm.ContinuationScope;

/**
 * An {@link ExecutionStack} that is a HotSpot one-shot continuation.
 *
 * <p>Suspending freezes the frames above the innermost running {@code NativeStack} into heap
 * stack chunks; resuming thaws them onto the current thread's stack, so a suspended stack may
 * be resumed on any thread. A stack resumed from inside another runs nested in it, and
 * {@link #suspend()} always suspends the innermost one.
 *
 * <p>A woven body runs as twins ({@link TwinsOnContinuation}), the woven engine's stack of it
 * running inside the continuation: its suspension points suspend the continuation, as any
 * code's do. Capturing resumes the continuation to be captured: if the suspension point was
 * called by a twin, every frame down to the body is a twin, and they unwind into the woven
 * engine's fiber, saving themselves; the continuation ends, the frames are read from the fiber,
 * and a new continuation resumes them through the woven engine's trampoline, which rebuilds
 * only the frames that run, as a restore's does. Otherwise the capture is refused, naming the
 * frame in the way, and the continuation is suspended again where it was.
 *
 * <p>A body that is not woven runs as compiled; so do bodies restored from frames whose
 * methods have no twins (class files before Java 7): their capture and restore go through the
 * woven originals, with a {@link FrameTransfer}: capturing resumes the continuation with a
 * capturing transfer, so that the suspension point returns at once and each woven frame saves
 * itself on the way out; the continuation then ends, and a new one, holding the captured frames
 * as a restoring transfer, replaces it. Restoring calls the outermost frame's method, whose
 * woven prologue rebuilds it, and so on down to the suspension point, which ends the restore
 * ({@link #finishRestore()}). Woven code finds the transfer through
 * {@link NativeEngine#currentTransfer()}.
 *
 * <p>Loading this class requires {@code jdk.internal.vm} to be exported to Weft; only
 * {@link NativeEngine} touches it, after checking that. Confined to the coroutine's owner thread.
 */
final class NativeStack implements ExecutionStack {

    static final ContinuationScope SCOPE = new ContinuationScope("weft");

    private static final Set<StackWalker.Option> WALKED = EnumSet.of(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final CoroutineAccess COROUTINES = SharedAccess.coroutines();
    private static final TransferCount TRANSFERS = SharedAccess.transferCount();

    /**
     * Per coroutine class, the method its {@code run} dispatches to, through a bridge that the
     * weaver passes through ({@link Bridges}: the bridge's frame is never in a frame list, and
     * calling {@code run} rebuilds it): the usual outermost frame of a restore.
     */
    private static final ClassValue<Method> RUN_METHODS = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
            Class<?>[] parameters = dev.weft.AsymCoroutine.class.isAssignableFrom(type) ? new Class<?>[] {Object.class} : new Class<?>[0];
            for (Class<?> k = type; k != null; k = k.getSuperclass()) {
                try {
                    return Bridges.passedThrough(k.getDeclaredMethod("run", parameters), type);
                } catch (NoSuchMethodException e) {
                    // declared further up
                }
            }
            throw new IllegalStateException(type.getName() + " has no run method");
        }
    };

    private final CoroutineBase coroutine;
    /** The continuation that runs the body; a new one after each capture or restore. */
    private Body continuation;
    /**
     * The frames moving out of (capture) or into (restore) this stack, or null. A restore is
     * pending here from {@link #restore} until the next {@link #resume()} runs it.
     */
    private FrameTransfer transfer;
    /**
     * Whether this stack holds one of {@link FrameTransfer}'s JVM-wide active counts: only while
     * a capture or restore actually runs, inside {@link #capture()} or {@link #resume()}, and
     * given back before either returns. A deserialized coroutine that is dropped, or whose
     * restore throws, thus leaves nothing raised.
     */
    private boolean counted;
    /** What the body threw while it was being captured: never the coroutine's own failure. */
    private Throwable captureFailure;
    /** Set when a capture left the continuation in a state that cannot go on: the stack is done. */
    private boolean broken;
    /** Whether {@link #captureTwins} runs the continuation to unwind its twins. */
    private boolean capturingTwins;
    /** Why the twins could not unwind, found by the suspension point while {@link #capturingTwins}. */
    private String twinsRefusal;

    /**
     * The woven engine's stack that runs a woven body as twins on this stack's continuation, or
     * null if the body is not woven, when it runs as compiled. A twin's suspension point
     * suspends the continuation; a capture unwinds the twins' frames into it, and a capture or
     * restore leaves them there, for its trampoline to resume on a new continuation.
     */
    private TwinsOnContinuation twins;

    NativeStack(CoroutineBase coroutine) {
        this.coroutine = coroutine;
        this.twins = WovenEngine.onContinuation(coroutine);
        this.continuation = new Body();
    }

    /** The continuation, which knows its stack, so that the running one leads back to it. */
    private final class Body extends Continuation {

        Body() {
            super(SCOPE, NativeStack.this::runBody);
        }

        /** Whether its body has begun to run. */
        private boolean started;

        NativeStack stack() {
            return NativeStack.this;
        }

        /** Whether the body began and has not ended: the continuation holds its frames. */
        boolean holdsFrames() {
            return started && !isDone();
        }

        /** Called on this stack when HotSpot refuses to freeze it; the exception reaches the suspender. */
        @Override
        protected void onPinned(Pinned reason) {
            throw new IllegalStateException(coroutine + " cannot suspend on thread "
                    + Thread.currentThread().getName() + ": " + explain(reason));
        }
    }

    private void runBody() {
        continuation.started = true;
        if (twins != null) {
            twins.resume(); // records the body's end with the coroutine itself
            return;
        }
        try {
            Object output = isRestoring() ? restoreEntry() : COROUTINES.runBody(coroutine, COROUTINES.startingInput(coroutine));
            COROUTINES.putOutput(coroutine, output); // a restore kept the call's input for the suspension it resumes in
        } catch (Throwable t) {
            if (transfer != null && transfer.isCapturing()) {
                captureFailure = t;
            } else {
                ThrownTraces.crossed(t, coroutine, NativeStack.class, "runBody", null);
                COROUTINES.recordEnd(coroutine, t);
            }
        }
    }

    private boolean isRestoring() {
        return transfer != null && !transfer.isCapturing();
    }

    /** Runs the continuation; a pending restore counts as active only while it runs, however the run ends. */
    @Override
    public void resume() {
        if (isRestoring()) {
            count();
        }
        try {
            continuation.run();
        } finally {
            uncount();
            if (isRestoring() && continuation.isDone()) {
                transfer = null; // the body ended, or threw, before its restore was complete
            }
        }
    }

    @Override
    public Engine engine() {
        return Engine.NATIVE;
    }

    @Override
    public boolean isDone() {
        return broken || (twins != null ? twins.isDone() : continuation.isDone());
    }

    @Override
    public boolean suspend() {
        Continuation.yield(SCOPE);
        if (twins != null) {
            return suspendedTwins();
        }
        for (FrameTransfer t = transfer; t != null && t.isCapturing(); t = transfer) {
            if (t.admit(StackCheck.refusal())) {
                return false;
            }
            Continuation.yield(SCOPE); // the refusal goes back to capture(); suspended again right here
        }
        return true;
    }

    /**
     * After the continuation's yield: true to go on; false, with the twins unwinding, when it was
     * resumed to be captured and they can; suspended again, the refusal kept for
     * {@link #captureTwins}, when they cannot.
     */
    private boolean suspendedTwins() {
        while (capturingTwins) {
            if (twins.suspendedByTwin()) {
                twins.unwind();
                return false;
            }
            twinsRefusal = StackCheck.twinRefusal();
            Continuation.yield(SCOPE); // the refusal goes back to captureTwins(); suspended again right here
        }
        return true;
    }

    @Override
    public boolean finishRestore() {
        if (twins != null) {
            return false; // the trampoline resumes the innermost frame: no frame comes back to its suspension point
        }
        FrameTransfer t = transfer;
        if (t == null || t.isCapturing()) {
            return false;
        }
        if (!t.isRestored()) {
            throw new IllegalStateException(coroutine + " reached a suspension point before all its frames were restored");
        }
        endTransfer();
        return true;
    }

    @Override
    public CoroutineFrame[] capture() {
        if (twins != null) {
            return captureTwins();
        }
        if (isRestoring()) {
            return transfer.pending(); // restored and not resumed since
        }
        FrameTransfer capture = FrameTransfer.capture();
        transfer = capture;
        count();
        try {
            continuation.run();
        } finally {
            endTransfer();
        }
        if (capture.refusal() != null) {
            throw new IllegalArgumentException(capture.refusal());
        }
        if (!continuation.isDone() || captureFailure != null) {
            broken = true;
            Throwable failure = captureFailure;
            captureFailure = null;
            throw new IllegalStateException("capturing " + coroutine + " failed; it has finished", failure);
        }
        CoroutineFrame[] captured = capture.captured();
        restore(captured);
        return FrameTransfer.copy(captured);
    }

    /**
     * Resumes the continuation, if it holds frames, to unwind them into the twins' fiber; then
     * reads the fiber's frames, which a new continuation will resume.
     */
    private CoroutineFrame[] captureTwins() {
        if (continuation.holdsFrames()) {
            capturingTwins = true;
            try {
                continuation.run();
            } finally {
                capturingTwins = false;
            }
            String refusal = twinsRefusal;
            if (refusal != null) {
                twinsRefusal = null;
                throw new IllegalArgumentException(refusal);
            }
            if (!continuation.isDone()) {
                broken = true;
                throw new IllegalStateException("capturing " + coroutine + " failed: its frames did not unwind; it has finished");
            }
            continuation = new Body();
        }
        return twins.capture();
    }

    @Override
    public void restore(CoroutineFrame[] frames) {
        if (twins != null || frames.length > 0) {
            TwinsOnContinuation restored = twins != null ? twins : WovenEngine.toRestoreOnContinuation(coroutine);
            try {
                restored.restore(frames);
                twins = restored;
                continuation = new Body();
                broken = false;
                return;
            } catch (IllegalArgumentException withoutTwins) {
                twins = null; // frames of class files the weaver gives no twins: rebuilt by their woven methods
            }
        }
        if (transfer != null) {
            endTransfer(); // the restore that was pending is dropped
        }
        continuation = new Body();
        broken = false;
        if (frames.length > 0) {
            transfer = FrameTransfer.restore(List.of(frames)); // counted once resume() runs it
        }
    }

    /** Walks the continuation, unmounted and held busy by the caller; a restore not yet run is its frames. */
    @Override
    public StackTraceElement[] suspendedStackTrace() {
        if (twins != null) {
            StackTraceElement[] saved = twins.suspendedStackTrace();
            if (!continuation.holdsFrames()) {
                return saved;
            }
            StackTraceElement[] running = continuation.stackWalker(WALKED).walk(StackTraces::coroutineFrames);
            StackTraceElement[] all = Arrays.copyOf(running, running.length + saved.length);
            System.arraycopy(saved, 0, all, running.length, saved.length);
            return all;
        }
        if (isRestoring()) {
            return StackTraces.of(transfer.pending());
        }
        return continuation.stackWalker(WALKED).walk(StackTraces::coroutineFrames);
    }

    /*
     * The flag is written after the count changes: a StackOverflowError thrown on the way into
     * begin() or end() (a restore that ends at the very edge of the stack) leaves the two in
     * step, and resume()'s finally block, back at the bottom of the stack, retries.
     */
    private void count() {
        if (!counted) {
            TRANSFERS.begin();
            counted = true;
        }
    }

    private void uncount() {
        if (counted) {
            TRANSFERS.end();
            counted = false;
        }
    }

    private void endTransfer() {
        transfer = null;
        uncount();
    }

    /**
     * Calls the method of the outermost frame being restored, on that frame's receiver, with
     * zero and null arguments: its woven prologue rebuilds it from the frame, and so on down to
     * the suspension point. Goes straight there, not through {@code run}: the frames may come
     * from a coroutine built differently (thesis 5.2 restores into a plain {@code AsymCoroutine}).
     *
     * @return what that method returns when the coroutine finishes
     */
    private Object restoreEntry() throws Throwable {
        CoroutineFrame outermost = transfer.outermost();
        Method method = outermost.method;
        if (outermost.objectValues.length > 0 && outermost.objectValues[0] == coroutine
                && method.equals(RUN_METHODS.get(coroutine.getClass()))) {
            return COROUTINES.runBody(coroutine, null); // the usual case, without reflection
        }
        Object receiver = Modifier.isStatic(method.getModifiers()) ? null : outermost.objectValues[0];
        Object[] arguments = new Object[method.getParameterCount()];
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = types[i].isPrimitive() ? Array.get(Array.newInstance(types[i], 1), 0) : null;
        }
        try {
            method.setAccessible(true);
            return method.invoke(receiver, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException("cannot restore " + coroutine + ": cannot call " + method
                    + " (open its package to module dev.weft?)", e);
        }
    }

    /** The transfer of the innermost native stack running on the current thread, or null. */
    static FrameTransfer currentTransfer() {
        Continuation innermost = Continuation.getCurrentContinuation(SCOPE);
        return innermost == null ? null : ((Body) innermost).stack().transfer;
    }

    /**
     * The coroutine of the innermost native stack running on the current carrier thread, or
     * null outside of all of them. Read afresh at each call: C2 loads the carrier thread
     * ({@code Thread.currentCarrierThread()}, under {@code getCurrentContinuation}) from memory
     * that every call clobbers, unlike {@code Thread.currentThread()}, so a frame resumed on
     * another thread sees its new one. {@code Continuation.yield} finds its continuation the
     * same way.
     */
    static CoroutineBase runningCoroutine() {
        Continuation innermost = Continuation.getCurrentContinuation(SCOPE);
        return innermost == null ? null : ((Body) innermost).stack().coroutine;
    }

    private static String explain(Continuation.Pinned reason) {
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
