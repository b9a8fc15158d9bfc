package dev.weft;

import static dev.weft.CoroutineBase.CALLING;
import static dev.weft.CoroutineBase.FINISHED;
import static dev.weft.CoroutineBase.NEW;
import static dev.weft.CoroutineBase.RUNNING;
import static dev.weft.CoroutineBase.SUSPENDED;

import dev.weft.internal.engine.NativeEngine;
import dev.weft.internal.engine.WovenStack;
import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.FrameTransfer;
import dev.weft.internal.woven.WovenFrames;

import java.util.ArrayList;
import java.util.List;

/**
 * One thread's coroutines (the thesis's {@code CoroutineSupport}, section 4.2.8): the ring of
 * its symmetric coroutines, the one running now, the trampoline that switches between
 * symmetric coroutines, and the nested runs that asymmetric calls and closes are.
 *
 * <p>Confined to its thread. The only other thread that touches it is a thief, and only through
 * the coroutines' own state word ({@link CoroutineBase#steal()}): a thief never edits the
 * victim's ring, it just takes ownership, and the victim drops the stale ring node when it
 * next walks past it. Code that runs after a suspension finds its support through the
 * coroutine's owner, never through a support it held before: it may have moved meanwhile.
 */
final class CoroutineSupport {

    /*
     * Implementation notes.
     *
     * Symmetric switches go through the thread's initial coroutine as a trampoline: HotSpot's
     * continuations nest, and resuming B from inside A would put B on top of A for good. So a
     * suspending coroutine names its target in `handoff` and suspends; its stack's resume()
     * returns into runRing() on the initial coroutine's stack, which resumes the target. The
     * cost is the same one freeze and one thaw as a direct switch.
     *
     * Asymmetric calls and closes do nest: the callee runs on top of the caller and its
     * suspension returns straight to it (runTaken).
     *
     * The switcher takes its target (tryTake) before it suspends, so a target that a thief took
     * meanwhile is reported in the switcher's own frame, and a refused suspension (a native
     * frame on the stack) can give the target back untouched.
     */

    private static final ThreadLocal<CoroutineSupport> CURRENT = ThreadLocal.withInitial(CoroutineSupport::new);

    /** A place in the ring. A coroutine gets a new node when stolen; the old one goes stale. */
    static final class RingNode {
        final Coroutine coroutine;
        RingNode prev;
        RingNode next;

        RingNode(Coroutine coroutine) {
            this.coroutine = coroutine;
        }
    }

    final Thread thread;
    final Coroutine initial;

    /** The innermost coroutine executing on this thread. */
    private CoroutineBase running;

    /** The node of the current symmetric coroutine: the ring's position. */
    private RingNode current;

    /** The coroutine a suspending symmetric coroutine passes control to, for runRing(). */
    private Coroutine handoff;

    /** An uncaught exception, to be thrown out of the switch operation that resumes next. */
    private Throwable pendingFailure;

    /** Asymmetric coroutines of this thread that have not finished, for closeAll(); weakly held. */
    private final StartedCoroutines started = new StartedCoroutines();

    static {
        WovenFrames.install(() -> current().running.frames);
    }

    private CoroutineSupport() {
        thread = Thread.currentThread();
        initial = new Coroutine(this);
        RingNode head = new RingNode(initial);
        head.prev = head;
        head.next = head;
        initial.node = head;
        current = head;
        running = initial;
    }

    /**
     * The current thread's support, created on its first coroutine operation.
     *
     * <p>Inside a coroutine it is the running coroutine's owner, found through the engine's
     * innermost stack. {@code Thread.currentThread()} would not do there: HotSpot's compilers
     * treat it as invariant within a compiled method, and a frame that was suspended on one
     * thread and resumed on another (after {@code steal}) could see the thread it used to run
     * on. Outside of every coroutine no frame ever changes threads, so the thread-local is
     * exact there.
     */
    static CoroutineSupport current() {
        CoroutineSupport inside = runningCoroutineOwner();
        return inside != null ? inside : CURRENT.get();
    }

    /**
     * The same as {@link #current()}, for an operation on {@code target}: when the caller runs
     * outside of every coroutine on {@code target}'s owner thread, that owner, without the
     * thread-local (the common case of a thread calling its own coroutines).
     */
    static CoroutineSupport currentFor(CoroutineBase target) {
        CoroutineSupport inside = runningCoroutineOwner();
        if (inside != null) {
            return inside;
        }
        CoroutineSupport owner = target.owner();
        return owner.thread == Thread.currentThread() ? owner : CURRENT.get();
    }

    /** The owner of the coroutine running on this thread, read afresh; null outside of every coroutine. */
    private static CoroutineSupport runningCoroutineOwner() {
        Object running = NativeEngine.runningCoroutine();
        return running != null ? ((CoroutineBase) running).owner() : null;
    }

    /** Makes {@code c}, newly created here or just stolen, one of this thread's coroutines. */
    void adopt(CoroutineBase c) {
        if (c instanceof Coroutine sym) {
            RingNode node = new RingNode(sym);
            node.prev = current;
            node.next = current.next;
            current.next.prev = node;
            current.next = node;
            sym.node = node;
        } else {
            started.add((AsymCoroutine<?, ?>) c);
        }
    }

    Coroutine runningSymmetric() {
        return running instanceof Coroutine c ? c : null;
    }

    // ---------------------------------------------------------------- symmetric switches

    void yieldToNext() {
        Coroutine from = switchingCoroutine("yield");
        Coroutine to = takeNextAfter(current);
        if (to != null) {
            switchTo(from, to, lastTakenPrior);
        }
    }

    void yieldTo(Coroutine target) {
        Coroutine from = switchingCoroutine("yieldTo");
        if (target == from) {
            return;
        }
        switchTo(from, target, takeTarget(target));
    }

    /** Takes {@code target} for a yieldTo; returns the state it was taken from. */
    private int takeTarget(Coroutine target) {
        target.checkOwner(this, "yield to");
        int prior = target.tryTake(this);
        if (prior < 0) {
            throw notRunnable(target, "yield to");
        }
        return prior;
    }

    /** The running coroutine, if it may switch symmetrically, on the native engine. */
    private Coroutine switchingCoroutine(String operation) {
        CoroutineBase r = running;
        checkNativeSuspension(r);
        return symmetric(r, operation);
    }

    /** {@code r}, the running coroutine, if it may switch symmetrically: it is symmetric and not being closed. */
    static Coroutine symmetric(CoroutineBase r, String operation) {
        r.checkExitRequested();
        if (r instanceof Coroutine c) {
            return c;
        }
        throw new IllegalStateException("Coroutine." + operation + "() is not allowed inside asymmetric coroutine "
                + r + ": it can only ret to its caller");
    }

    /**
     * The woven engine's yield ({@code target} null) and yieldTo, called by woven code of
     * {@code from}, the running coroutine, with its {@code fiber}: takes the coroutine to switch
     * to and starts unwinding, so that {@link #runRing} resumes it next. Returns without
     * unwinding if there is nothing to switch to.
     */
    void yieldWoven(Coroutine from, Coroutine target, Fiber fiber) {
        Coroutine to;
        if (target == null) {
            to = takeNextAfter(current);
            if (to == null) {
                return;
            }
        } else {
            if (target == from) {
                return;
            }
            takeTarget(target); // nothing can refuse the switch after this: no state to give back
            to = target;
        }
        to.resumer = from;
        handoff = to;
        fiber.startUnwinding();
    }

    /**
     * Throws if {@code c}, about to suspend through the native engine's path, runs on the woven
     * engine: its code reached the suspension without going through twins all the way (see
     * {@link Engine#WOVEN}), and unwinding would skip the frame in between.
     */
    void checkNativeSuspension(CoroutineBase c) {
        if (c.isWoven()) {
            throw WovenRefusal.of(c);
        }
    }

    /**
     * Takes the first coroutine after {@code start} in ring order that can run here, dropping
     * the nodes of coroutines that finished or moved away. Null if there is none but the one
     * at {@code start}.
     */
    private Coroutine takeNextAfter(RingNode start) {
        RingNode n = start.next;
        while (n != start) {
            Coroutine c = n.coroutine;
            RingNode after = n.next;
            int prior = c.tryTake(this);
            if (prior >= 0 && c.node == n) {
                lastTakenPrior = prior;
                return c;
            }
            if (prior >= 0) {
                c.setStateBits(prior);  // a stale node of a coroutine that was stolen and came back
            }
            if (prior != CoroutineBase.ON_CALL_CHAIN) {
                unlink(n);
            }
            n = after;
        }
        return null;
    }

    /** The state takeNextAfter took its coroutine from, to give it back if the switch fails. */
    private int lastTakenPrior;

    private void unlink(RingNode n) {
        n.prev.next = n.next;
        n.next.prev = n.prev;
    }

    /**
     * Passes control from {@code from}, the running symmetric coroutine, to {@code to}, which
     * the caller has taken from state {@code prior}; returns when control comes back to
     * {@code from}, and throws there what it is handed.
     */
    private void switchTo(Coroutine from, Coroutine to, int prior) {
        to.resumer = from;
        if (from == initial) {
            runRing(to);
        } else {
            handoff = to;
            try {
                NativeEngine.suspend();
            } catch (RuntimeException | Error refused) {
                handoff = null;
                to.setStateBits(prior);
                throw refused;
            }
            waitUntilCapturable(from);
            if (from.frames != null) {
                return; // resumed to be captured: return at once to the woven caller
            }
        }
        from.owner().afterSwitch(from); // not this: it may have been stolen while suspended
    }

    /**
     * If the running symmetric coroutine has just been restored, ends the restore: this is the
     * switch operation it was suspended in, and it resumes here.
     */
    boolean finishRestore() {
        CoroutineBase r = running;
        if (r.frames == null || !(r instanceof Coroutine c)) {
            return false;
        }
        endRestore(r);
        afterSwitch(c);
        return true;
    }

    /** The same for {@code c}, an asymmetric coroutine in {@code ret}. */
    boolean finishRestore(AsymCoroutine<?, ?> c) {
        if (c.frames == null || running != c) {
            return false;
        }
        endRestore(c);
        c.checkExitRequested();
        return true;
    }

    private static void endRestore(CoroutineBase c) {
        if (!c.frames.isRestored()) {
            throw new IllegalStateException(c + " reached a suspension point before all its frames were restored");
        }
        c.frames = null;
        WovenFrames.end();
    }

    void afterSwitch(Coroutine resumed) {
        Throwable f = pendingFailure;
        if (f != null) {
            pendingFailure = null;
            throw CoroutineSupport.<RuntimeException>sneaky(f);
        }
        resumed.checkExitRequested();
    }

    /**
     * The trampoline, on the initial coroutine's stack: resumes {@code first}, then whichever
     * coroutine each one passes control to, until control comes back to the initial coroutine.
     */
    private void runRing(Coroutine first) {
        initial.setStateBits(SUSPENDED);
        Coroutine target = first;
        while (target != initial) {
            running = target;
            current = target.node;
            try {
                target.stack.resume();
            } catch (RuntimeException | Error broken) {
                abandonRing(target);
                throw broken;
            }
            if (target.stack.isDone()) {
                target = finishInRing(target);
            } else {
                target.setStateBits(SUSPENDED);
                target = handoff;
                handoff = null;
            }
        }
        running = initial;
        current = initial.node;
    }

    /** The engine failed to resume {@code target} at all: control falls back to the initial coroutine. */
    private void abandonRing(Coroutine target) {
        target.setStateBits(target.stack.isDone() ? FINISHED : SUSPENDED);
        running = initial;
        current = initial.node;
        initial.setStateBits(RUNNING);
    }

    /**
     * {@code done} finished while running from the ring: it leaves the ring, and the coroutine
     * that receives control is taken and returned. That is the next one in the ring, or, if it
     * failed, the one that switched to it, which is handed the exception.
     */
    private Coroutine finishInRing(Coroutine done) {
        done.setStateBits(FINISHED);
        Coroutine next;
        Throwable f = done.failure;
        if (f != null) {
            done.failure = null;
            pendingFailure = f;
            next = receiverOfFailure(done);
        } else {
            next = takeNextAfter(done.node);
        }
        unlink(done.node);
        done.resumer = null;
        return next;
    }

    private Coroutine receiverOfFailure(Coroutine failed) {
        Coroutine r = failed.resumer;
        if (r != null && r.tryTake(this) >= 0) {
            return r;
        }
        initial.tryTake(this);
        return initial;
    }

    // ---------------------------------------------------------------- nested runs: call, ret, close

    /** Takes {@code c} to run it nested in the running coroutine, or throws why it cannot run. */
    int take(CoroutineBase c, String operation) {
        int prior = c.tryTake(this);
        if (prior < 0) {
            throw notRunnable(c, operation);
        }
        return prior;
    }

    /**
     * Runs {@code c}, taken from state {@code prior}, on top of the running coroutine until it
     * suspends or finishes.
     */
    void runTaken(CoroutineBase c, int prior) {
        try {
            resumeNested(c);
        } finally {
            if (c.stack.isDone()) {
                finishNested(c);
            } else {
                c.setStateBits(SUSPENDED);
            }
        }
    }

    /** Runs {@code c}, taken, on top of the running coroutine until it suspends or its stack ends. */
    private void resumeNested(CoroutineBase c) {
        CoroutineBase caller = running;
        caller.setStateBits(CALLING);
        running = c;
        try {
            c.stack.resume();
        } finally {
            running = caller;
            caller.setStateBits(RUNNING);
        }
    }

    private void finishNested(CoroutineBase c) {
        c.setStateBits(FINISHED);
        if (c instanceof Coroutine sym) {
            unlink(sym.node);
            sym.resumer = null;
        } else {
            started.remove((AsymCoroutine<?, ?>) c);
        }
    }

    /** Suspends {@code c}, the running asymmetric coroutine, back to its caller; returns when it is called again. */
    void suspendAsymmetric(AsymCoroutine<?, ?> c) {
        NativeEngine.suspend();
        waitUntilCapturable(c);
        if (c.frames == null) {
            c.checkExitRequested();
        }
    }

    /**
     * Returns at once unless {@code c} has been resumed in its suspension operation to be
     * captured. While its stack cannot be, it hands the reason to {@link #serialize} and suspends
     * again, right where it was; returns when it is resumed as usual, or to be captured and can be.
     */
    private static void waitUntilCapturable(CoroutineBase c) {
        for (FrameTransfer t = c.frames; t != null && !t.admit(StackCheck.refusal()); t = c.frames) {
            NativeEngine.suspend();
        }
    }

    void checkRunning(CoroutineBase c, String operation) {
        if (running != c) {
            throw new IllegalStateException("cannot " + operation + " from " + c
                    + ": it is not the coroutine running on this thread (that is " + running + ")");
        }
    }

    void close(CoroutineBase c) {
        if (c.isFinished()) {
            return;
        }
        int prior = c.tryTake(this);
        if (prior < 0) {
            if (c.isFinished()) {
                return;
            }
            throw notRunnable(c, "close");
        }
        if (prior == NEW) {
            finishNested(c);
            return;
        }
        c.exitRequested = true;
        runTaken(c, prior);
        assert c.isFinished() : c + " suspended while exiting";
        c.rethrowFailure();
    }

    int closeAll() {
        if (running != initial) {
            throw new IllegalStateException("closeAll() must be called from the initial coroutine of thread "
                    + thread.getName() + ", not from inside " + running);
        }
        int closed = 0;
        Throwable first = null;
        for (List<CoroutineBase> open = unfinished(); !open.isEmpty(); open = unfinished()) {
            for (CoroutineBase c : open) {
                try {
                    close(c);
                } catch (Throwable t) {
                    if (first == null) {
                        first = t;
                    } else {
                        first.addSuppressed(t);
                    }
                }
                closed++;
            }
        }
        if (first != null) {
            throw CoroutineSupport.<RuntimeException>sneaky(first);
        }
        return closed;
    }

    /** The unfinished coroutines of this thread other than the initial one: ring order, then started asymmetric ones. */
    private List<CoroutineBase> unfinished() {
        List<CoroutineBase> open = new ArrayList<>();
        for (RingNode n = initial.node.next; n != initial.node; n = n.next) {
            Coroutine c = n.coroutine;
            if (c.node == n && c.owner() == this && !c.isFinished()) {
                open.add(c);
            }
        }
        for (AsymCoroutine<?, ?> a : started.live()) {
            if (a.owner() == this && !a.isFinished()) {
                open.add(a);
            }
        }
        return open;
    }

    // ---------------------------------------------------------------- serialization

    CoroutineFrame[] serialize(CoroutineBase c) {
        checkSerializable(c, "serialize");
        int bits = c.stateBits();
        if (bits == NEW) {
            return new CoroutineFrame[0];
        }
        if (c.isWoven()) {
            return serializeWoven(c);
        }
        if (c.frames != null) {
            return c.frames.pending(); // deserialized or captured, and not resumed since
        }
        int prior = take(c, "serialize");
        FrameTransfer capture = FrameTransfer.capture();
        c.frames = capture;
        WovenFrames.begin();
        try {
            resumeNested(c);
        } finally {
            WovenFrames.end();
        }
        if (capture.refusal() != null) {
            c.frames = null;
            c.setStateBits(prior);
            throw new IllegalArgumentException("cannot serialize " + c + ": " + capture.refusal());
        }
        if (!c.stack.isDone() || c.failure != null) {
            c.frames = null;
            finishNested(c);
            RuntimeException broken = new IllegalStateException("capturing " + c + " failed; it has finished", c.failure);
            c.failure = null;
            throw broken;
        }
        CoroutineFrame[] captured = capture.captured();
        replaceStack(c, captured, prior);
        return FrameTransfer.copy(captured);
    }

    /**
     * The woven engine's serialize: the frames are already saved in the coroutine's fiber, and
     * are read without resuming it. Taken meanwhile, so that no thief moves it.
     */
    private CoroutineFrame[] serializeWoven(CoroutineBase c) {
        int prior = take(c, "serialize");
        try {
            return FiberFrames.read(fiberOf(c), c.wovenEntryMethod());
        } finally {
            c.setStateBits(prior);
        }
    }

    private static Fiber fiberOf(CoroutineBase c) {
        return ((WovenStack) c.stack).fiber();
    }

    void deserialize(CoroutineBase c, CoroutineFrame[] frames) {
        checkSerializable(c, "deserialize into");
        CoroutineFrame[] restored = FrameTransfer.copy(frames); // checked as copied: later changes to frames cannot slip in
        FrameValidator.validate(c, restored);
        if (c.isWoven()) {
            FiberFrames.checkEntry(c, restored, c.wovenEntryMethod());
        }
        int prior = take(c, "deserialize into");
        if (c.isWoven()) {
            c.stack = c.newStack();
            FiberFrames.write(fiberOf(c), restored);
            c.setStateBits(restored.length > 0 ? SUSPENDED : prior);
            return;
        }
        if (c.frames != null) {
            WovenFrames.end(); // the restore that was pending is dropped
            c.frames = null;
        }
        replaceStack(c, restored, SUSPENDED);
    }

    /** {@code c}, taken, gets a fresh stack that rebuilds {@code frames} when next resumed; it is given back as {@code state}. */
    private static void replaceStack(CoroutineBase c, CoroutineFrame[] frames, int state) {
        c.stack = c.newStack();
        if (frames.length > 0) {
            c.frames = FrameTransfer.restore(java.util.List.of(frames));
            WovenFrames.begin();
        }
        c.setStateBits(frames.length > 0 ? SUSPENDED : state);
    }

    private void checkSerializable(CoroutineBase c, String operation) {
        if (c.isInitial()) {
            throw new IllegalArgumentException("cannot " + operation + " " + c
                    + ": a thread's initial coroutine is its thread's own stack");
        }
        switch (c.stateBits()) {
            case FINISHED -> throw new IllegalStateException("cannot " + operation + " " + c + ": it has finished");
            case CALLING -> throw new IllegalArgumentException("cannot " + operation + " " + c
                    + ": it is in the middle of calling another coroutine");
            case RUNNING -> throw new IllegalArgumentException("cannot " + operation + " " + c + ": it is running");
            default -> {
            }
        }
    }

    // ---------------------------------------------------------------- errors

    /** Why {@code c}, which tryTake refused, cannot be run by {@code operation} from this thread. */
    RuntimeException notRunnable(CoroutineBase c, String operation) {
        if (c.owner() != this) {
            return new WrongThreadException("cannot " + operation + " " + c + " from thread " + thread.getName()
                    + ": it belongs to thread " + c.owner().thread.getName());
        }
        if (c.isFinished()) {
            return new IllegalStateException("cannot " + operation + " " + c + ": it has finished");
        }
        return new IllegalStateException("cannot " + operation + " " + c
                + ": it is already running on this thread (a coroutine cannot call or switch to itself,"
                + " directly or through others)");
    }

    @SuppressWarnings("unchecked")
    static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
