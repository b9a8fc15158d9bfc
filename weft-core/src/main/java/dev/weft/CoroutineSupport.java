package dev.weft;

import static dev.weft.CoroutineBase.CALLING;
import static dev.weft.CoroutineBase.NEW;
import static dev.weft.CoroutineBase.RUNNING;
import static dev.weft.CoroutineBase.SUSPENDED;

import dev.weft.internal.engine.Engines;
import dev.weft.internal.frames.FrameValidator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One thread's coroutines (the thesis's {@code CoroutineSupport}, section 4.2.8): the ring of
 * its symmetric coroutines, the one running now, the trampoline that switches between
 * symmetric coroutines, and the nested runs that asymmetric calls and closes are.
 *
 * <p>Confined to its thread. The only other thread that touches it is a thief, and only through
 * the coroutines' own state word ({@link CoroutineBase#steal()}): a thief never edits the
 * victim's ring, nor a stolen coroutine's links while the victim's ring holds them; it just
 * takes ownership, and the victim drops the coroutine from its ring when it next walks past
 * it. Code that runs after a suspension finds its support through the coroutine's owner,
 * never through a support it held before: it may have moved meanwhile.
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
     * suspension returns straight to it (runTaken). Except on the woven engine, when an
     * asymmetric coroutine calls from woven code with NESTED_BEFORE_UNWINDING runs already
     * nested (a limit on the thread stack a chain takes, not a speed-up: see there): the caller unwinds instead, waits in waitingCallers (CALLING, as a nested caller
     * is), and runTaken, the loop that ran it, runs the callee and then resumes the caller with
     * the call's result. So a long chain of such calls runs at a fixed depth, like the ring,
     * where nesting would put about 1 KB of thread stack per member between the driver and the
     * innermost callee, all of it walked by every message.
     *
     * The switcher takes its target (tryTake) before it suspends, so a target that a thief took
     * meanwhile is reported in the switcher's own frame, and a refused suspension (a native
     * frame on the stack) can give the target back untouched.
     *
     * The ring is a doubly linked cycle through the coroutines' own prev/next fields, whose
     * first member is the initial coroutine. A coroutine's links belong to the support named by
     * its `ring` field, and only that support's thread touches them. A ring drops a member that
     * finished or moved to another thread as it walks past it (or at once, when it finishes
     * here): it unlinks it, clears its links, and then clears `ring` with a releasing write,
     * which hands the links over. A support that adopts a coroutine (new, or stolen) reads
     * `ring` with an acquiring read:
     *   null       -> it claims the links and links the coroutine after the current one;
     *   itself     -> the coroutine left and came back before this ring dropped it: it is
     *                 moved after the current one;
     *   another    -> the old owner's ring still holds the links: a StandIn takes the
     *                 coroutine's place here (one per coroutine, found in `standIns`).
     * When the walk reaches a stand-in, it takes the coroutine the stand-in holds; if the old
     * ring has let go of the links meanwhile, the coroutine takes the stand-in's place. A stand-in
     * is dropped when its coroutine finished or moved away again. So a coroutine has one place
     * in its owner's ring at any time, the old ring is repaired only by its own thread, and the
     * links pass between threads only through the releasing write and the acquiring read of
     * `ring` (the coroutine's state word, which a steal bumps, orders everything else).
     * `current`, the running coroutine's place, is the coroutine itself or its stand-in.
     */

    private static final ThreadLocal<CoroutineSupport> CURRENT = ThreadLocal.withInitial(CoroutineSupport::new);

    private static final VarHandle RING;

    static {
        try {
            RING = MethodHandles.lookup().findVarHandle(Coroutine.class, "ring", CoroutineSupport.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The place in this thread's ring of a coroutine stolen while another thread's ring still
     * held its links. Never runs and never leaves this support: it is running from the start,
     * so that the walk never takes it, and it is owned by this support.
     */
    static final class StandIn extends Coroutine {
        final Coroutine stolen;

        StandIn(CoroutineSupport support, Coroutine stolen) {
            super(support, "ring place of a stolen coroutine");
            this.stolen = stolen;
        }
    }

    final Thread thread;
    final Coroutine initial;

    /** The innermost coroutine executing on this thread. */
    private CoroutineBase running;

    /** The place of the current symmetric coroutine: the ring's position (itself, or its stand-in). */
    private Coroutine current;

    /** The stand-ins in this ring, by the coroutine each stands for; null until the first steal needs one. */
    private IdentityHashMap<Coroutine, StandIn> standIns;

    /** The coroutine a suspending symmetric coroutine passes control to, for runRing(). */
    private Coroutine handoff;

    /** An uncaught exception, to be thrown out of the switch operation that resumes next. */
    private Throwable pendingFailure;

    /** Asymmetric coroutines of this thread that have not finished, for closeAll(); weakly held. */
    private final StartedCoroutines started = new StartedCoroutines(this);

    /**
     * Incremented as each {@link #closeAll} ends: asymmetric coroutines adopted before, and not
     * tracked since, were never called and are closed by it (see {@link #adopt}). Written by the
     * owner thread, read by any ({@code isFinished}).
     */
    private volatile int closings;

    /**
     * How many asymmetric coroutines this thread adopted new and not yet started, deserialized
     * into, closed or counted as closed: what {@link #closeAll} closes by counting. Owner thread;
     * a thief that steals one of them counts it in {@link #unstartedStolen} instead.
     */
    private int unstarted;
    private final AtomicInteger unstartedStolen = new AtomicInteger();

    /**
     * Every thread's support, held weakly (a support lives as long as its thread or one of its
     * coroutines), for dumps: added to once per thread, as its first coroutine operation creates
     * it, and swept as it doubles. Guarded by itself.
     */
    private static final List<WeakReference<CoroutineSupport>> ALL = new ArrayList<>();
    private static int sweepAllAt = 64;
    /** Whether the first support has been created, which registers the MBean if a system property asks. Guarded by ALL. */
    private static boolean mbeanAsked;

    private CoroutineSupport() {
        thread = Thread.currentThread();
        initial = new Coroutine(this, "initial coroutine of " + thread.getName());
        initial.prev = initial;
        initial.next = initial;
        initial.ring = this;
        current = initial;
        running = initial;
        register(this); // last: a dump on another thread finds it whole, through the lock
    }

    private static void register(CoroutineSupport support) {
        boolean first;
        synchronized (ALL) {
            first = !mbeanAsked;
            mbeanAsked = true;
            if (ALL.size() >= sweepAllAt) {
                ALL.removeIf(r -> r.get() == null);
                sweepAllAt = Math.max(64, 2 * ALL.size());
            }
            ALL.add(new WeakReference<>(support));
        }
        if (first) {
            CoroutineDump.registerMBeanIfAsked();
        }
    }

    /** Every thread's support that is still reachable, oldest first. Any thread. */
    static List<CoroutineSupport> all() {
        List<CoroutineSupport> all = new ArrayList<>();
        synchronized (ALL) {
            for (WeakReference<CoroutineSupport> r : ALL) {
                CoroutineSupport s = r.get();
                if (s != null) {
                    all.add(s);
                }
            }
        }
        return all;
    }

    /** The support of {@code thread}, if it ever ran a coroutine operation; null if not. Any thread. */
    static CoroutineSupport of(Thread thread) {
        for (CoroutineSupport s : all()) {
            if (s.thread == thread) {
                return s;
            }
        }
        return null;
    }

    /**
     * This thread's coroutines as a dump sees them, other than its initial one: its ring's, in
     * ring order, then the asymmetric ones that have started. Exact on this thread; from any
     * other, a racy read of structures confined to this one, which ends (a link seen twice or
     * cleared stops the walk) and may miss or repeat a coroutine that moves meanwhile: the
     * caller checks each one's owner and state.
     */
    List<CoroutineBase> snapshot() {
        List<CoroutineBase> found = new ArrayList<>();
        Set<Coroutine> walked = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Coroutine n = initial.next; n != null && n != initial && walked.add(n); n = n.next) {
            found.add(n instanceof StandIn s ? s.stolen : n);
        }
        started.snapshotInto(found);
        return found;
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
        CoroutineBase running = Engines.runningCoroutine();
        return running != null ? running.owner() : null;
    }

    /**
     * Makes {@code c}, newly created here or just stolen, one of this thread's coroutines. An
     * asymmetric one is tracked for {@link #closeAll} once it has frames: {@code suspended}, or
     * when its body starts ({@link #bodyStarts}) or it is deserialized into. Until then nothing refers to it, so that
     * creating one costs no more than the object and an abandoned one is collected; a
     * {@code closeAll} meanwhile closes it by counting ({@link #closings}).
     */
    void adopt(CoroutineBase c, boolean suspended) {
        if (c instanceof Coroutine sym) {
            joinRing(sym);
        } else {
            AsymCoroutine<?, ?> a = (AsymCoroutine<?, ?>) c;
            a.adoptedAtClosing = closings;
            if (suspended) {
                started.add(a);
            } else {
                unstarted++;
            }
        }
    }

    /**
     * Called on {@code c}'s stack as its body starts: refuses one that a {@link #closeAll} closed
     * before it ever ran, and tracks an asymmetric one from then on. Tracking here, once per
     * coroutine, keeps a data-dependent branch out of the switch path, which is compiled into
     * the frames of the coroutines that switch.
     */
    void bodyStarts(CoroutineBase c) {
        c.checkNotClosedBeforeItRan();
        if (c instanceof AsymCoroutine<?, ?> a) {
            unstarted--;
            started.add(a);
        }
    }

    /** Called by a thief that took one of this thread's new asymmetric coroutines. Any thread. */
    void unstartedLeft() {
        unstartedStolen.incrementAndGet();
    }

    /** How many times {@link #closeAll} has ended on this thread. */
    int closings() {
        return closings;
    }

    /** Whether {@code c} is the coroutine running innermost on this thread. Owner thread. */
    boolean isRunning(CoroutineBase c) {
        return running == c;
    }

    Coroutine runningSymmetric() {
        return running instanceof Coroutine c ? c : null;
    }

    // ---------------------------------------------------------------- the ring

    /** Gives {@code c}, new here or just stolen (and held BUSY), a place right after the current one. */
    private void joinRing(Coroutine c) {
        StandIn old = standIns == null ? null : standIns.remove(c);
        if (old != null) {
            unlink(old); // it left, the old ring let go of it, and it came back: no stand-in needed now
        }
        CoroutineSupport holder = (CoroutineSupport) RING.getAcquire(c);
        if (holder == this) {
            assert c != current : c + " is being adopted while it is the current place";
            unlink(c);
            linkAfterCurrent(c);
        } else if (holder == null) {
            c.ring = this; // nobody else touches a coroutine's ring while it is taken
            linkAfterCurrent(c);
        } else {
            StandIn s = new StandIn(this, c);
            if (standIns == null) {
                standIns = new IdentityHashMap<>();
            }
            standIns.put(c, s);
            linkAfterCurrent(s);
        }
    }

    private void linkAfterCurrent(Coroutine place) {
        Coroutine after = current.next;
        place.prev = current;
        place.next = after;
        after.prev = place;
        current.next = place;
    }

    private static void unlink(Coroutine place) {
        place.prev.next = place.next;
        place.next.prev = place.prev;
    }

    /** {@code c}'s place in this ring: itself, or its stand-in. {@code c} belongs to this thread. */
    private Coroutine placeOf(Coroutine c) {
        if (c.ring == this) { // a plain read: only this thread writes this support there
            return c;
        }
        StandIn s = standIns.get(c);
        assert s != null : c + " has no place in the ring of " + thread.getName();
        return s;
    }

    /**
     * Removes {@code place} from the ring: a stand-in is forgotten; a coroutine's links are
     * cleared and handed over (the releasing write of {@code ring}) to whichever thread owns it next.
     */
    private void leaveRing(Coroutine place) {
        unlink(place);
        if (place instanceof StandIn s) {
            standIns.remove(s.stolen);
        } else {
            place.prev = null;
            place.next = null;
            RING.setRelease(place, (CoroutineSupport) null);
        }
    }

    /**
     * Takes the coroutine that {@code s} stands for, if it can run here: it takes {@code s}'s
     * place when its old ring has let go of its links. Drops {@code s} if the coroutine
     * finished or moved away; null if it cannot run now.
     */
    private Coroutine takeThrough(StandIn s) {
        Coroutine c = s.stolen;
        int prior = c.tryTake(this);
        if (prior == CoroutineBase.GONE) {
            leaveRing(s);
            return null;
        }
        if (prior < 0) {
            return null;
        }
        if (RING.getAcquire(c) == null) {
            takePlace(s, c);
        }
        lastTakenPrior = prior;
        return c;
    }

    /** Puts {@code c}, whose links nobody holds, in the place of its stand-in {@code s}. */
    private void takePlace(StandIn s, Coroutine c) {
        c.ring = this;
        c.prev = s.prev;
        c.next = s.next;
        s.prev.next = c;
        s.next.prev = c;
        standIns.remove(c);
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

    /** The running coroutine, if it may switch symmetrically. */
    private Coroutine switchingCoroutine(String operation) {
        return symmetric(running, operation);
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
     * The first half of a suspension that the engine performs itself (the woven engine's yield,
     * {@code target} null, or yieldTo), by {@code from}, the running coroutine: takes the
     * coroutine to switch to and names it for {@link #runRing}, which resumes it once the
     * engine has suspended {@code from}.
     *
     * @return whether to suspend: false if there is nothing to switch to
     */
    boolean handOff(Coroutine from, Coroutine target) {
        Coroutine to;
        if (target == null) {
            to = takeNextAfter(current);
            if (to == null) {
                return false;
            }
        } else {
            if (target == from) {
                return false;
            }
            takeTarget(target); // nothing can refuse the switch after this: no state to give back
            to = target;
        }
        to.resumedBy(from);
        handoff = to;
        return true;
    }

    /**
     * Takes the first coroutine after the place {@code start} in ring order that can run here,
     * dropping coroutines (and stand-ins) that finished or moved away. Null if there is none but
     * the one at {@code start}.
     */
    private Coroutine takeNextAfter(Coroutine start) {
        Coroutine n = start.next;
        while (n != start) {
            Coroutine after = n.next;
            int prior = n.tryTake(this);
            if (prior >= 0) {
                lastTakenPrior = prior;
                return n;
            }
            if (n instanceof StandIn s) { // never taken itself: it reads as running
                Coroutine c = takeThrough(s);
                if (c != null) {
                    return c;
                }
            } else if (prior == CoroutineBase.GONE) {
                leaveRing(n);
            }
            n = after;
        }
        return null;
    }

    /** The state takeNextAfter took its coroutine from, to give it back if the switch fails. */
    private int lastTakenPrior;

    /**
     * Passes control from {@code from}, the running symmetric coroutine, to {@code to}, which
     * the caller has taken from state {@code prior}; returns when control comes back to
     * {@code from}, and throws there what it is handed.
     */
    private void switchTo(Coroutine from, Coroutine to, int prior) {
        to.resumedBy(from);
        if (from == initial) {
            runRing(to);
        } else {
            handoff = to;
            boolean resumed;
            try {
                resumed = from.stack.suspend();
            } catch (RuntimeException | Error refused) {
                handoff = null;
                to.setStateBits(prior);
                throw refused;
            }
            if (!resumed) {
                return; // resumed only to be captured: return at once to the woven caller
            }
        }
        from.owner().afterSwitch(from); // not this: it may have been stolen while suspended
    }

    /**
     * If the running symmetric coroutine's stack has just been restored and is back in the
     * switch operation it was suspended in, completes that operation as a resumed switch.
     */
    boolean finishRestore() {
        if (!(running instanceof Coroutine c) || c.stack == null || !c.stack.finishRestore()) {
            return false;
        }
        afterSwitch(c);
        return true;
    }

    /** The same for {@code c}, an asymmetric coroutine in {@code ret}. */
    boolean finishRestore(AsymCoroutine<?, ?> c) {
        if (running != c || !c.stack.finishRestore()) {
            return false;
        }
        c.checkExitRequested();
        return true;
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
            current = placeOf(target);
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
        current = initial;
    }

    /** The engine failed to resume {@code target} at all: control falls back to the initial coroutine. */
    private void abandonRing(Coroutine target) {
        if (target.stack.isDone()) {
            target.markFinished();
        } else {
            target.setStateBits(SUSPENDED);
        }
        running = initial;
        current = initial;
        initial.setStateBits(RUNNING);
    }

    /**
     * {@code done} finished while running from the ring: it leaves the ring, and the coroutine
     * that receives control is taken and returned. That is the next one in the ring, or, if it
     * failed, the one that switched to it, which is handed the exception.
     */
    private Coroutine finishInRing(Coroutine done) {
        done.markFinished();
        Coroutine place = placeOf(done);
        Coroutine next;
        Coroutine resumer = done.resumer();
        Throwable f = done.takeFailure();
        if (f != null) {
            pendingFailure = f;
            next = receiverOfFailure(resumer);
        } else {
            next = takeNextAfter(place);
        }
        leaveRing(place);
        done.forgetResumer();
        return next;
    }

    private Coroutine receiverOfFailure(Coroutine r) {
        if (r != null && r.tryTake(this) >= 0) {
            return r;
        }
        initial.tryTake(this);
        return initial;
    }

    // ---------------------------------------------------------------- nested runs: call, ret, close

    /** The coroutines waiting, CALLING with their frames saved, for the callees of calls made by unwinding; innermost last. */
    private final ArrayList<CoroutineBase> waitingCallers = new ArrayList<>();

    /**
     * How many runs a woven call nests on the thread's stack before it unwinds its caller
     * instead. Measured (JMH fiber chain, JDK 25, with this at 16), a call by unwinding saved
     * nothing against a nested one: 85.7 against 30.6 ns per hop in a chain of 50, 69.1 against
     * 68.1 in a chain of 5,000 (two switches, the caller's frame saved and rebuilt besides its
     * callee's ret, through call sites C2 did not inline in the profile). So chains nest as far
     * as a small thread stack allows (about 1.1 KB of it per nested run, some 300 KB at this
     * depth) and run flat past that, where nesting would overflow it. Measured again (JMH
     * -f 1 -wi 3 -i 5, JDK 25, load ~1.9, the limit read from a property in a build made for
     * it): a chain of 5,000 ran at 61, 64, 64, 68 and 72 ns per hop with limits of 1, 16,
     * 256, 1,024 and 100,000 (every call unwinding ... every call nested), all within their
     * error; a chain of 5, which stays in the caches, 41-49 ns per hop with every call unwinding
     * against 30-32 nested. So a call by unwinding costs ~15 ns more than a nested one where
     * the stack is hot, and at 5,000 both pay the same for memory: 256 stays. (A perf profile
     * at 5,000 now shows no java.lang.invoke frame, the linked call sites inlined: the members'
     * twins 43%, WovenStack.resume 26%, runChain 20%, resumeInChain 7%.)
     */
    static final int NESTED_BEFORE_UNWINDING = 256;

    /** How many runs of runTaken are under way on this thread's stack (each counted while its coroutine runs). */
    private int nestedRuns;

    /** The callee of a call made by unwinding, taken, until the caller has unwound and runTaken runs it. */
    private AsymCoroutine<?, ?> pendingCallee;
    private int pendingCalleePrior;

    /** The result of a call made by unwinding, for the caller as it resumes: its callee's output, or failure. */
    private Object callReturn;
    private Throwable callFailure;

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
     * suspends or finishes; returns the value it passed out (an asymmetric coroutine's ret or
     * return value, null for a symmetric one).
     *
     * <p>This is also the trampoline of the woven engine's asymmetric calls
     * ({@link #wovenCall}): when the coroutine it runs unwinds to call another, the caller
     * waits here, CALLING, with its frames saved, and the callee runs from here; when the callee
     * rets, finishes or throws, the caller is resumed with the call's result. A chain of such
     * calls thus runs at the depth of this frame, however long it is.
     *
     * <p>Each output is taken before the state is published as suspended: from that write on, a
     * thief may steal the coroutine and call it, putting its own input where the output was.
     */
    Object runTaken(CoroutineBase c, int prior) {
        CoroutineBase caller = running;
        caller.setStateBits(CALLING);
        Throwable broken = resumeInChain(c);
        if (broken == null && pendingCallee != null) {
            return runChain(caller, c);
        }
        return returnToCaller(caller, c, broken);
    }

    /**
     * The loop of {@link #runTaken} once {@code unwound}, the coroutine it ran, has unwound to
     * call another: runs the chain of calls by unwinding until the last of them returns to
     * {@code caller}, the coroutine that runTaken returns to. Kept out of runTaken, so that a
     * nested call, the common case, stays small enough to compile into its caller.
     */
    private Object runChain(CoroutineBase caller, CoroutineBase unwound) {
        int base = waitingCallers.size();
        CoroutineBase top = startPendingCall(unwound);
        while (true) {
            Throwable broken = resumeInChain(top);
            if (broken == null && pendingCallee != null) {
                top = startPendingCall(top);
            } else if (waitingCallers.size() == base) {
                return returnToCaller(caller, top, broken);
            } else {
                top = returnToWaitingCaller(top, broken);
            }
        }
    }

    /**
     * Runs {@code c}, taken, until it suspends, unwinds to call or its stack ends, as one more
     * run nested on this thread; what the engine threw, if it failed.
     */
    private Throwable resumeInChain(CoroutineBase c) {
        running = c;
        nestedRuns++;
        try {
            c.stack.resume();
            return null;
        } catch (RuntimeException | Error broken) {
            givePendingCalleeBack();
            return broken;
        } finally {
            nestedRuns--;
        }
    }

    /** {@code top} has stopped running and {@code caller} runs again: top's output, or {@code broken} thrown. */
    private Object returnToCaller(CoroutineBase caller, CoroutineBase top, Throwable broken) {
        running = caller;
        caller.setStateBits(RUNNING);
        Object output = endRun(top);
        if (broken != null) {
            throw CoroutineSupport.<RuntimeException>sneaky(broken);
        }
        return output;
    }

    /** {@code caller} has unwound to call the pending callee: it waits, CALLING, and the callee is returned to run. */
    private CoroutineBase startPendingCall(CoroutineBase caller) {
        AsymCoroutine<?, ?> callee = pendingCallee;
        pendingCallee = null;
        caller.setStateBits(CALLING);
        waitingCallers.add(caller);
        return callee;
    }

    /**
     * {@code callee}, called by the innermost waiting caller, has returned by ret, finished or (if
     * {@code broken}) failed to run: the caller is given the call's result, for its stack to
     * take as it resumes ({@link #takeCallReturn}), and returned to run.
     */
    private CoroutineBase returnToWaitingCaller(CoroutineBase callee, Throwable broken) {
        Object output = endRun(callee);
        Throwable failure = broken != null ? broken : callee.isFinished() ? callee.takeFailure() : null;
        CoroutineBase caller = waitingCallers.remove(waitingCallers.size() - 1);
        caller.setStateBits(RUNNING);
        callReturn = failure == null ? output : null;
        callFailure = failure;
        return caller;
    }

    /** {@code c} has stopped running: its output, taken before it is published as suspended or finished. */
    private Object endRun(CoroutineBase c) {
        Object output = c instanceof AsymCoroutine<?, ?> a ? a.takeTransfer() : null;
        if (c.stack.isDone()) {
            finishNested(c);
        } else {
            c.setStateBits(SUSPENDED);
        }
        return output;
    }

    /** A callee taken for a call whose caller's unwinding failed is given back untouched. */
    private void givePendingCalleeBack() {
        AsymCoroutine<?, ?> callee = pendingCallee;
        if (callee != null) {
            pendingCallee = null;
            callee.takeTransfer();
            callee.setStateBits(pendingCalleePrior);
        }
    }

    /**
     * A woven engine's call of {@code callee} by {@code caller}, the coroutine whose woven code
     * makes it, with {@code input}. It runs nested, as {@code call} runs it, and its output is
     * returned: when the caller is not the coroutine this scheduler runs (then as {@code call}
     * is), while fewer than {@link #NESTED_BEFORE_UNWINDING} runs are nested on this thread's
     * stack, and when the caller cannot wait unwound ({@code mayUnwind} false, or a symmetric
     * coroutine, whose runs come from the ring, which does not wait for calls). Otherwise this
     * is the first half of a call by unwinding: the callee is taken and named for
     * {@link #runTaken}, which runs it once the engine has unwound the caller, and
     * {@code unwound} is returned, the engine's marker, which no output is.
     *
     * <p>The nested call is written out here, not left to {@code callOn} and {@code take}: it
     * is on the cycle (twin, call, run, next twin) that C2 inlines whole, right at its depth
     * limit, and two levels fewer made that shape the same from one JVM to the next (JMH, the
     * woven asymmetric fiber chain at length 5, 6 forks: 187 &plusmn; 15 before, 175 &plusmn; 7
     * after, us per 1,000 messages; forks 160-209 before, 160-183 after).
     *
     * @throws IllegalStateException or {@link WrongThreadException}, as {@code call} does, if
     *         the callee cannot be called
     */
    Object wovenCall(CoroutineBase caller, AsymCoroutine<?, ?> callee, Object input, boolean mayUnwind, Object unwound) {
        if (running != caller) {
            return callee.callOn(currentFor(callee), input);
        }
        if (mayUnwind && nestedRuns >= NESTED_BEFORE_UNWINDING && caller instanceof AsymCoroutine<?, ?>) {
            callee.checkOwner(this, "call");
            pendingCalleePrior = take(callee, "call");
            callee.putTransfer(input);
            pendingCallee = callee;
            return unwound;
        }
        callee.checkOwner(this, "call");
        int prior = callee.tryTake(this);
        if (prior < 0) {
            throw notRunnable(callee, "call");
        }
        callee.putTransfer(input);
        Object output = runTaken(callee, prior);
        if (callee.isFinished()) {
            callee.rethrowFailure();
        }
        return output;
    }

    /** The result of the call that the coroutine resuming now made by unwinding: its callee's output, or its failure thrown. */
    Object takeCallReturn() {
        Object output = callReturn;
        Throwable failure = callFailure;
        callReturn = null;
        callFailure = null;
        if (failure != null) {
            throw CoroutineSupport.<RuntimeException>sneaky(failure);
        }
        return output;
    }

    private void finishNested(CoroutineBase c) {
        c.markFinished();
        if (c instanceof Coroutine sym) {
            leaveRing(placeOf(sym));
            sym.forgetResumer();
        } // an asymmetric one's entry in started is swept out later
    }

    /**
     * Suspends {@code c}, the running asymmetric coroutine, back to its caller; returns when it
     * is called again: true, or false if it was resumed only to be captured.
     */
    boolean suspendAsymmetric(AsymCoroutine<?, ?> c) {
        if (!c.stack.suspend()) {
            return false;
        }
        c.checkExitRequested();
        return true;
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
            if (c instanceof AsymCoroutine<?, ?>) {
                unstarted--;
            }
            c.requestExit(); // reported as closed
            finishNested(c);
            return;
        }
        c.requestExit();
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
        closed += unstarted - unstartedStolen.getAndSet(0);
        unstarted = 0;
        closings++;
        if (first != null) {
            throw CoroutineSupport.<RuntimeException>sneaky(first);
        }
        return closed;
    }

    /** The unfinished coroutines of this thread other than the initial one: ring order, then started asymmetric ones. */
    private List<CoroutineBase> unfinished() {
        List<CoroutineBase> open = new ArrayList<>();
        for (Coroutine n = initial.next; n != initial; n = n.next) {
            Coroutine c = n instanceof StandIn s ? s.stolen : n;
            if (c.owner() == this && !c.isFinished()) {
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

    /** The frames of {@code c}, suspended, captured by its engine; taken meanwhile, so that no thief moves it. */
    CoroutineFrame[] serialize(CoroutineBase c) {
        checkSerializable(c, "serialize");
        if (c.stateBits() == NEW) {
            return new CoroutineFrame[0];
        }
        int prior = take(c, "serialize");
        CoroutineFrame[] frames;
        try {
            frames = c.stack.capture();
        } catch (IllegalArgumentException refused) {
            c.setStateBits(prior); // given back before the message, which shows its state
            throw new IllegalArgumentException("cannot serialize " + c + ": " + refused.getMessage(), refused);
        } catch (RuntimeException | Error broken) {
            giveBackCaptured(c, prior);
            throw broken;
        }
        giveBackCaptured(c, prior);
        Events.serialized(c, frames.length);
        return frames;
    }

    /** Gives back {@code c}, taken from {@code prior} to be captured; finished if capturing broke its stack. */
    private void giveBackCaptured(CoroutineBase c, int prior) {
        if (c.stack.isDone()) {
            finishNested(c);
        } else {
            c.setStateBits(prior);
        }
    }

    /** Rebuilds {@code c}'s stack from {@code frames}, once they are validated; it resumes there when next run. */
    void deserialize(CoroutineBase c, CoroutineFrame[] frames) {
        checkSerializable(c, "deserialize into");
        CoroutineFrame[] restored = FrameValidator.validatedCopy(c, frames);
        int prior = take(c, "deserialize into");
        try {
            c.stack.restore(restored);
        } catch (IllegalArgumentException refused) {
            c.setStateBits(prior);
            throw new IllegalArgumentException("cannot deserialize into " + c + ": " + refused.getMessage(), refused);
        } catch (RuntimeException | Error broken) {
            c.setStateBits(prior);
            throw broken;
        }
        if (restored.length > 0 && prior == NEW && c instanceof AsymCoroutine<?, ?> a) {
            unstarted--;
            started.add(a);
        }
        c.setStateBits(restored.length > 0 ? SUSPENDED : prior);
        Events.deserialized(c, restored.length);
    }

    /**
     * Throws unless {@code c} may be serialized or deserialized into from this thread now. The
     * state is read before the owner: a thief publishes the owner before the state, so a state
     * that another thread's run wrote is always seen together with that thread as owner, and
     * the race is reported as {@link WrongThreadException}, never as "running".
     */
    private void checkSerializable(CoroutineBase c, String operation) {
        if (c.isInitial()) {
            throw new IllegalArgumentException("cannot " + operation + " " + c
                    + ": a thread's initial coroutine is its thread's own stack");
        }
        int bits = c.stateBits();
        c.checkOwner(this, operation);
        if (c.isFinished()) { // FINISHED, or new and closed by closeAll
            throw new IllegalStateException("cannot " + operation + " " + c + ": it has finished");
        }
        switch (bits) {
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
            return WrongThread.exception("cannot " + operation + " " + c + " from thread " + thread.getName()
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
