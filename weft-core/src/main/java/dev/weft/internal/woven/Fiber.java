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
     * from the last, then the site id, pushed by endFrame) and popped in reverse by its prologue,
     * from a read position the engine sets to the end of the frame it resumes. Each frame has a
     * header of four references (class, twin handle, resumer or null, its own receiver or null)
     * in headers, and six ints in bounds: where its references and primitives start and end, and
     * the highest end of it and the frames under it (what must be kept when it is resumed).
     * Turning the new frames round after an unwind moves their headers only: their values stay
     * where they were pushed, and a frame's place is freed when no frame under it ends above it.
     */

    /** Its code runs, or it is not running at all. */
    public static final int RUNNING = 0;
    /** Its frames are saving themselves and returning, innermost first. */
    public static final int UNWINDING = 1;
    /** The engine has called the innermost saved frame's twin, which rebuilds the frame and goes on. */
    public static final int RESUMING = 2;

    private static final int INITIAL_CAPACITY = 8;
    private static final int INITIAL_FRAMES = 4;

    /** A frame's header references: its class, its twin's handle, its resumer (null until needed), its receiver. */
    private static final int CLASS = 0;
    private static final int TWIN = 1;
    private static final int RESUMER = 2;
    private static final int RECEIVER = 3;
    private static final int HEADER = 4;

    /** A frame's bounds: where its references and primitives start and end, and the highest ends up to it. */
    private static final int REFERENCE_START = 0;
    private static final int REFERENCE_END = 1;
    private static final int PRIMITIVE_START = 2;
    private static final int PRIMITIVE_END = 3;
    private static final int REFERENCE_TOP = 4;
    private static final int PRIMITIVE_TOP = 5;
    private static final int BOUNDS = 6;

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

    /** How many frames are saved; their headers and bounds, outermost first. */
    private int frameCount;
    private Object[] headers = new Object[INITIAL_FRAMES * HEADER];
    private int[] bounds = new int[INITIAL_FRAMES * BOUNDS];

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

    /** The header of the frame {@link #take} took: its class, twin and resumer (null if not made yet). */
    private Class<?> takenClass;
    private MethodHandle takenTwin;
    private MethodHandle takenResumer;

    /**
     * The last two twin handles resumed through a handle, and their resumers: a switch usually
     * resumes a frame it resumed before (the innermost, and the outermost of the frames rebuilt
     * once it returns).
     */
    private MethodHandle lastTwin;
    private MethodHandle lastResumer;
    private MethodHandle previousTwin;
    private MethodHandle previousResumer;

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
        addFrame(owner, twin, null, self,
                first ? newReferences : bounds[(f - 1) * BOUNDS + REFERENCE_END],
                first ? newPrimitives : bounds[(f - 1) * BOUNDS + PRIMITIVE_END]);
    }

    /** Adds the header and bounds of a frame whose values are pushed from these starts to the counts. */
    private void addFrame(Class<?> owner, MethodHandle twin, MethodHandle resumer, Object self, int referenceStart,
            int primitiveStart) {
        int f = frameCount;
        if ((f + 1) * HEADER > headers.length) {
            headers = Arrays.copyOf(headers, headers.length * 2);
            bounds = Arrays.copyOf(bounds, bounds.length * 2);
        }
        int h = f * HEADER;
        headers[h + CLASS] = owner;
        headers[h + TWIN] = twin;
        headers[h + RESUMER] = resumer;
        headers[h + RECEIVER] = self;
        int b = f * BOUNDS;
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
                swap(headers, i * HEADER, j * HEADER, HEADER);
                swap(bounds, i * BOUNDS, j * BOUNDS, 4); // starts and ends; the tops are set again
            }
            for (int f = first; f <= last; f++) {
                setTops(f);
            }
        }
    }

    private static void swap(Object[] a, int i, int j, int n) {
        for (int k = 0; k < n; k++) {
            Object t = a[i + k];
            a[i + k] = a[j + k];
            a[j + k] = t;
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
        int h = f * HEADER;
        takenClass = (Class<?>) headers[h + CLASS];
        takenTwin = (MethodHandle) headers[h + TWIN];
        takenResumer = (MethodHandle) headers[h + RESUMER];
        resumedReceiver = headers[h + RECEIVER];
        for (int i = h; i < n * HEADER; i++) {
            headers[i] = null;
        }
        int b = f * BOUNDS;
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
        MethodHandle resumer = takenResumer;
        if (resumer != null) {
            return resumer;
        }
        MethodHandle twin = takenTwin;
        if (twin == lastTwin) {
            return lastResumer;
        }
        if (twin == previousTwin) {
            resumer = previousResumer;
        } else {
            resumer = Twins.resumerOf(takenClass, twin);
        }
        previousTwin = lastTwin;
        previousResumer = lastResumer;
        lastTwin = twin;
        lastResumer = resumer;
        return resumer;
    }

    /** Called by the engine after the frame it resumed returned or threw: whether it took its result, and if not, drops it. */
    private void resumed() {
        resumedReceiver = null;
        takenClass = null;
        takenTwin = null;
        takenResumer = null;
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
        Arrays.fill(headers, 0, frameCount * HEADER, null);
        frameCount = 0;
        firstNewFrame = 0;
        newReferences = 0;
        newPrimitives = 0;
        resumedReceiver = null;
        takenClass = null;
        takenTwin = null;
        takenResumer = null;
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
        addFrame(owner, twin, resumer, receiver, referenceStart, primitiveStart);
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
            return (Class<?>) fiber.headers[frame * HEADER + CLASS];
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
            return (MethodHandle) fiber.headers[frame * HEADER + TWIN];
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
