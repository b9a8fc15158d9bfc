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
 * engine passed in. When that frame returns, or throws, the engine resumes the next saved frames
 * with its result: a trampoline over the saved frames, as Kotlin resumes a chain of
 * continuations. Once a frame has returned, the next ones are rebuilt a few at a time
 * ({@link #rewindsCallee}): the engine calls the outermost of them, each re-invokes its saved
 * callee, whose prologue rebuilds it in turn, and the innermost takes the result. A switch thus
 * costs the same at any depth, and a return costs the frames it returns through.
 *
 * <p>Values are kept in two stacks, one for references and one for primitives as {@code long}
 * bits, which grow as needed and are reused from one suspension to the next; each saved frame
 * has its receiver, its kind (class, twin handle, resumer) and where its values are.
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
     * from the last, then the site id, pushed by endFrame) and popped in reverse by its prologue,
     * from a read position the engine sets to the end of the frame it resumes. Each frame has its
     * own receiver (or null) in receivers, and seven ints in bounds: its kind (an index into the
     * fiber's table of the twins it has seen: class, twin handle, resumer), where its references
     * and primitives start and end, and the highest end of it and the frames under it (what must
     * be kept when it is resumed). Saving a frame thus stores one reference besides its values,
     * each reference stored into the fiber's arrays being a write barrier. Turning the new frames
     * round after an unwind moves their bounds and receivers only: their values stay where they
     * were pushed, and a frame's place is freed when no frame under it ends above it.
     */

    /** Its code runs, or it is not running at all. */
    public static final int RUNNING = 0;
    /** Its frames are saving themselves and returning, innermost first. */
    public static final int UNWINDING = 1;
    /** The engine has called the innermost saved frame's twin, which rebuilds the frame and goes on. */
    public static final int RESUMING = 2;

    private static final int INITIAL_CAPACITY = 8;
    /** Small: most suspended coroutines hold a frame or two, and a million of them may be suspended. */
    private static final int INITIAL_FRAMES = 2;

    /** A frame's bounds: where its references and primitives start and end, its kind, and the highest ends up to it. */
    private static final int REFERENCE_START = 0;
    private static final int REFERENCE_END = 1;
    private static final int PRIMITIVE_START = 2;
    private static final int PRIMITIVE_END = 3;
    private static final int KIND = 4;
    private static final int REFERENCE_TOP = 5;
    private static final int PRIMITIVE_TOP = 6;
    private static final int BOUNDS = 7;
    /** How many of a frame's bounds move with it when the new frames are turned round: all but the tops. */
    private static final int MOVING_BOUNDS = 5;

    private final Object coroutine;
    private int mode;

    private Object[] references = new Object[INITIAL_CAPACITY];
    /** Where the next reference is pushed; above it nothing is saved. */
    private int referenceCount;
    private long[] primitives = new long[INITIAL_CAPACITY];
    private int primitiveCount;
    /** Where the resumed frame's prologue pops its next value from. */
    private int referenceRead;
    private int primitiveRead;

    /** How many frames are saved; their receivers and bounds, outermost first. */
    private int frameCount;
    private Object[] receivers = new Object[INITIAL_FRAMES];
    private int[] bounds = new int[INITIAL_FRAMES * BOUNDS];

    /** The kinds of frame saved so far: the class, the twin's handle, and its resumer (null until needed). */
    private int kindCount;
    private Class<?>[] kindClasses = new Class<?>[1];
    private MethodHandle[] kindTwins = new MethodHandle[1];
    private MethodHandle[] kindResumers = new MethodHandle[1];
    /** The kind of the last frame saved: the kind of the next one, more often than not. */
    private int lastKind;

    /** The first frame saved since the engine last entered the stack, and where its values start. */
    private int firstNewFrame;
    private int newReferences;
    private int newPrimitives;
    /** The receiver of the frame being resumed. */
    private Object resumedReceiver;
    /** The frames rebuilt with the resumed one, each by its caller calling it again: the next, and the end. */
    private int rewindNext;
    private int rewindEnd;

    /** What the resumed frame's call site gives: a value, or an exception to throw. */
    private Object resumeValue;
    private Throwable resumeException;

    /** The kind of the frame {@link #take} took. */
    private int takenKind;

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
        boolean first = f == firstNewFrame; // else the frame ended just before is its callee, whose values end where its start
        addFrame(kindOf(owner, twin, null), self,
                first ? newReferences : bounds[(f - 1) * BOUNDS + REFERENCE_END],
                first ? newPrimitives : bounds[(f - 1) * BOUNDS + PRIMITIVE_END]);
    }

    /** The kind of a frame of {@code owner} saved by {@code twin}, added if new, with {@code resumer} if known. */
    private int kindOf(Class<?> owner, MethodHandle twin, MethodHandle resumer) {
        int k = lastKind;
        if (k < kindCount && kindTwins[k] == twin) {
            return k;
        }
        for (k = 0; k < kindCount; k++) {
            if (kindTwins[k] == twin) {
                lastKind = k;
                return k;
            }
        }
        if (k == kindTwins.length) {
            kindClasses = Arrays.copyOf(kindClasses, 2 * k);
            kindTwins = Arrays.copyOf(kindTwins, 2 * k);
            kindResumers = Arrays.copyOf(kindResumers, 2 * k);
        }
        kindClasses[k] = owner;
        kindTwins[k] = twin;
        kindResumers[k] = resumer;
        kindCount = k + 1;
        lastKind = k;
        return k;
    }

    /** Adds the receiver and bounds of a frame of {@code kind} whose values are pushed from these starts to the counts. */
    private void addFrame(int kind, Object self, int referenceStart, int primitiveStart) {
        int f = frameCount;
        if (f == receivers.length) {
            receivers = Arrays.copyOf(receivers, 2 * f);
            bounds = Arrays.copyOf(bounds, 2 * f * BOUNDS);
        }
        receivers[f] = self;
        int b = f * BOUNDS;
        bounds[b + KIND] = kind;
        bounds[b + REFERENCE_START] = referenceStart;
        bounds[b + REFERENCE_END] = referenceCount;
        bounds[b + PRIMITIVE_START] = primitiveStart;
        bounds[b + PRIMITIVE_END] = primitiveCount;
        setTops(f);
        frameCount = f + 1;
    }

    /** Sets frame {@code f}'s tops: the highest ends of it and the frames under it. */
    private void setTops(int f) {
        int b = f * BOUNDS;
        int referenceTop = bounds[b + REFERENCE_END];
        int primitiveTop = bounds[b + PRIMITIVE_END];
        if (f > 0) {
            referenceTop = Math.max(referenceTop, bounds[b - BOUNDS + REFERENCE_TOP]);
            primitiveTop = Math.max(primitiveTop, bounds[b - BOUNDS + PRIMITIVE_TOP]);
        }
        bounds[b + REFERENCE_TOP] = referenceTop;
        bounds[b + PRIMITIVE_TOP] = primitiveTop;
    }

    // ---------------------------------------------------------------- restoring (resuming)

    public Object popObject() {
        Object value = references[--referenceRead];
        references[referenceRead] = null;
        return value;
    }

    public long popLong() {
        return primitives[--primitiveRead];
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

    /**
     * Read by a rebuilt frame's prologue: whether its callee is rebuilt too (it then calls it
     * again, and the callee's prologue pops the next frame's values), rather than the frame
     * taking its call's result ({@code resumed<Kind>()}).
     */
    public boolean rewindsCallee() {
        int next = rewindNext;
        if (next >= rewindEnd) {
            return false;
        }
        referenceRead = bounds[next * BOUNDS + REFERENCE_END];
        primitiveRead = bounds[next * BOUNDS + PRIMITIVE_END];
        rewindNext = next + 1;
        return true;
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
        newReferences = referenceCount;
        newPrimitives = primitiveCount;
    }

    /** The entry has returned while unwinding: the new frames are turned round, outermost first. */
    private void finishUnwinding() {
        mode = RUNNING;
        int first = firstNewFrame;
        int last = frameCount - 1;
        if (last > first) {
            for (int i = first, j = last; i < j; i++, j--) {
                Object receiver = receivers[i];
                receivers[i] = receivers[j];
                receivers[j] = receiver;
                swap(bounds, i * BOUNDS, j * BOUNDS, MOVING_BOUNDS); // the tops are set again
            }
            for (int f = first; f <= last; f++) {
                setTops(f);
            }
        }
    }

    private static void swap(int[] a, int i, int j, int n) {
        for (int k = 0; k < n; k++) {
            int t = a[i + k];
            a[i + k] = a[j + k];
            a[j + k] = t;
        }
    }

    /**
     * Takes the {@code count} innermost saved frames (all, if fewer are saved) off the saved ones,
     * to be resumed together: the outermost of them is called, each rebuilds its callee in turn,
     * and the innermost's call site gives {@code value}, or throws {@code exception} if not null.
     * Returns whether the one to call is the outermost frame of all, which the engine calls
     * through its entry; else it calls {@link #takenResumer()} on {@link #resumedReceiver}.
     */
    private boolean take(int count, Object value, Throwable exception) {
        int n = frameCount;
        int f = Math.max(0, n - count);
        int b = f * BOUNDS;
        takenKind = bounds[b + KIND];
        resumedReceiver = receivers[f];
        for (int i = f; i < n; i++) {
            receivers[i] = null;
        }
        referenceRead = bounds[b + REFERENCE_END];
        primitiveRead = bounds[b + PRIMITIVE_END];
        rewindNext = f + 1;
        rewindEnd = n;
        referenceCount = f == 0 ? 0 : bounds[b - BOUNDS + REFERENCE_TOP]; // the frames' own values are popped before any push
        primitiveCount = f == 0 ? 0 : bounds[b - BOUNDS + PRIMITIVE_TOP];
        frameCount = f;
        enter();
        resumeValue = value;
        resumeException = exception;
        mode = RESUMING;
        return f == 0;
    }

    /** The resumer of the frame {@link #take} took. */
    private MethodHandle takenResumer() {
        int k = takenKind;
        MethodHandle resumer = kindResumers[k];
        if (resumer == null) {
            resumer = Twins.resumerOf(kindClasses[k], kindTwins[k]);
            kindResumers[k] = resumer;
        }
        return resumer;
    }

    /** Called by the engine after the frame it resumed returned or threw: whether it took its result, and if not, drops it. */
    private void resumed() {
        resumedReceiver = null;
        rewindNext = 0;
        rewindEnd = 0;
        if (mode == RESUMING) { // the frame failed before it took its result
            mode = RUNNING;
            resumeValue = null;
            resumeException = null;
        }
    }

    /** Drops the saved frames, so that they hold no objects alive. */
    private void discardSavedFrames() {
        Arrays.fill(references, null);
        referenceCount = 0;
        primitiveCount = 0;
        referenceRead = 0;
        primitiveRead = 0;
        Arrays.fill(receivers, 0, frameCount, null);
        Arrays.fill(kindClasses, 0, kindCount, null);
        Arrays.fill(kindTwins, 0, kindCount, null);
        Arrays.fill(kindResumers, 0, kindCount, null);
        kindCount = 0;
        lastKind = 0;
        frameCount = 0;
        firstNewFrame = 0;
        newReferences = 0;
        newPrimitives = 0;
        resumedReceiver = null;
        rewindNext = 0;
        rewindEnd = 0;
        resumeValue = null;
        resumeException = null;
        mode = RUNNING;
    }

    private Object[] frameReferences(int f) {
        return Arrays.copyOfRange(references, bounds[f * BOUNDS + REFERENCE_START], bounds[f * BOUNDS + REFERENCE_END]);
    }

    private long[] framePrimitives(int f) {
        return Arrays.copyOfRange(primitives, bounds[f * BOUNDS + PRIMITIVE_START], bounds[f * BOUNDS + PRIMITIVE_END]);
    }

    /** Saves a frame above the others, as if it had unwound: its values in the order they are pushed, its site id last; {@code receiver} its own. */
    private void addSavedFrame(Class<?> owner, MethodHandle twin, MethodHandle resumer, Object receiver, Object[] values,
            long[] scalars) {
        int referenceStart = referenceCount;
        int primitiveStart = primitiveCount;
        for (Object v : values) {
            pushObject(v);
        }
        for (long v : scalars) {
            pushLong(v);
        }
        addFrame(kindOf(owner, twin, resumer), receiver, referenceStart, primitiveStart);
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
        public boolean take(Fiber fiber, int count, Object value, Throwable exception) {
            return fiber.take(count, value, exception);
        }

        @Override
        public Object resumeTaken(Fiber fiber) throws Throwable {
            try {
                return (Object) fiber.takenResumer().invokeExact(fiber.resumedReceiver, fiber);
            } finally {
                fiber.resumed();
            }
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
            return fiber.kindClasses[fiber.bounds[frame * BOUNDS + KIND]];
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
            return fiber.kindTwins[fiber.bounds[frame * BOUNDS + KIND]];
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
