package dev.weft.internal.woven;

import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;

import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * The state of one coroutine run by the woven engine, which woven twin methods take as their
 * last argument: whether its code is running, unwinding or resuming a frame, and its saved
 * frames.
 *
 * <p>Suspending <em>unwinds</em>: the suspension point sets {@link #UNWINDING} and returns, and
 * each twin frame on the way out, seeing it after its call, pushes its live values and ends its
 * frame ({@link #endFrame}) and returns, innermost frame first, down to the engine. Only the frames
 * that ran since the engine last entered the stack are on the way: the frames saved before and
 * not resumed since stay saved, under the new ones. The engine then turns the new frames round,
 * so that the saved frames always form one stack, the outermost at the bottom.
 *
 * <p>Resuming does not rebuild the stack: the engine resumes the innermost saved frame alone
 * ({@link #RESUMING}), by a call of its twin through the handle the frame saved; the twin's
 * prologue pops its values and goes on right after the call it was suspended in, with the
 * result the engine passed in ({@code resumed<Kind>()}), or throwing there the exception the
 * engine passed in. When that frame returns, or throws, the engine resumes the next saved frame
 * with its result in the same way: a trampoline over the saved frames, as Kotlin resumes a
 * chain of continuations. A switch thus costs the same at any depth.
 *
 * <p>Values are kept in two stacks, one for references and one for primitives as {@code long}
 * bits, which grow as needed and are reused from one suspension to the next; each saved frame
 * has a header: its class, the handle that resumes it, its receiver and where its values end.
 *
 * <p>Woven code calls only the mode tests, the pushes and pops of its own frame's values,
 * {@link #endFrame}, the {@code resumed} methods and {@link #notASite}; everything else (creating
 * a fiber, entering and resuming it, reading or replacing its saved frames) is the engine's,
 * through {@link dev.weft.internal.access.FiberAccess}.
 *
 * <p>Confined to the thread that runs the coroutine; moves with the coroutine when it is stolen,
 * under the coroutine's own hand-over (its state word).
 */
public final class Fiber {

    /*
     * Implementation notes: a frame's values are pushed in the order of the twin's unwinding
     * code (the receiver of its call, the stack below the call from the top, its live locals
     * from the last, then the site id, pushed by endFrame) and popped in reverse by its prologue.
     * Frame f's values end at referenceEnds[f] and primitiveEnds[f] and start where frame f-1's
     * end. Each frame's header keeps the frame's own receiver (null for a static method), on
     * which the engine calls its twin to resume it.
     */

    /** Its code runs, or it is not running at all. */
    public static final int RUNNING = 0;
    /** Its frames are saving themselves and returning, innermost first. */
    public static final int UNWINDING = 1;
    /** The engine has called the innermost saved frame's twin, which rebuilds the frame and goes on. */
    public static final int RESUMING = 2;

    private static final int INITIAL_CAPACITY = 8;
    private static final int INITIAL_FRAMES = 4;

    private final Object coroutine;
    private int mode;

    private Object[] references = new Object[INITIAL_CAPACITY];
    private int referenceCount;
    private long[] primitives = new long[INITIAL_CAPACITY];
    private int primitiveCount;

    /** How many frames are saved; their headers, outermost first. */
    private int frameCount;
    private Class<?>[] frameClasses = new Class<?>[INITIAL_FRAMES];
    /** The twin's handle as woven code saved it (an exact call of the twin). */
    private MethodHandle[] frameTwins = new MethodHandle[INITIAL_FRAMES];
    /** The handle that resumes the frame, {@code (Object receiver, Fiber) Object}, or null until needed. */
    private MethodHandle[] frameResumers = new MethodHandle[INITIAL_FRAMES];
    private Object[] frameReceivers = new Object[INITIAL_FRAMES];
    private int[] referenceEnds = new int[INITIAL_FRAMES];
    private int[] primitiveEnds = new int[INITIAL_FRAMES];

    /** The first frame saved since the engine last entered the stack. */
    private int firstNewFrame;
    /** The receiver of the frame being resumed. */
    private Object resumedReceiver;

    /** What the resumed frame's call site gives: a value, or an exception to throw. */
    private Object resumeValue;
    private Throwable resumeException;

    /** The last twin handle resumed and its resumer: a switch usually resumes the frame it resumed before. */
    private MethodHandle lastTwin;
    private MethodHandle lastResumer;

    /** Where a reversal of the new frames copies their values for a moment. */
    private Object[] scratchReferences = new Object[0];
    private long[] scratchPrimitives = new long[0];

    static {
        SharedAccess.setFiberAccess(new Control());
    }

    /** The state of {@code coroutine}'s stack; its {@code toString()} names it in errors. */
    private Fiber(Object coroutine) {
        this.coroutine = coroutine;
    }

    /** Read by woven code after each call: whether to save its frame and return. */
    public boolean isUnwinding() {
        return mode == UNWINDING;
    }

    /** Read by woven prologues: whether to rebuild the frame from the saved values. */
    public boolean isResuming() {
        return mode == RESUMING;
    }

    // ---------------------------------------------------------------- saving (unwinding)

    public void pushObject(Object value) {
        if (referenceCount == references.length) {
            references = Arrays.copyOf(references, referenceCount * 2);
        }
        references[referenceCount++] = value;
    }

    public void pushLong(long value) {
        if (primitiveCount == primitives.length) {
            primitives = Arrays.copyOf(primitives, primitiveCount * 2);
        }
        primitives[primitiveCount++] = value;
    }

    public void pushInt(int value) {
        pushLong(value);
    }

    public void pushFloat(float value) {
        pushLong(Float.floatToRawIntBits(value));
    }

    public void pushDouble(double value) {
        pushLong(Double.doubleToRawLongBits(value));
    }

    /**
     * Ends the frame whose values were just pushed: a frame of {@code owner}'s method whose twin
     * is {@code twin}, run on {@code self} (null for a static method), suspended in its call at
     * site {@code site}.
     */
    public void endFrame(Class<?> owner, MethodHandle twin, Object self, int site) {
        pushLong(site);
        int f = frameCount;
        if (f == frameClasses.length) {
            growFrames();
        }
        frameClasses[f] = owner;
        frameTwins[f] = twin;
        frameResumers[f] = null;
        frameReceivers[f] = self;
        referenceEnds[f] = referenceCount;
        primitiveEnds[f] = primitiveCount;
        frameCount = f + 1;
    }

    private void growFrames() {
        int n = frameClasses.length * 2;
        frameClasses = Arrays.copyOf(frameClasses, n);
        frameTwins = Arrays.copyOf(frameTwins, n);
        frameResumers = Arrays.copyOf(frameResumers, n);
        frameReceivers = Arrays.copyOf(frameReceivers, n);
        referenceEnds = Arrays.copyOf(referenceEnds, n);
        primitiveEnds = Arrays.copyOf(primitiveEnds, n);
    }

    // ---------------------------------------------------------------- restoring (resuming)

    public Object popObject() {
        Object value = references[--referenceCount];
        references[referenceCount] = null;
        return value;
    }

    public long popLong() {
        return primitives[--primitiveCount];
    }

    public int popInt() {
        return (int) popLong();
    }

    public float popFloat() {
        return Float.intBitsToFloat((int) popLong());
    }

    public double popDouble() {
        return Double.longBitsToDouble(popLong());
    }

    /** The result of the resumed frame's call, or the exception passed in thrown: the frame now runs. */
    public Object resumedObject() {
        mode = RUNNING;
        Object value = resumeValue;
        resumeValue = null;
        if (resumeException != null) {
            throw throwResumeException();
        }
        return value;
    }

    public int resumedInt() {
        Object value = resumedObject();
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (value instanceof Character c) {
            return c;
        }
        return ((Number) value).intValue();
    }

    public long resumedLong() {
        return (Long) resumedObject();
    }

    public float resumedFloat() {
        return (Float) resumedObject();
    }

    public double resumedDouble() {
        return (Double) resumedObject();
    }

    public void resumedVoid() {
        resumedObject();
    }

    private RuntimeException throwResumeException() {
        Throwable t = resumeException;
        resumeException = null;
        throw Fiber.<RuntimeException>sneaky(t);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /**
     * The exception a woven prologue throws when the site id it popped is none of its method's
     * sites: the saved values do not belong to this method.
     */
    public IllegalStateException notASite(String method, int site) {
        discardSavedFrames();
        return new IllegalStateException("cannot resume " + coroutine + ": its saved frame of " + method
                + " names site " + site + ", which is not a suspension site of that method");
    }

    // ---------------------------------------------------------------- the engine's side

    private void enter() {
        mode = RUNNING;
        firstNewFrame = frameCount;
    }

    /** The entry has returned while unwinding: the new frames are turned round, outermost first. */
    private void finishUnwinding() {
        mode = RUNNING;
        if (frameCount - 1 > firstNewFrame) {
            reverseNewFrames(firstNewFrame, frameCount - 1);
        }
    }

    /** Reverses the order of frames {@code first} to {@code last}, their values and their headers. */
    private void reverseNewFrames(int first, int last) {
        int r0 = first == 0 ? 0 : referenceEnds[first - 1];
        int p0 = first == 0 ? 0 : primitiveEnds[first - 1];
        int rn = referenceCount - r0;
        int pn = primitiveCount - p0;
        if (scratchReferences.length < rn) {
            scratchReferences = new Object[Math.max(rn, 2 * scratchReferences.length)];
        }
        if (scratchPrimitives.length < pn) {
            scratchPrimitives = new long[Math.max(pn, 2 * scratchPrimitives.length)];
        }
        System.arraycopy(references, r0, scratchReferences, 0, rn);
        System.arraycopy(primitives, p0, scratchPrimitives, 0, pn);
        int r = r0;
        int p = p0;
        for (int f = last; f >= first; f--) {
            int rs = f == first ? r0 : referenceEnds[f - 1];
            int ps = f == first ? p0 : primitiveEnds[f - 1];
            System.arraycopy(scratchReferences, rs - r0, references, r, referenceEnds[f] - rs);
            System.arraycopy(scratchPrimitives, ps - p0, primitives, p, primitiveEnds[f] - ps);
            r += referenceEnds[f] - rs;
            p += primitiveEnds[f] - ps;
        }
        Arrays.fill(scratchReferences, 0, rn, null);
        for (int f = last; f >= first; f--) { // ends become sizes
            referenceEnds[f] -= f == first ? r0 : referenceEnds[f - 1];
            primitiveEnds[f] -= f == first ? p0 : primitiveEnds[f - 1];
        }
        for (int i = first, j = last; i < j; i++, j--) {
            swap(frameClasses, i, j);
            swap(frameTwins, i, j);
            swap(frameResumers, i, j);
            swap(frameReceivers, i, j);
            swap(referenceEnds, i, j);
            swap(primitiveEnds, i, j);
        }
        for (int f = first; f <= last; f++) { // sizes become ends
            referenceEnds[f] += f == first ? r0 : referenceEnds[f - 1];
            primitiveEnds[f] += f == first ? p0 : primitiveEnds[f - 1];
        }
        assert referenceEnds[last] == referenceCount && primitiveEnds[last] == primitiveCount : this;
    }

    private static <T> void swap(T[] a, int i, int j) {
        T t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    /**
     * Takes the innermost saved frame off the saved ones, to be resumed: its call site will give
     * {@code value}, or throw {@code exception} if not null. Returns the handle that resumes it,
     * to be called on {@link #resumedReceiver}, unless it was the outermost frame, which the
     * engine may resume through its entry instead.
     */
    private MethodHandle takeInnermost(Object value, Throwable exception) {
        int f = frameCount - 1;
        assert f >= 0 && referenceEnds[f] == referenceCount && primitiveEnds[f] == primitiveCount : this;
        MethodHandle resumer = frameResumers[f];
        if (resumer == null) {
            MethodHandle twin = frameTwins[f];
            if (twin != lastTwin) {
                lastResumer = Twins.resumerOf(frameClasses[f], twin);
                lastTwin = twin;
            }
            resumer = lastResumer;
        }
        resumedReceiver = frameReceivers[f];
        frameClasses[f] = null;
        frameTwins[f] = null;
        frameResumers[f] = null;
        frameReceivers[f] = null;
        frameCount = f;
        enter();
        resumeValue = value;
        resumeException = exception;
        mode = RESUMING;
        return resumer;
    }

    /** Called by the engine after the frame it resumed returned or threw: whether it took its result, and if not, drops it. */
    private void resumed() {
        resumedReceiver = null;
        if (mode == RESUMING) { // the frame failed before it took its result
            mode = RUNNING;
            resumeValue = null;
            resumeException = null;
        }
    }

    /** Drops the saved frames, so that they hold no objects alive. */
    private void discardSavedFrames() {
        Arrays.fill(references, 0, referenceCount, null);
        referenceCount = 0;
        primitiveCount = 0;
        Arrays.fill(frameClasses, 0, frameCount, null);
        Arrays.fill(frameTwins, 0, frameCount, null);
        Arrays.fill(frameResumers, 0, frameCount, null);
        Arrays.fill(frameReceivers, 0, frameCount, null);
        frameCount = 0;
        firstNewFrame = 0;
        resumedReceiver = null;
        resumeValue = null;
        resumeException = null;
        mode = RUNNING;
    }

    private Object[] frameReferences(int f) {
        return Arrays.copyOfRange(references, f == 0 ? 0 : referenceEnds[f - 1], referenceEnds[f]);
    }

    private long[] framePrimitives(int f) {
        return Arrays.copyOfRange(primitives, f == 0 ? 0 : primitiveEnds[f - 1], primitiveEnds[f]);
    }

    /** Saves a frame above the others, as if it had unwound: its values in the order they are pushed, its site id last; {@code receiver} its own. */
    private void addSavedFrame(Class<?> owner, MethodHandle twin, MethodHandle resumer, Object receiver, Object[] values,
            long[] scalars) {
        for (Object v : values) {
            pushObject(v);
        }
        for (long v : scalars) {
            pushLong(v);
        }
        int f = frameCount;
        if (f == frameClasses.length) {
            growFrames();
        }
        frameClasses[f] = owner;
        frameTwins[f] = twin;
        frameResumers[f] = resumer;
        frameReceivers[f] = receiver;
        referenceEnds[f] = referenceCount;
        primitiveEnds[f] = primitiveCount;
        frameCount = f + 1;
    }

    /** The engine's side, reached only through {@link SharedAccess#fibers()}. */
    private static final class Control implements FiberAccess {

        @Override
        public Fiber newFiber(Object coroutine) {
            return new Fiber(coroutine);
        }

        @Override
        public Object coroutine(Fiber fiber) {
            return fiber.coroutine;
        }

        @Override
        public boolean hasSavedFrames(Fiber fiber) {
            return fiber.frameCount > 0;
        }

        @Override
        public void enter(Fiber fiber) {
            fiber.enter();
        }

        @Override
        public void startUnwinding(Fiber fiber) {
            fiber.mode = UNWINDING;
        }

        @Override
        public void finishUnwinding(Fiber fiber) {
            fiber.finishUnwinding();
        }

        @Override
        public Object resumeInnermost(Fiber fiber, Object value, Throwable exception) throws Throwable {
            MethodHandle resumer = fiber.takeInnermost(value, exception);
            try {
                return (Object) resumer.invokeExact(fiber.resumedReceiver, fiber);
            } finally {
                fiber.resumed();
            }
        }

        @Override
        public void resumeOutermost(Fiber fiber, Object value, Throwable exception) {
            fiber.takeInnermost(value, exception);
        }

        @Override
        public void afterResume(Fiber fiber) {
            fiber.resumed();
        }

        @Override
        public void discardSavedFrames(Fiber fiber) {
            fiber.discardSavedFrames();
        }

        @Override
        public int frameCount(Fiber fiber) {
            return fiber.frameCount;
        }

        @Override
        public Class<?> frameClass(Fiber fiber, int frame) {
            return fiber.frameClasses[frame];
        }

        @Override
        public Object[] frameReferences(Fiber fiber, int frame) {
            return fiber.frameReferences(frame);
        }

        @Override
        public long[] framePrimitives(Fiber fiber, int frame) {
            return fiber.framePrimitives(frame);
        }

        @Override
        public MethodHandle frameTwin(Fiber fiber, int frame) {
            return fiber.frameTwins[frame];
        }

        @Override
        public void addSavedFrame(Fiber fiber, Class<?> owner, MethodHandle twin, MethodHandle resumer, Object receiver,
                Object[] references, long[] primitives) {
            fiber.addSavedFrame(owner, twin, resumer, receiver, references, primitives);
        }
    }

    @Override
    public String toString() {
        return "fiber of " + coroutine + " [" + switch (mode) {
            case UNWINDING -> "unwinding";
            case RESUMING -> "resuming";
            default -> "running";
        } + ", " + frameCount + " frames saved, " + referenceCount + " references and " + primitiveCount
                + " primitives]";
    }
}
