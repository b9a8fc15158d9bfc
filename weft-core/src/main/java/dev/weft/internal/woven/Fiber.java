package dev.weft.internal.woven;

import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;

import java.util.Arrays;

/**
 * The state of one coroutine run by the woven engine, which woven twin methods take as their
 * last argument: whether its stack is running, unwinding or rewinding, and the values of its
 * suspended frames.
 *
 * <p>Suspending <em>unwinds</em>: the suspension point sets {@link #UNWINDING} and returns, and
 * each twin frame on the way out, seeing it after its call, pushes its live values and site id
 * and returns, innermost frame first. Resuming <em>rewinds</em>: the engine sets
 * {@link #REWINDING} and calls the entry twin again; each twin's prologue pops its site id and
 * values (outermost frame first, so the saved values form one stack) and re-invokes its call,
 * down to the suspension point, which ends the rewind. Values are kept in two stacks, one for
 * references and one for primitives as {@code long} bits, which grow as needed and are reused
 * from one suspension to the next.
 *
 * <p>Woven code calls only the mode tests, the pushes and pops of its own frame's values, and
 * {@link #notASite}; everything else (creating a fiber, changing its mode, reading or replacing
 * its saved frames) is the engine's, through {@link dev.weft.internal.access.FiberAccess}.
 *
 * <p>Confined to the thread that runs the coroutine; moves with the coroutine when it is stolen,
 * under the coroutine's own hand-over (its state word).
 */
public final class Fiber {

    /** Its code runs, or it is not running at all. */
    public static final int RUNNING = 0;
    /** Its frames are saving themselves and returning, innermost first. */
    public static final int UNWINDING = 1;
    /** Its frames are rebuilding themselves from the saved values, outermost first. */
    public static final int REWINDING = 2;

    private static final int INITIAL_CAPACITY = 8;

    private final Object coroutine;
    private int mode;
    private Object[] references = new Object[INITIAL_CAPACITY];
    private int referenceCount;
    private long[] primitives = new long[INITIAL_CAPACITY];
    private int primitiveCount;

    static {
        SharedAccess.setFiberAccess(new Control());
    }

    /** The state of {@code coroutine}'s stack; its {@code toString()} names it in errors. */
    private Fiber(Object coroutine) {
        this.coroutine = coroutine;
    }

    /** The coroutine this fiber runs. */
    private Object coroutine() {
        return coroutine;
    }

    /** Read by woven code after each call: whether to save its frame and return. */
    public boolean isUnwinding() {
        return mode == UNWINDING;
    }

    /** Read by woven prologues: whether to rebuild the frame from the saved values. */
    public boolean isRewinding() {
        return mode == REWINDING;
    }

    /** Whether frames are saved: the stack was suspended and has not been rewound since. */
    private boolean hasSavedFrames() {
        return primitiveCount > 0;
    }

    /** Called at the suspension point: the frames above the entry unwind as they return. */
    private void startUnwinding() {
        mode = UNWINDING;
    }

    /** Called by the engine when the entry has returned while unwinding: the stack is suspended. */
    private void finishUnwinding() {
        mode = RUNNING;
    }

    /** Called by the engine before it calls the entry again: the frames rebuild themselves. */
    private void startRewinding() {
        mode = REWINDING;
    }

    /**
     * Called at the suspension point when it is reached while rewinding: the stack is rebuilt,
     * and its code goes on from here.
     *
     * @throws IllegalStateException if saved values are left over: the frames did not take what
     *         they saved, and the stack is not the one that was suspended
     */
    private void finishRewinding() {
        mode = RUNNING;
        if (referenceCount != 0 || primitiveCount != 0) {
            int references = referenceCount;
            int primitives = primitiveCount;
            discardSavedFrames();
            throw new IllegalStateException(coroutine + " resumed with " + references + " references and "
                    + primitives + " primitives of its saved frames not taken back");
        }
    }

    /** Drops the saved frames, so that they hold no objects alive. */
    private void discardSavedFrames() {
        Arrays.fill(references, 0, referenceCount, null);
        referenceCount = 0;
        primitiveCount = 0;
        mode = RUNNING;
    }

    /** The saved references, oldest first (the innermost frame's first): a copy. */
    private Object[] savedReferences() {
        return Arrays.copyOf(references, referenceCount);
    }

    /** The saved primitives and site ids, oldest first: a copy. */
    private long[] savedPrimitives() {
        return Arrays.copyOf(primitives, primitiveCount);
    }

    /** Replaces the saved frames by these values, as {@link #savedReferences()} and {@link #savedPrimitives()} give them. */
    private void replaceSavedFrames(Object[] references, long[] primitives) {
        discardSavedFrames();
        this.references = Arrays.copyOf(references, Math.max(INITIAL_CAPACITY, references.length));
        this.referenceCount = references.length;
        this.primitives = Arrays.copyOf(primitives, Math.max(INITIAL_CAPACITY, primitives.length));
        this.primitiveCount = primitives.length;
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

    // ---------------------------------------------------------------- restoring (rewinding)

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

    /**
     * The exception a woven prologue throws when the site id it popped is none of its method's
     * sites: the saved values do not belong to this method.
     */
    public IllegalStateException notASite(String method, int site) {
        discardSavedFrames();
        return new IllegalStateException("cannot resume " + coroutine + ": its saved frame of " + method
                + " names site " + site + ", which is not a suspension site of that method");
    }

    /** The engine's side, reached only through {@link SharedAccess#fibers()}. */
    private static final class Control implements FiberAccess {

        @Override
        public Fiber newFiber(Object coroutine) {
            return new Fiber(coroutine);
        }

        @Override
        public Object coroutine(Fiber fiber) {
            return fiber.coroutine();
        }

        @Override
        public boolean hasSavedFrames(Fiber fiber) {
            return fiber.hasSavedFrames();
        }

        @Override
        public void startUnwinding(Fiber fiber) {
            fiber.startUnwinding();
        }

        @Override
        public void finishUnwinding(Fiber fiber) {
            fiber.finishUnwinding();
        }

        @Override
        public void startRewinding(Fiber fiber) {
            fiber.startRewinding();
        }

        @Override
        public void finishRewinding(Fiber fiber) {
            fiber.finishRewinding();
        }

        @Override
        public void discardSavedFrames(Fiber fiber) {
            fiber.discardSavedFrames();
        }

        @Override
        public Object[] savedReferences(Fiber fiber) {
            return fiber.savedReferences();
        }

        @Override
        public long[] savedPrimitives(Fiber fiber) {
            return fiber.savedPrimitives();
        }

        @Override
        public void replaceSavedFrames(Fiber fiber, Object[] references, long[] primitives) {
            fiber.replaceSavedFrames(references, primitives);
        }
    }

    @Override
    public String toString() {
        return "fiber of " + coroutine + " [" + switch (mode) {
            case UNWINDING -> "unwinding";
            case REWINDING -> "rewinding";
            default -> "running";
        } + ", " + referenceCount + " references and " + primitiveCount + " primitives saved]";
    }
}
