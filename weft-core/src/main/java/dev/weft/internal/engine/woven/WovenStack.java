package dev.weft.internal.engine.woven;

import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.internal.access.CoroutineAccess;
import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.engine.TwinsOnContinuation;
import dev.weft.internal.frames.ThrownTraces;
import dev.weft.internal.woven.Fiber;

/**
 * An {@link ExecutionStack} of the woven engine, which is also the coroutine's {@link Fiber}
 * (one object per coroutine for the engine's state): the body runs on the resuming thread's own
 * stack, as twin methods that unwind to {@link #resume()} when the coroutine suspends; when it is
 * resumed, its innermost saved frame alone is rebuilt, and each outer one when the frame above it
 * returns ({@link Fiber}); a stack of two frames, the body's and one below it, is rebuilt whole.
 * Nothing of the coroutine stays on any thread's stack while it is suspended, so it may be
 * resumed on any thread; its frames are the fiber's saved values, which {@link #capture()} reads
 * and {@link #restore} writes without running any of its code.
 *
 * <p>Suspension happens in {@link WovenSwitches}, which woven calls of the suspension points
 * are linked to; the scheduler's own {@link #suspend()} is reached only when the coroutine's
 * code got there through a frame that cannot unwind, and is refused.
 *
 * <p>Confined to one thread at a time, as {@link ExecutionStack} says.
 */
final class WovenStack extends Fiber implements TwinsOnContinuation {

    private static final CoroutineAccess COROUTINES = SharedAccess.coroutines();
    private static final FiberAccess FIBERS = SharedAccess.fibers();

    /**
     * How many saved frames a resume rebuilds one at a time, each as the one before it returns
     * or throws, before it rebuilds them in batches ({@link #MAX_REWIND}). A frame rebuilt
     * alone costs a call through its kind's resumer and a turn of this loop; a frame rebuilt
     * with the one above it costs only a call of its callee, but if the frame above calls down
     * again and suspends, the frame under it is saved again without having run. A recursive
     * walk returns a frame or two and goes down again; a stack returning all the way up goes on
     * returning. JMH, idle, against batches from the second frame on (3 forks each):
     * same-fringe 199 -> 161 ns per leaf at 1,000 leaves, 215 -> 175 at 100,000 (-19%), and a
     * round trip down and back up 8% slower at depths 10 and 200, 24% at depth 50; between the
     * full runs of BENCHMARKS.md, same-fringe 203 -> 164 and 218 -> 174, the round trip 228 ->
     * 248, 668 -> 704 and 2,377 -> 2,539 ns at depths 10, 50 and 200.
     */
    private static final int SINGLE_TAKES = 8;

    /**
     * The most saved frames rebuilt together once {@link #SINGLE_TAKES} frames have returned in
     * a row: each is a cheap call of its callee, as in Kilim's rewind. The batches start at two
     * frames and double each time the frames taken return too, up to this, so that a stack
     * that returns all the way up is rebuilt in a few calls.
     */
    private static final int MAX_REWIND = 32;

    /**
     * A stack of this many saved frames, the body's and one below it (a body that suspends in a
     * helper), is rebuilt whole on resume, the body called through the entry and calling its
     * callee again, where the innermost frame alone would be called through its kind's resumer
     * and the body's frame rebuilt once it returns: two turns of the engine's loop where this
     * takes one (JMH, load ~3, measured when resumers were method handles: round trip at
     * depth 0, 49-56 ns per call+ret before, 36-39 after; parked at depth 0, where the body's
     * frame is saved again at each switch, 36-39 before, 35-43 after, within the error). A
     * deeper stack keeps its outer frames saved.
     */
    private static final int WHOLE_BELOW_BODY = 2;

    /** The methods whose handlers catch what the coroutine's frames throw, as a stack trace names them. */
    private static final String RESUME = "resume";
    private static final String START_BODY = "startBody";

    private final WovenEntries.Entry entry;
    private boolean done;
    /**
     * Whether the outermost saved frame is resumed by its own method's twin, on its own receiver,
     * rather than through {@link #entry}: set by a {@link #restore} whose outermost frame is not
     * an activation of the entry's method (a coroutine without a body, or with another one), as
     * the native engine then calls that frame's method by reflection.
     */
    private boolean outermostByItsMethod;
    /** Whether the coroutine unwound to call another ({@link WovenSwitches}): it resumes with the call's result, not a switch's. */
    private boolean returnsFromCall;

    /**
     * Whether a native stack runs this one on a continuation ({@link TwinsOnContinuation}): its
     * suspension points then suspend the continuation, and it unwinds only to be captured.
     */
    private final boolean onContinuation;
    /** Whether a suspension point that a twin called is suspending the continuation: the stack can unwind. */
    private boolean suspendingByTwin;

    WovenStack(CoroutineBase coroutine, WovenEntries.Entry entry, boolean onContinuation) {
        super(coroutine, FIBERS);
        this.entry = entry;
        this.onContinuation = onContinuation;
    }

    /*
     * Implementation notes: a resume is a trampoline over the saved frames. The suspension
     * point's result (or the exception it throws on the resumed side) goes to the innermost
     * saved frame, which runs on alone (unless the stack is just it and the body's frame, both
     * rebuilt through the entry: WHOLE_BELOW_BODY); what it returns (or throws) goes to the next
     * saved frame, rebuilt alone, and so on for SINGLE_TAKES frames; then to the next saved
     * frames rebuilt 2, 4 ... MAX_REWIND at a time (the outermost called from here, each calling
     * its saved callee again, the innermost taking the result), until a frame suspends again
     * (the fiber unwinds: only the frames that ran are saved anew, above the ones still saved)
     * or the outermost returns or throws (the coroutine ends). The frames suspended in tail calls
     * that are next to take the result are dropped instead, a run of them at once, the result
     * going on to the frame under them: a recursive walk's frames that have only to return, and
     * a chain of tail calls back up, cost no rebuild (JMH, idle, against the same code without
     * it, 3 forks: same-fringe 161 -> 129 ns per leaf at 1,000 leaves, 156 -> 131 at 100,000; 2
     * forks, the round trip down and back up by tail calls 55.6 -> 41.0 ns at depth 1, 209 ->
     * 109 at 10, 657 -> 373 at 50, 2,051 -> 1,507 at 200; dropping one frame per turn of this
     * loop, 585 at 50, and 2,079 at 200, where the loop was 41% of the time). A resume
     * thus costs the frames that run, not the depth of the stack.
     */

    @Override
    public void resume() {
        Fiber fiber = this;
        CoroutineBase coroutine = (CoroutineBase) FIBERS.coroutine(fiber);
        Object value = null;
        Throwable thrown = null;
        if (FIBERS.beginResume(fiber)) {
            try {
                value = returnsFromCall ? takeCallReturn(coroutine) : WovenSwitches.resumed(coroutine);
            } catch (Throwable t) {
                thrown = crossed(coroutine, t, RESUME);
            }
            int count = firstTake(fiber);
            int returned = 0;
            while (FIBERS.hasSavedFrames(fiber)) {
                if (FIBERS.dropTailCalls(fiber)) { // they would return what their calls give: the next frame takes it
                    continue;
                }
                try {
                    boolean outermostOfAll = FIBERS.take(fiber, count, value, thrown);
                    if (outermostOfAll && !outermostByItsMethod) { // the body's own frame: through the entry, no handle
                        try {
                            value = entry.enter(coroutine, null, fiber);
                        } finally {
                            FIBERS.afterResume(fiber);
                        }
                    } else {
                        value = FIBERS.resumeTaken(fiber);
                    }
                    thrown = null;
                } catch (Throwable t) {
                    value = null;
                    thrown = t == thrown ? t : crossed(coroutine, t, RESUME); // the same one, passed on: rewritten already
                }
                if (fiber.isUnwinding()) {
                    FIBERS.finishUnwinding(fiber);
                    return;
                }
                // the taken frames returned: the next one alone, until SINGLE_TAKES have, then growing batches
                count = ++returned < SINGLE_TAKES ? 1 : Math.min(2 * count, MAX_REWIND);
            }
        } else {
            startBody(coroutine);
            return;
        }
        finish(coroutine, value, thrown);
    }

    /**
     * The first run of a coroutine with no saved frames: its body from the start. Kept out of
     * {@link #resume()}, so that resume, which C2 inlines into the scheduler's run of a callee
     * on the cycle of nested woven calls, is well under its size limit for a hot method
     * (FreqInlineSize, 325 bytes, which it was at exactly): JMH, the woven asymmetric fiber
     * chain at length 5, 6 forks, 175 &plusmn; 7 before and 168 &plusmn; 12 after, us per 1,000
     * messages, most forks at 160.
     */
    private void startBody(CoroutineBase coroutine) {
        Fiber fiber = this;
        FIBERS.enter(fiber);
        Object value = null;
        Throwable thrown = null;
        try {
            value = entry.enter(coroutine, COROUTINES.startingInput(coroutine), fiber); // refuses a body closeAll closed
        } catch (Throwable t) {
            thrown = crossed(coroutine, t, START_BODY);
        }
        if (fiber.isUnwinding()) {
            FIBERS.finishUnwinding(fiber);
            return;
        }
        finish(coroutine, value, thrown);
    }

    /**
     * {@code t}, which the coroutine's frames threw into the handler in {@code anchor} (one of
     * this class's methods), its stack trace completed with the frames still saved here and a
     * boundary line ({@link ThrownTraces}).
     */
    private Throwable crossed(CoroutineBase coroutine, Throwable t, String anchor) {
        if (!isUnwinding() && !FIBERS.takeCaughtTrace(this, t)) {
            ThrownTraces.crossed(t, coroutine, WovenStack.class, anchor, (outermost, run) -> FIBERS.savedWhenFilled(this, outermost, run));
        }
        return t;
    }

    /** The body has returned {@code value}, or thrown {@code thrown} if not null: the coroutine has finished. */
    private void finish(CoroutineBase coroutine, Object value, Throwable thrown) {
        done = true;
        FIBERS.discardSavedFrames(this);
        if (thrown != null) {
            COROUTINES.recordEnd(coroutine, thrown);
        } else {
            COROUTINES.putOutput(coroutine, value);
        }
    }

    /**
     * How many saved frames a resume rebuilds first: the innermost alone, so that a switch costs
     * the same at any depth; but both frames of a stack of {@link #WHOLE_BELOW_BODY} whose
     * outermost is the body's, through the entry.
     */
    private int firstTake(Fiber fiber) {
        return !outermostByItsMethod && FIBERS.hasFrameCount(fiber, WHOLE_BELOW_BODY) ? WHOLE_BELOW_BODY : 1;
    }

    /** Marks the coroutine, unwinding to call another, as resuming with the call's result. */
    void awaitCallReturn() {
        returnsFromCall = true;
    }

    private Object takeCallReturn(CoroutineBase coroutine) {
        returnsFromCall = false;
        return COROUTINES.takeCallReturn(coroutine);
    }

    @Override
    public Engine engine() {
        return Engine.WOVEN;
    }

    @Override
    public boolean isDone() {
        return done;
    }

    /** Always refused: the coroutine's code reached the suspension without going through twins all the way. */
    @Override
    public boolean suspend() {
        throw WovenRefusal.of((CoroutineBase) FIBERS.coroutine(this));
    }

    /** Whether a native stack runs this one on a continuation, where a twin's suspension point suspends the continuation. */
    boolean onContinuation() {
        return onContinuation;
    }

    /** Marks a twin's call of a suspension point on the continuation as begun (true) or over (false). */
    void suspendingByTwin(boolean suspending) {
        suspendingByTwin = suspending;
    }

    @Override
    public boolean suspendedByTwin() {
        return suspendingByTwin;
    }

    @Override
    public void unwind() {
        FIBERS.startUnwinding(this);
    }

    /** Never: a rewind ends in {@link WovenSwitches}, not in the scheduler's suspension operations. */
    @Override
    public boolean finishRestore() {
        return false;
    }

    @Override
    public CoroutineFrame[] capture() {
        return FiberFrames.read(this);
    }

    /** This engine's {@link #startBody}: the frames above it in a trace ran on nothing saved. */
    @Override
    protected boolean isBodyStart(StackTraceElement e) {
        return e.getMethodName().equals(START_BODY) && e.getClassName().equals(WovenStack.class.getName());
    }

    @Override
    public StackTraceElement[] suspendedStackTrace() {
        return FIBERS.savedStackTrace(this);
    }

    /**
     * Refuses, before anything changes, frames with a method that has no twin; otherwise the
     * outermost frame is entered through the body's entry if it is an activation of the entry's
     * method, else by its own method's twin on its saved receiver, whatever body the coroutine has.
     */
    @Override
    public void restore(CoroutineFrame[] frames) {
        FiberFrames.checkTwins(frames);
        outermostByItsMethod = frames.length > 0 && !frames[0].method.equals(entry.method());
        done = false;
        FiberFrames.write(this, frames);
    }
}
