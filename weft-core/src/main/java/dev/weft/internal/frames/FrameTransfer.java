package dev.weft.internal.frames;

import dev.weft.CoroutineFrame;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.access.TransferCount;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The frames moving out of a coroutine (capture) or into it (restore), while its woven code
 * unwinds or rebuilds its stack. Confined to the coroutine's owner thread.
 *
 * <p>Also keeps the JVM-wide count of captures and restores in progress, which woven code reads
 * on its fast path ({@link #activeCount()}, through {@code WovenFrames.active()}). Nothing here
 * that is public changes it: it is raised and lowered only through the {@link TransferCount}
 * that this class hands to {@link SharedAccess}, which gives it to Weft's own classes alone.
 */
public final class FrameTransfer {

    /** How many captures and restores are in progress in the JVM: woven code looks for a transfer only while it is not zero. */
    private static int active; // plain reads on woven code's fast path; written atomically
    private static final VarHandle ACTIVE;

    static {
        try {
            ACTIVE = MethodHandles.lookup().findStaticVarHandle(FrameTransfer.class, "active", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final boolean capturing;
    private final List<CoroutineFrame> frames;
    private int next;
    private String refusal;

    /** The method of the last frame captured, by its owner and key: a recursion captures one method many times. */
    private Class<?> lastOwner;
    private String lastKey;
    private Method lastMethod;

    static {
        SharedAccess.setTransferCount(new Count());
    }

    /** The count's only writer, which the native engine gets from {@link SharedAccess#transferCount()}. */
    private static final class Count implements TransferCount {

        @Override
        public void begin() {
            ACTIVE.getAndAdd(1);
        }

        @Override
        public void end() {
            ACTIVE.getAndAdd(-1);
        }
    }

    /** How many captures and restores are in progress in the JVM (a plain read): woven code looks for a transfer only when it is not zero. */
    public static int activeCount() {
        return active;
    }

    private FrameTransfer(boolean capturing, List<CoroutineFrame> frames) {
        this.capturing = capturing;
        this.frames = frames;
    }

    /** A capture: woven frames add themselves, innermost first. */
    public static FrameTransfer capture() {
        return new FrameTransfer(true, new ArrayList<>());
    }

    /** A restore of {@code frames}, outermost first: woven prologues take them in that order. */
    public static FrameTransfer restore(List<CoroutineFrame> frames) {
        return new FrameTransfer(false, frames);
    }

    public boolean isCapturing() {
        return capturing;
    }

    /**
     * Before a capture unwinds anything: whether it may, given why the coroutine's stack cannot
     * be captured ({@code refusal}), or null if it can. A refused capture keeps the reason.
     */
    public boolean admit(String refusal) {
        this.refusal = refusal;
        return refusal == null;
    }

    /** Why this capture was refused, or null. */
    public String refusal() {
        return refusal;
    }

    /** Whether every frame of this restore has been taken: the next suspension point is where it resumes. */
    public boolean isRestored() {
        return !capturing && next == frames.size();
    }

    /** The captured frames, outermost first. */
    public CoroutineFrame[] captured() {
        CoroutineFrame[] out = new CoroutineFrame[frames.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = frames.get(out.length - 1 - i);
        }
        return out;
    }

    /** The outermost frame of a restore: the method the coroutine's entry calls first. */
    public CoroutineFrame outermost() {
        return frames.get(0);
    }

    /** The frames of a restore that has not begun: what serialize returns for a coroutine not resumed since. */
    public CoroutineFrame[] pending() {
        return copy(frames.toArray(new CoroutineFrame[0]));
    }

    /**
     * Copies of {@code frames} with copies of their value arrays, sharing the values themselves;
     * null where {@code frames} has null. Throws {@link NullPointerException} if {@code frames} is null.
     */
    public static CoroutineFrame[] copy(CoroutineFrame[] frames) {
        CoroutineFrame[] out = new CoroutineFrame[Objects.requireNonNull(frames, "frames").length];
        for (int i = 0; i < frames.length; i++) {
            out[i] = copy(frames[i]);
        }
        return out;
    }

    /**
     * A copy of {@code frame} with copies of its value arrays, sharing the values themselves; null
     * if it is null. Each field is read once, so that another thread changing the frame meanwhile
     * gives a copy of some state of each field, never an exception here.
     */
    public static CoroutineFrame copy(CoroutineFrame frame) {
        if (frame == null) {
            return null;
        }
        long[] scalars = frame.scalarValues;
        Object[] objects = frame.objectValues;
        return new CoroutineFrame(frame.method, frame.bci, frame.localCount, frame.expressionCount,
                scalars == null ? null : scalars.clone(), objects == null ? null : objects.clone());
    }

    /** The method {@code methodKey} of {@code owner}, as {@link dev.weft.internal.woven.WovenFrames#method} finds it. */
    public Method method(Class<?> owner, String methodKey) {
        if (owner != lastOwner || !methodKey.equals(lastKey)) {
            lastMethod = dev.weft.internal.woven.WovenFrames.method(owner, methodKey);
            lastOwner = owner;
            lastKey = methodKey;
        }
        return lastMethod;
    }

    public void add(CoroutineFrame frame) {
        frames.add(frame);
    }

    /** The next frame to restore, or null when all are restored. */
    public CoroutineFrame take() {
        return next < frames.size() ? frames.get(next++) : null;
    }
}
