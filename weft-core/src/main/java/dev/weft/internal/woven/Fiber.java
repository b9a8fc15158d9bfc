package dev.weft.internal.woven;

import dev.weft.CoroutineBase;
import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.frames.StackTraces;
import dev.weft.internal.frames.ThrownTraces;

import java.lang.invoke.MethodHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The state of one coroutine run by the woven engine, which woven twin methods take as their
 * last argument: whether its code is running, unwinding or resuming a frame, and its saved
 * frames. The engine's stack of a coroutine is a fiber itself (a subclass, which only the engine
 * can make: its constructor takes the engine's control), so that a suspended coroutine holds one
 * object for its engine state beside the two arrays of its saved values.
 *
 * <p>Suspending <em>unwinds</em>: the suspension point sets {@link #UNWINDING} and returns, and
 * each twin frame on the way out, seeing it after its call, pushes its live values and ends its
 * frame ({@link #endFrame}) and returns, innermost frame first, down to the engine. Only the frames
 * that ran since the engine last entered the stack are on the way: the frames saved before and
 * not resumed since stay saved, under the new ones. The new frames are kept in the order they
 * were saved, innermost first, as one <em>segment</em> above the segments saved before: nothing
 * is turned round, and resuming reads a segment from its innermost frame up.
 *
 * <p>Resuming does not rebuild the stack: the engine resumes the innermost saved frame alone
 * ({@link #RESUMING}), by a call of its twin through the handle the frame saved; the twin's
 * prologue pops its values and goes on right after the call it was suspended in, with the
 * result the engine passed in ({@code resumed<Kind>()}), or throwing there the exception the
 * engine passed in. When that frame returns, or throws, the engine resumes the next saved frames
 * with its result: a trampoline over the saved frames, as Kotlin resumes a chain of
 * continuations. Once several frames have returned in a row, the next ones are rebuilt a few
 * at a time ({@link #rewindsCallee}): the engine calls the outermost of them, each re-invokes
 * its saved callee, whose prologue rebuilds it in turn, and the innermost takes the result. A
 * frame suspended in a tail call ({@link WeavingContract#TAIL_SITE}: it would only return what
 * its call gives) is not rebuilt at all when it is next: the engine drops it and passes the
 * result, or the exception, on to the frame under it ({@link #dropTailCalls}). A switch thus
 * costs the same at any depth, and a return costs the frames it returns through that have
 * something left to do.
 *
 * <p>Values are kept in two stacks, one for references and one for primitives as {@code long}
 * bits, allocated at the first suspension, grown as needed, reused from one suspension to the
 * next and trimmed when a suspension leaves most of them empty. A frame's last primitive is its
 * record: its site id in the low 32 bits (what its prologue pops as an int), whether it has a
 * receiver, and its kind (its class, twin handle and resumer, shared by every fiber) by number
 * above; its receiver, if any, is its last reference (its local 0, which twins always save);
 * where its references and primitives end is one long per frame, at the other end of the
 * primitives' array. Invariants: the
 * saved frames' values lie in the stacks in the order they were pushed, each frame's right above
 * the one saved before it; every segment holds at least one frame not yet resumed; only the top
 * segment is resumed, from its innermost frame up, and it is dropped with its values once its
 * outermost frame is.
 *
 * <p>Woven code calls only the mode tests, the pushes and pops of its own frame's values,
 * {@link #endFrame}, the {@code resumed} methods, {@link #notASite} and, in its exception
 * handlers, {@link #caught}; everything else (creating
 * a fiber, entering and resuming it, reading or replacing its saved frames) is the engine's,
 * through {@link dev.weft.internal.access.FiberAccess}.
 *
 * <p>Confined to the thread that runs the coroutine; moves with the coroutine when it is stolen,
 * under the coroutine's own hand-over (its state word).
 */
public class Fiber {

    /*
     * Implementation notes: a frame's values are pushed in the order of the twin's unwinding
     * code (the receiver of its call, the stack below the call from the top, its live locals
     * from the last, local 0 last), then endFrame pushes the record (a primitive); its prologue
     * pops them in reverse from the frame's ends, where the engine sets the push positions while
     * resuming (nothing is pushed until the resumed frame runs, which sets them back to the end
     * of the frames that have places), so that the receiver by which the engine calls the frame
     * is still there, under the read position, when it calls; how many callees are still to be
     * rebuilt is counted in the mode. The primitives' array holds the values from its start
     * up and, from its end down, one long per frame with a place (frame f at length - 1 - f):
     * where its primitives end, in the high half, and where its references end; each frame
     * starts where the one saved before it ends. One array for both saves an array header and
     * a length per fiber, and the room between the two parts is what either grows into. Within a segment the frames are saved
     * innermost first, so a frame's caller is the next one: frames rebuilt together are read
     * downwards from the outermost of them, each callee's values right under its caller's. The
     * arrays start at a frame's size (MIN_*) and double; a suspension that leaves more than
     * three quarters of one empty, and more than TRIM_SLACK places, trims it to fit, so that a
     * coroutine that was once deep does not keep the room while shallow, and one whose size
     * changes by less than four times from one suspension to the next (a recursive walk, whose
     * lower segments hold places until they are dropped) does not copy its arrays again and
     * again: trimming at half empty to fit, and doubling again at the next deeper suspension,
     * copied both arrays at most suspensions of same-fringe's walkers. The frames of the top segment
     * below nextFrame have been resumed; their places are freed with the segment. The segments
     * below the top one are (start, next) pairs in segments, allocated when first needed: its
     * first int is how many there are, the top segment's start follows the pairs. A suspension
     * that saves all the frames as one segment sets segments to null (an array fewer in each of
     * a million suspended fibers); while the fiber runs, the array is kept when the segment
     * under the top one is dropped (its count 0, the top one starting at place 0), since the
     * next suspension of a stack that returned into its lower segments most often opens a
     * segment above them again.
     */

    /** Its code runs, or it is not running at all. */
    public static final int RUNNING = 0;
    /** Its frames are saving themselves and returning, innermost first. */
    public static final int UNWINDING = 1;
    /**
     * The engine has called the innermost saved frame's twin, which rebuilds the frame and goes
     * on; the mode is this plus how many callees the frames being rebuilt have still to rebuild.
     */
    public static final int RESUMING = 2;
    /** The most frames {@link #take} takes together: their callees are counted in the mode, a byte. */
    private static final int MAX_TAKEN = 64;

    /**
     * The smallest stacks allocated: most suspended coroutines hold one frame (a receiver and a
     * value or two, its record and where it ends), and a million of them may be suspended.
     */
    private static final int MIN_REFERENCES = 2;
    private static final int MIN_PRIMITIVES = 2;
    /** How many empty places a suspension may leave in an array before it is trimmed to fit (if also more than half). */
    private static final int TRIM_SLACK = 4;
    private static final Object[] NO_REFERENCES = {};
    private static final long[] NO_PRIMITIVES = {};
    /** In {@link #segments}, the top segment's next frame, which is kept in {@link #nextFrame} instead. */
    private static final int TOP_SEGMENT = -1;
    /**
     * In a frame's record, above its site id: whether its last reference is its receiver; whether
     * it is suspended in a tail call ({@link WeavingContract#TAIL_SITE}); above that, its kind's number.
     */
    private static final long HAS_RECEIVER = 1L << 32;
    private static final long TAIL_CALL = 1L << 33;
    private static final int KIND_SHIFT = 34;

    /** The engine's control, which a subclass's constructor must pass: only the engine makes fibers. */
    private static final FiberAccess CONTROL = new Control();

    private final Object coroutine;
    private byte mode;
    /** Whether the next frame saved starts a segment: the first one saved since the engine last entered the stack. */
    private boolean segmentPending = true;
    /** Whether the resumed frame's call site throws resumeValue rather than returning it. */
    private boolean resumeThrows;

    private Object[] references = NO_REFERENCES;
    /**
     * Where the next reference is pushed, above which nothing is saved; while resuming, where the
     * prologue pops its next value from (the end of the frames saved, where pushes go, is then
     * the end of the last frame that has a place, and is set again as the resumed frame runs).
     */
    private int referenceCount;
    private long[] primitives = NO_PRIMITIVES;
    private int primitiveCount;

    /** How many frames have places (those of the top segment already resumed included): their ends are at the end of primitives. */
    private int frameCount;
    /** The top segment's innermost frame not yet resumed. */
    private int nextFrame;
    /**
     * Null, or how many segments are under the top one, their (start, next) pairs bottom first,
     * and the top one's start and {@link #TOP_SEGMENT} in its pair.
     */
    private int[] segments;
    /**
     * How many frames had places when the engine last began to resume the saved frames: where
     * the top segment of then ended, whose places, and those of the segments under it, keep
     * their frames' records until the next suspension however many the resume drops.
     */
    private int resumeStartEnd;

    /**
     * The kind of the last frame saved or resumed: the kind of the next one, or the one it names
     * as its successor, more often than not.
     */
    private Kind lastKind;

    /**
     * The last exception whose trace a twin's handler completed ({@link #caught}), until the
     * engine asks whether it was: the engine then leaves its trace alone where the exception
     * leaves the coroutine, where it would otherwise look for its own frames, which an outer
     * coroutine's stack may hold too.
     */
    private Throwable caughtTrace;

    /** What the resumed frame's call site gives: a value, or an exception to throw if resumeThrows. */
    private Object resumeValue;

    static {
        SharedAccess.setFiberAccess(CONTROL);
    }

    /**
     * The state of {@code coroutine}'s stack; its {@code toString()} names it in errors. For the
     * engine only.
     *
     * @param coroutine the coroutine whose frames this fiber saves
     * @param control the engine's control of fibers ({@code SharedAccess.fibers()}), which code
     *        outside the module cannot reach (typed {@code Object}: its type is not exported)
     * @throws IllegalArgumentException if {@code control} is not the engine's
     */
    protected Fiber(Object coroutine, Object control) {
        if (control != CONTROL) {
            throw new IllegalArgumentException("only the woven engine makes fibers (for " + coroutine + ")");
        }
        this.coroutine = coroutine;
    }

    /** Read by woven code after each call: whether to save its frame and return. */
    public final boolean isUnwinding() {
        return mode == UNWINDING;
    }

    /** Read by woven prologues: whether to rebuild the frame from the saved values. */
    public final boolean isResuming() {
        return mode >= RESUMING;
    }

    // ---------------------------------------------------------------- saving (unwinding)

    public final void pushObject(Object value) {
        if (referenceCount == references.length) {
            moreReferences();
        }
        references[referenceCount++] = value;
    }

    public final void pushLong(long value) {
        if (primitiveCount == primitives.length - frameCount) {
            morePrimitives();
        }
        primitives[primitiveCount++] = value;
    }

    private void moreReferences() {
        references = Arrays.copyOf(references, Math.max(MIN_REFERENCES, 2 * referenceCount));
    }

    /** Doubles the primitives' array, its values staying at its start and the frames' ends moving to its end. */
    private void morePrimitives() {
        resizePrimitives(Math.max(MIN_PRIMITIVES, 2 * primitives.length));
    }

    private void resizePrimitives(int length) {
        long[] old = primitives;
        long[] grown = new long[length];
        System.arraycopy(old, 0, grown, 0, primitiveCount);
        System.arraycopy(old, old.length - frameCount, grown, length - frameCount, frameCount);
        primitives = grown;
    }

    public final void pushInt(int value) {
        pushLong(value);
    }

    public final void pushFloat(float value) {
        pushLong(Float.floatToRawIntBits(value));
    }

    public final void pushDouble(double value) {
        pushLong(Double.doubleToRawLongBits(value));
    }

    /**
     * Ends the frame whose values were just pushed: a frame of {@code owner}'s method whose twin
     * is {@code twin}, run on {@code self} (null for a static method), suspended in its call at
     * site {@code site}, marked {@link WeavingContract#TAIL_SITE} if that is a tail call. It is
     * the caller of the frame ended before it, if that one is new too.
     */
    public final void endFrame(Class<?> owner, MethodHandle twin, Object self, int site) {
        addFrame(kindOf(owner, twin), self, site); // a few bytecodes: C2 inlines it at every unwinding site, however cold
    }

    /** The kind of a frame saved with {@code twin}: most often the kind of the last frame saved. */
    private Kind kindOf(Class<?> owner, MethodHandle twin) {
        Kind kind = lastKind;
        return kind != null && kind.twin == twin ? kind : otherKind(kind, owner, twin);
    }

    /**
     * The kind of a frame saved with {@code twin} after one of {@code last} (null if none) of
     * another kind: the one that followed {@code last} the time before, more often than not.
     */
    private Kind otherKind(Kind last, Class<?> owner, MethodHandle twin) {
        Kind kind = last == null ? null : last.successor();
        if (kind == null || kind.twin != twin) {
            kind = Kind.of(owner, twin);
            if (last != null) {
                last.follow(kind);
            }
        }
        lastKind = kind;
        return kind;
    }

    /**
     * Pushes the record of a frame of {@code kind} whose values were just pushed, and gives it a
     * place; {@code self}, if not null, is its last value, which it is not pushed again as.
     */
    private void addFrame(Kind kind, Object self, int site) {
        assert self == null || referenceCount > 0 && references[referenceCount - 1] == self
                : "the receiver of a frame of " + kind.owner.getName() + " is not its last value, in " + this;
        long tail = (site & WeavingContract.TAIL_SITE) != 0 ? TAIL_CALL : 0;
        pushLong((long) kind.number << KIND_SHIFT | tail | (self != null ? HAS_RECEIVER : 0)
                | site & ~WeavingContract.TAIL_SITE & 0xFFFF_FFFFL);
        int f = frameCount;
        if (segmentPending) {
            segmentPending = false;
            openSegment(f);
        }
        if (primitiveCount == primitives.length - f) {
            morePrimitives();
        }
        long[] p = primitives;
        p[p.length - 1 - f] = (long) primitiveCount << 32 | referenceCount;
        frameCount = f + 1;
    }

    /** Starts a segment at place {@code f}, above the top one if there are saved frames. */
    private void openSegment(int f) {
        if (f > 0) {
            int n = lowerSegmentCount();
            int start = segmentStart();
            int[] s = segments;
            if (s == null) {
                s = new int[6];
            } else if (s.length < 2 * n + 5) {
                s = Arrays.copyOf(s, 2 * s.length);
            }
            s[1 + 2 * n] = start;
            s[2 + 2 * n] = nextFrame;
            s[0] = n + 1;
            s[3 + 2 * n] = f;
            s[4 + 2 * n] = TOP_SEGMENT;
            segments = s;
        } else {
            segments = null;
        }
        nextFrame = f;
    }

    /** How many segments are under the top one. */
    private int lowerSegmentCount() {
        int[] s = segments;
        return s == null ? 0 : s[0];
    }

    /** Where segment {@code s} starts, 0 the bottom one, {@link #lowerSegmentCount()} the top one. */
    private int segmentStart(int s) {
        return s == 0 ? 0 : segments[1 + 2 * s];
    }

    /** Where the top segment starts. */
    private int segmentStart() {
        int[] s = segments;
        return s == null ? 0 : s[1 + 2 * s[0]];
    }

    /** The innermost frame not yet resumed of lower segment {@code s}. */
    private int lowerNext(int s) {
        return segments[2 + 2 * s];
    }

    // ---------------------------------------------------------------- restoring (resuming)

    public final Object popObject() {
        Object value = references[--referenceCount];
        references[referenceCount] = null;
        return value;
    }

    public final long popLong() {
        return primitives[--primitiveCount];
    }

    public final int popInt() {
        return (int) popLong();
    }

    public final float popFloat() {
        return Float.intBitsToFloat((int) popLong());
    }

    public final double popDouble() {
        return Double.longBitsToDouble(popLong());
    }

    /**
     * Read by a rebuilt frame's prologue: whether its callee is rebuilt too (it then calls it
     * again, and the callee's prologue pops the next frame's values, right under its own),
     * rather than the frame taking its call's result ({@code resumed<Kind>()}).
     */
    public final boolean rewindsCallee() {
        int m = mode;
        if (m == RESUMING) {
            return false;
        }
        mode = (byte) (m - 1);
        return true;
    }

    /** The result of the resumed frame's call, or the exception passed in thrown: the frame now runs. */
    public final Object resumedObject() {
        endResuming();
        Object value = resumeValue;
        resumeValue = null;
        if (resumeThrows) {
            throw throwResumeException((Throwable) value);
        }
        return value;
    }

    public final int resumedInt() {
        Object value = resumedObject();
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (value instanceof Character c) {
            return c;
        }
        return ((Number) value).intValue();
    }

    public final long resumedLong() {
        return (Long) resumedObject();
    }

    public final float resumedFloat() {
        return (Float) resumedObject();
    }

    public final double resumedDouble() {
        return (Double) resumedObject();
    }

    public final void resumedVoid() {
        resumedObject();
    }

    private RuntimeException throwResumeException(Throwable t) {
        resumeThrows = false;
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
    public final IllegalStateException notASite(String method, int site) {
        discardSavedFrames();
        return new IllegalStateException("cannot resume " + coroutine + ": its saved frame of " + method
                + " names site " + site + ", which is not a suspension site of that method");
    }

    /**
     * Called by woven code at the start of each of a twin's exception handlers, with what it
     * caught and the twin's class and name ({@code pkg.Owner.name$weft}): completes the
     * exception's stack trace with this coroutine's saved frames and its boundary below that
     * twin's frame, unless that was done already ({@link ThrownTraces#caught}). Never throws.
     */
    public final void caught(Throwable thrown, String twin) {
        if (coroutine instanceof CoroutineBase owner && ThrownTraces.caught(thrown, owner, twin, this::savedWhenFilled)) {
            caughtTrace = thrown;
        }
    }

    // ---------------------------------------------------------------- the engine's side

    private void enter() {
        mode = RUNNING;
        segmentPending = true;
    }

    private int referenceEnd(int f) {
        long[] p = primitives;
        return (int) p[p.length - 1 - f];
    }

    private int primitiveEnd(int f) {
        long[] p = primitives;
        return (int) (p[p.length - 1 - f] >>> 32);
    }

    /**
     * Takes up to {@code count} innermost saved frames of the top segment to be resumed
     * together: the outermost of them is called, each rebuilds its callee in turn, and the
     * innermost's call site gives {@code value}, or throws {@code exception} if not null.
     * Returns whether the one to call is the outermost frame of all, which the engine calls
     * through its entry; else it calls the taken frame's resumer on its receiver.
     */
    private boolean take(int count, Object value, Throwable exception) {
        int innermost = nextFrame;
        int outermost = Math.min(frameCount, innermost + Math.min(count, MAX_TAKEN)) - 1;
        int referenceRead = referenceEnd(outermost);
        int primitiveRead = primitiveEnd(outermost);
        nextFrame = outermost + 1;
        if (nextFrame == frameCount) {
            dropTopSegment();
        }
        enter();
        referenceCount = referenceRead;
        primitiveCount = primitiveRead;
        resumeThrows = exception != null;
        resumeValue = resumeThrows ? exception : value;
        mode = (byte) (RESUMING + outermost - innermost);
        return frameCount == 0;
    }

    /**
     * Drops the innermost saved frames of the top segment that are suspended in tail calls, up
     * to the first that is not, and never the outermost frame of all: resumed, each would only
     * return what its call gives, which the engine passes on to the next frame instead. Returns
     * whether it dropped any.
     */
    private boolean dropTailCalls() {
        int first = nextFrame;
        if (!isDroppable(first)) {
            return false;
        }
        int f = first + 1;
        while (isDroppable(f)) {
            f++;
        }
        Arrays.fill(references, first == 0 ? 0 : referenceEnd(first - 1), referenceEnd(f - 1), null);
        nextFrame = f;
        if (f == frameCount) {
            dropTopSegment();
        }
        return true;
    }

    /** Whether saved frame {@code f} is suspended in a tail call and is not the outermost frame of all. */
    private boolean isDroppable(int f) {
        int n = frameCount;
        return (f < n - 1 || f == n - 1 && lowerSegmentCount() > 0) && (primitives[primitiveEnd(f) - 1] & TAIL_CALL) != 0;
    }

    /** Leaves the resuming mode: the frames saved end where the last one with a place ends, where pushes go again. */
    private void endResuming() {
        mode = RUNNING;
        int f = frameCount;
        referenceCount = f == 0 ? 0 : referenceEnd(f - 1);
        primitiveCount = f == 0 ? 0 : primitiveEnd(f - 1);
    }

    /** Frees the places of the top segment, whose frames have all been taken: the one under it is the top one. */
    private void dropTopSegment() {
        int start = segmentStart();
        frameCount = start;
        referenceCount = start == 0 ? 0 : referenceEnd(start - 1);
        primitiveCount = start == 0 ? 0 : primitiveEnd(start - 1);
        int n = lowerSegmentCount();
        if (n > 0) {
            n--;
            nextFrame = lowerNext(n);
            segments[0] = n; // its start, in its pair, is where the top one's is read (0 for the bottom one)
        } else {
            nextFrame = 0;
        }
    }

    /**
     * Calls the frame {@link #take} took through its kind's resumer, on its receiver: its last
     * reference and its record, right under the read positions, which its prologue pops first.
     * Its kind is looked up in the table of numbers only if it is not the last one saved or
     * resumed (JMH, idle: a round trip at depth 50 rebuilding its frames one at a time, 977 ->
     * 869 ns: the table is a chain of five dependent loads, a weak reference among them).
     */
    private Object resumeTaken() throws Throwable {
        long record = primitives[primitiveCount - 1];
        Object receiver = (record & HAS_RECEIVER) != 0 ? references[referenceCount - 1] : null;
        int number = (int) (record >>> KIND_SHIFT);
        Kind kind = lastKind;
        if (kind == null || kind.number != number) {
            kind = Kind.numbered(number);
            lastKind = kind;
        }
        return kind.resumer().resume(receiver, this);
    }

    /** Called by the engine after the frame it resumed returned or threw: whether it took its result, and if not, drops it. */
    private void resumed() {
        if (mode >= RESUMING) { // the frame failed before it took its result
            endResuming();
            resumeValue = null;
            resumeThrows = false;
        }
    }

    /** Drops the saved frames, so that they hold no objects alive. */
    private void discardSavedFrames() {
        Arrays.fill(references, null);
        referenceCount = 0;
        primitiveCount = 0;
        frameCount = 0;
        nextFrame = 0;
        segments = null;
        lastKind = null;
        segmentPending = true;
        resumeValue = null;
        resumeThrows = false;
        mode = RUNNING;
    }

    /** Whether exactly {@code n} frames are saved and not resumed: the count stops once it passes n (a walk has many segments). */
    private boolean hasSavedFrameCount(int n) {
        int count = frameCount - nextFrame;
        for (int s = 0, lower = lowerSegmentCount(); s < lower && count <= n; s++) {
            count += segmentStart(s + 1) - lowerNext(s);
        }
        return count == n;
    }

    /** How many frames are saved and not resumed. */
    private int savedFrameCount() {
        int count = frameCount - nextFrame;
        for (int s = 0, n = lowerSegmentCount(); s < n; s++) {
            count += segmentStart(s + 1) - lowerNext(s);
        }
        return count;
    }

    /** The place of saved frame {@code frame}, 0 being the outermost of all; each segment holds its outermost frame last. */
    private int place(int frame) {
        int left = frame;
        for (int s = 0, n = lowerSegmentCount(); s < n; s++) {
            int end = segmentStart(s + 1);
            int size = end - lowerNext(s);
            if (left < size) {
                return end - 1 - left;
            }
            left -= size;
        }
        if (left >= frameCount - nextFrame) {
            throw new IndexOutOfBoundsException("frame " + frame + " of " + savedFrameCount() + " saved in " + this);
        }
        return frameCount - 1 - left;
    }

    /** The saved frames as a stack trace, innermost first: each its method's name, at the line of the site it is suspended at. */
    private StackTraceElement[] savedStackTrace() {
        int count = savedFrameCount();
        StackTraceElement[] trace = new StackTraceElement[count];
        for (int f = 0; f < count; f++) {
            int place = place(f);
            trace[count - 1 - f] = elementAt(place);
        }
        return trace;
    }

    /**
     * The frames that were saved, innermost first, when a trace was filled whose outermost
     * element of this coroutine is {@code outermost}, above the engine's elements {@code run}
     * ({@link dev.weft.internal.frames.SavedFrames}): none if the body started in that run; those
     * saved now if no frame of the coroutine ran or if {@code outermost} is the frame resumed
     * last; else those outer to the frame resumed most recently whose method {@code outermost}
     * names, as the records still in place say (the frame is the outermost one on the thread
     * while it runs, and the frames outer to it stay saved until it returns); null if no record
     * names it.
     */
    final StackTraceElement[] savedWhenFilled(StackTraceElement outermost, List<StackTraceElement> run) {
        if (outermost == null) {
            return savedStackTrace();
        }
        for (StackTraceElement e : run) {
            if (isBodyStart(e)) {
                return StackTraces.none();
            }
        }
        SegmentsAtResume at = new SegmentsAtResume();
        if (!at.read()) {
            return null;
        }
        int[] found = at.lastResumed(outermost);
        return found == null ? null : at.outerTo(found[0], found[1]);
    }

    /**
     * Whether {@code e} is the engine's method that runs a coroutine's body from its start, in
     * which case nothing was saved while the frames above it ran. None here: the engine's
     * subclass says.
     */
    protected boolean isBodyStart(StackTraceElement e) {
        return false;
    }

    /** Whether saved frame place {@code place}'s method is the one {@code e} names, or its twin. */
    private boolean names(StackTraceElement e, int place) {
        java.lang.reflect.Method m = kindAt(place).method();
        String name = e.getMethodName();
        return e.getClassName().equals(m.getDeclaringClass().getName()) && (name.equals(m.getName())
                || name.length() == m.getName().length() + WeavingContract.TWIN_SUFFIX.length()
                        && name.startsWith(m.getName()) && name.endsWith(WeavingContract.TWIN_SUFFIX));
    }

    /**
     * The segments as they were when the engine began the resume under way ({@link #resumeStartEnd}):
     * per segment, bottom first, its start, the next frame it had then (the top one had all its
     * frames), and its end. A resume changes none of it but the top's next frame and how many
     * segments are under the top, which the top segment's mark ({@link #TOP_SEGMENT}) in the
     * pairs tells.
     */
    private final class SegmentsAtResume {
        private int[] starts;
        private int[] nexts;
        private int[] ends;
        /** The segment that was the top one, and the one that is now. */
        private int top;
        private int current;

        /** Reads them; false if the pairs are not as a resume leaves them. */
        boolean read() {
            int[] s = segments;
            current = lowerSegmentCount();
            top = current;
            if (s != null) {
                while (2 + 2 * top < s.length && s[2 + 2 * top] != TOP_SEGMENT) {
                    top++;
                }
                if (2 + 2 * top >= s.length) {
                    return false;
                }
            }
            starts = new int[top + 1];
            nexts = new int[top + 1];
            ends = new int[top + 1];
            for (int g = 0; g <= top; g++) {
                starts[g] = segmentStart(g);
                nexts[g] = g == top ? starts[g] : s[2 + 2 * g];
            }
            for (int g = 0; g <= top; g++) {
                ends[g] = g == top ? resumeStartEnd : starts[g + 1];
                if (starts[g] > nexts[g] || nexts[g] > ends[g] || ends[g] > resumeStartEnd) {
                    return false;
                }
            }
            return true;
        }

        /** How far segment {@code g}'s frames have been resumed now. */
        private int resumedTo(int g) {
            return g > current ? ends[g] : g == current ? nextFrame : nexts[g];
        }

        /**
         * The segment and place of the frame resumed most recently whose method {@code e} names:
         * those this resume took, the last first, then those resumed before it, whose records
         * stay in their segments.
         */
        int[] lastResumed(StackTraceElement e) {
            for (int g = current; g <= top; g++) {
                for (int place = resumedTo(g) - 1; place >= nexts[g]; place--) {
                    if (names(e, place)) {
                        return new int[] {g, place};
                    }
                }
            }
            for (int g = top; g >= 0; g--) {
                for (int place = nexts[g] - 1; place >= starts[g]; place--) {
                    if (names(e, place)) {
                        return new int[] {g, place};
                    }
                }
            }
            return null;
        }

        /** The frames that were saved outer to the one at {@code place} of segment {@code g} while it ran, innermost first. */
        StackTraceElement[] outerTo(int g, int place) {
            List<StackTraceElement> outer = new ArrayList<>();
            for (int p = place + 1; p < ends[g]; p++) {
                outer.add(elementAt(p));
            }
            for (int lower = g - 1; lower >= 0; lower--) {
                for (int p = nexts[lower]; p < ends[lower]; p++) {
                    outer.add(elementAt(p));
                }
            }
            return outer.toArray(StackTraces.none());
        }
    }

    /** Saved frame place {@code place} as a stack trace element: its method at the line of its site. */
    private StackTraceElement elementAt(int place) {
        return StackTraces.element(kindAt(place).method(), (int) primitives[primitiveEnd(place) - 1]);
    }

    private Kind kindAt(int place) {
        return Kind.numbered((int) (primitives[primitiveEnd(place) - 1] >>> KIND_SHIFT));
    }

    private Object[] frameReferences(int place) {
        int start = place == 0 ? 0 : referenceEnd(place - 1);
        return Arrays.copyOfRange(references, start, referenceEnd(place));
    }

    /** The primitives of the frame at {@code place}, its site id last (without the rest of its record). */
    private long[] framePrimitives(int place) {
        int start = place == 0 ? 0 : primitiveEnd(place - 1);
        long[] values = Arrays.copyOfRange(primitives, start, primitiveEnd(place));
        values[values.length - 1] = (int) values[values.length - 1];
        return values;
    }

    /**
     * Called once the stack has unwound: trims each array that this suspension left more than
     * three quarters empty, by more than {@link #TRIM_SLACK} places, to what it holds (not below the
     * smallest size), so that a coroutine that was deep once does not keep that room.
     */
    private void trimToSaved() {
        if (references.length - referenceCount > Math.max(TRIM_SLACK, 3 * referenceCount)) {
            references = Arrays.copyOf(references, Math.max(MIN_REFERENCES, referenceCount));
        }
        int used = primitiveCount + frameCount;
        if (primitives.length - used > Math.max(TRIM_SLACK, 3 * used)) {
            resizePrimitives(Math.max(MIN_PRIMITIVES, used));
        }
    }

    /**
     * Saves a frame as unwinding does: the caller of the frame saved before it, if any since the
     * saved frames were discarded; the values of {@code objects} and {@code scalars} at the slots
     * given, in the order they are pushed; {@code receiver} its own.
     */
    private void addSavedFrame(java.lang.reflect.Method method, Object receiver, Object[] objects,
            int[] referenceSlots, long[] scalars, int[] primitiveSlots, int site) {
        for (int slot : referenceSlots) {
            pushObject(objects[slot]);
        }
        for (int slot : primitiveSlots) {
            pushLong(scalars[slot]);
        }
        Kind kind = lastKind;
        if (kind == null || kind.method != method) { // frames are written in runs of one method, most often
            kind = Kind.ofWritten(method);
            lastKind = kind;
        }
        addFrame(kind, receiver, site);
    }

    /**
     * What a saved frame is a frame of: its class, the handle of its twin, and the {@link Resumer}
     * by which the engine resumes it, made when first needed; and its number, by which frames name
     * it. Immutable but for that resumer, which any thread may make (an equivalent one). Shared
     * by every fiber: one per twin handle constant of woven code, and one per method whose frames
     * were written from {@code CoroutineFrame}s, so that their count is bounded by the woven
     * methods.
     * A kind lives as long as its class: its class holds it (a class value), and the table of
     * numbers holds it weakly, so that saved frames never keep a class loader alive (the JDK's
     * caches of adapted handles hold some softly); a saved frame's class is reachable from the
     * frame under it (which called it), down to the body.
     * Numbers are given under the class's lock and published by a volatile write of the table;
     * a thread that reads a frame's number got it, through the coroutine's hand-over, after the
     * write of the kind.
     */
    static final class Kind {

        /** The kind of each twin handle constant of a class's woven code. */
        private static final ClassValue<Map<MethodHandle, Kind>> SAVED = new ClassValue<>() {
            @Override
            protected Map<MethodHandle, Kind> computeValue(Class<?> type) {
                return new ConcurrentHashMap<>();
            }
        };

        /** The kind of each method of a class whose frames were written. */
        private static final ClassValue<Map<java.lang.reflect.Method, Kind>> WRITTEN = new ClassValue<>() {
            @Override
            protected Map<java.lang.reflect.Method, Kind> computeValue(Class<?> type) {
                return new ConcurrentHashMap<>();
            }
        };

        private static volatile WeakReference<?>[] numbered = new WeakReference<?>[16];
        private static int count;

        final Class<?> owner;
        final MethodHandle twin;
        final int number;
        private Resumer resumer;
        /** The method whose twin {@link #twin} calls, read from the handle when first asked. */
        private volatile java.lang.reflect.Method method;
        /**
         * The kind of the frame saved right after the last one of this kind that was followed by
         * another kind, in any fiber: a hint for the next lookup, held weakly so that it keeps no
         * other class alive, and written only when it changes.
         */
        private WeakReference<Kind> successor;

        private Kind(Class<?> owner, MethodHandle twin) {
            this.owner = owner;
            this.twin = twin;
            this.number = register(this);
        }

        private static synchronized int register(Kind kind) {
            WeakReference<?>[] table = numbered;
            int n = count;
            if (n == table.length) {
                table = Arrays.copyOf(table, 2 * n);
            }
            table[n] = new WeakReference<>(kind);
            count = n + 1;
            numbered = table;
            return n;
        }

        /** The kind of a frame of {@code owner} saved with {@code twin}, a handle constant of its woven code. */
        static Kind of(Class<?> owner, MethodHandle twin) {
            return SAVED.get(owner).computeIfAbsent(twin, t -> new Kind(owner, t));
        }

        /** The kind of a frame of {@code method} written from a {@code CoroutineFrame}: run by an exact call of its twin. */
        static Kind ofWritten(java.lang.reflect.Method method) {
            return WRITTEN.get(method.getDeclaringClass()).computeIfAbsent(method, m -> {
                Kind kind = new Kind(m.getDeclaringClass(), Twins.exactTwin(m));
                kind.method = m;
                return kind;
            });
        }

        /**
         * The method whose frames this kind saves.
         *
         * @throws IllegalArgumentException if Weft cannot read the twin's handle (its class registered no lookup, and its package is not open to Weft)
         */
        java.lang.reflect.Method method() {
            java.lang.reflect.Method m = method;
            if (m == null) {
                m = Twins.methodOf(owner, twin);
                method = m;
            }
            return m;
        }

        /** The kind numbered {@code number}, which a saved frame names: its class is alive. */
        static Kind numbered(int number) {
            return (Kind) numbered[number].get();
        }

        Kind successor() {
            WeakReference<Kind> s = successor;
            return s == null ? null : s.get();
        }

        void follow(Kind next) {
            if (successor() != next) {
                successor = new WeakReference<>(next);
            }
        }

        Resumer resumer() {
            Resumer r = resumer;
            if (r == null) {
                r = Resumer.of(Twins.resumer(twin));
                resumer = r;
            }
            return r;
        }
    }

    /** The engine's side, reached only through {@link SharedAccess#fibers()}. */
    private static final class Control implements FiberAccess {

        @Override
        public Fiber newFiber(Object coroutine) {
            return new Fiber(coroutine, this);
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
        public boolean beginResume(Fiber fiber) {
            int frames = fiber.frameCount;
            fiber.resumeStartEnd = frames;
            return frames > 0;
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
            fiber.mode = RUNNING;
            fiber.trimToSaved();
        }

        @Override
        public boolean take(Fiber fiber, int count, Object value, Throwable exception) {
            return fiber.take(count, value, exception);
        }

        @Override
        public boolean dropTailCalls(Fiber fiber) {
            return fiber.dropTailCalls();
        }

        @Override
        public Object resumeTaken(Fiber fiber) throws Throwable {
            try {
                return fiber.resumeTaken();
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
            return fiber.savedFrameCount();
        }

        @Override
        public boolean hasFrameCount(Fiber fiber, int count) {
            return fiber.hasSavedFrameCount(count);
        }

        @Override
        public Class<?> frameClass(Fiber fiber, int frame) {
            return fiber.kindAt(fiber.place(frame)).owner;
        }

        @Override
        public Object[] frameReferences(Fiber fiber, int frame) {
            return fiber.frameReferences(fiber.place(frame));
        }

        @Override
        public long[] framePrimitives(Fiber fiber, int frame) {
            return fiber.framePrimitives(fiber.place(frame));
        }

        @Override
        public MethodHandle frameTwin(Fiber fiber, int frame) {
            return fiber.kindAt(fiber.place(frame)).twin;
        }

        @Override
        public StackTraceElement[] savedStackTrace(Fiber fiber) {
            return fiber.savedStackTrace();
        }

        @Override
        public StackTraceElement[] savedWhenFilled(Fiber fiber, StackTraceElement outermost, List<StackTraceElement> run) {
            return fiber.savedWhenFilled(outermost, run);
        }

        @Override
        public boolean takeCaughtTrace(Fiber fiber, Throwable thrown) {
            boolean caught = fiber.caughtTrace == thrown;
            fiber.caughtTrace = null;
            return caught;
        }

        @Override
        public java.lang.reflect.Method frameMethod(Fiber fiber, int frame) {
            return fiber.kindAt(fiber.place(frame)).method();
        }

        @Override
        public MethodHandle exactTwin(java.lang.reflect.Method method) {
            return Twins.exactTwin(method);
        }

        @Override
        public void addSavedFrame(Fiber fiber, java.lang.reflect.Method method, Object receiver, Object[] objects,
                int[] referenceSlots, long[] scalars, int[] primitiveSlots, int site) {
            fiber.addSavedFrame(method, receiver, objects, referenceSlots, scalars, primitiveSlots, site);
        }
    }

    @Override
    public final String toString() {
        return "fiber of " + coroutine + " [" + switch (mode) {
            case RUNNING -> "running";
            case UNWINDING -> "unwinding";
            default -> "resuming";
        } + ", " + savedFrameCount() + " frames saved, " + referenceCount + " references and " + primitiveCount
                + " primitives]";
    }
}
