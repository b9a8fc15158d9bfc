package dev.weft;

import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.engine.Engines;
import dev.weft.internal.engine.ExecutionStack;
import dev.weft.internal.frames.StackTraces;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What symmetric ({@link Coroutine}) and asymmetric ({@link AsymCoroutine}) coroutines share:
 * their life cycle, thread affinity, migration ({@link #steal()}) and closing.
 *
 * <h2>Thread affinity</h2>
 * A coroutine belongs to one thread at a time, its <em>owner</em>: the thread that created it,
 * or the last one that {@linkplain #steal() stole} it. Only the owner may run, switch to, call
 * or close it; doing so from another thread throws {@link WrongThreadException} (on JDK 17 and
 * 18, which lack it, an {@link IllegalStateException}) naming both threads. {@link #steal()}, {@link #isFinished()}, {@link #isAlive()}, {@link #getName()} and
 * {@link #toString()} may be called from any thread.
 *
 * <h2>Life cycle</h2>
 * A coroutine is <em>new</em> until it first runs, then <em>running</em> while its code
 * executes, <em>suspended</em> when it has passed control on with {@code yield}, {@code yieldTo}
 * or {@code ret}, and <em>finished</em> once its {@code run} method has returned or thrown. An
 * uncaught exception finishes the coroutine and is rethrown in the coroutine that receives
 * control: out of {@link AsymCoroutine#call} for an asymmetric one, out of the switch operation
 * of the coroutine that last switched to it for a symmetric one (see {@link Coroutine}).
 *
 * <h2>Closing</h2>
 * {@link #close()} finishes a suspended coroutine by throwing {@link CoroutineExitException} at
 * its suspension point, so that its {@code finally} blocks run. Java has no hook at the end of
 * a thread, so where the thesis drains a thread's coroutines when it ends, a Weft program calls
 * {@link #closeAll()} in a {@code finally} block at the end of the thread's work, or wraps that
 * work with {@link #draining(Runnable)}.
 *
 * <h2>Memory consistency</h2>
 * Everything a coroutine's code did before it suspended happens-before everything it does after
 * it resumes, on whichever thread: {@code steal} takes the coroutine by a compare-and-set on its
 * state, which the owner releases each time the coroutine suspends.
 *
 * <h2>Engines</h2>
 * Each coroutine runs on the {@link Engine} chosen when it is created: the one its constructor
 * names, else the default engine ({@link Engine#defaultEngine()}, {@link Engine#NATIVE} unless
 * the program chose another); {@link #engine()} tells which. Coroutines of both engines
 * share one ring per thread, call each other, migrate and serialize alike; their frames move
 * between the engines through {@link #serialize()} and {@link #deserialize}. What the woven
 * engine cannot unwind is refused when the suspension is attempted, with the coroutine left as
 * it was (see {@link Engine#WOVEN}).
 *
 * <h2>Exceptions' stack traces</h2>
 * An exception thrown in a coroutine's code reads as it would on a thread, on both engines, once
 * it has left the coroutine's frames that ran since it was last resumed: out of its body (to
 * {@link AsymCoroutine#call} or the switch that receives it), or, on the woven engine, into a
 * frame that was still saved. Its trace then holds every frame of the coroutine from the throw
 * out to its body, by their methods' own names and lines (the woven engine's twins,
 * {@code name$weft}, under their methods' names, and the frames it had not rebuilt yet at the
 * lines of their calls), then one line where the engine's own frames were, then the frames of
 * the code that resumed the coroutine:
 * <pre>
 * java.lang.IllegalStateException: thrown by inner
 *     at com.example.Parser.inner(Parser.java:40)
 *     at com.example.Parser.middle(Parser.java:35)
 *     at com.example.Parser.outer(Parser.java:30)
 *     at com.example.Parser.run(Parser.java:25)
 *     at dev.weft.&lt;coroutine boundary&gt;(Parser-1, resumed by the frame below)
 *     at com.example.Main.main(Main.java:12)
 * </pre>
 * Causes and suppressed exceptions are rewritten alike. The rewriting is done where the engine
 * catches what the frames throw, so code that throws nothing pays nothing. An exception caught
 * by the same frames that threw it, before it leaves them, keeps the trace the JVM gave it: on
 * the woven engine, the frames that ran only, twins' names included, down to the engine's. The
 * system property {@value #RAW_STACK_TRACES_PROPERTY}{@code =true} (read once, at the first
 * exception) keeps every trace as the JVM gave it.
 *
 * <h2>Hints</h2>
 * The {@code stackSize} and {@code sharedStack} constructor arguments are hints, as in the
 * thesis, and the native engine does not need them: the frames a running coroutine executes
 * live on its owner thread's stack (so that stack's size bounds how deep it can recurse without
 * suspending), and while it is suspended, its frames are kept in heap chunks sized to fit; on
 * resuming, HotSpot copies back only the topmost frames, and the rest as they are returned to. A negative
 * {@code stackSize} is refused; {@code sharedStack} may be null.
 */
public abstract sealed class CoroutineBase implements AutoCloseable permits Coroutine, AsymCoroutine {

    /**
     * The system property that, set to {@code true}, keeps exceptions' stack traces as the JVM
     * filled them: with the engines' frames, and the woven engine's twins and none of its saved
     * frames (see "Exceptions' stack traces" above).
     */
    public static final String RAW_STACK_TRACES_PROPERTY = "weft.rawStackTraces";

    /*
     * Implementation notes.
     *
     * The state word holds the life-cycle state in its low three bits, above them the bit that
     * close() sets to make the coroutine exit (EXIT_REQUESTED, never cleared; a field of its own
     * would make the coroutine 8 bytes larger, with the padding), and a migration epoch above
     * that. The owner thread takes a coroutine to run it by a CAS from NEW or SUSPENDED
     * to RUNNING, expecting the epoch it read together with the owner; steal() takes it by a
     * CAS to BUSY and bumps the epoch as it gives it back, so an owner that raced with a steal
     * fails its CAS instead of taking a coroutine that has moved (no ABA). Transitions out of
     * RUNNING and CALLING are plain releasing writes: only the owner's call chain is there, and
     * steal() never touches those states.
     *
     * State transitions:
     *   NEW       -> RUNNING   // first run, by the owner (CAS)
     *   SUSPENDED -> RUNNING   // resumed by the owner (CAS)
     *   RUNNING   -> SUSPENDED // passed control on; written once the stack is frozen
     *   RUNNING   -> CALLING   // called an asymmetric coroutine, which now runs on top of it
     *   CALLING   -> RUNNING   // the callee returned, suspended or finished
     *   RUNNING   -> FINISHED  // run() returned or threw
     *   NEW/SUSPENDED -> BUSY  // taken by steal() (any thread, CAS)
     *   BUSY      -> NEW/SUSPENDED // given back by steal(), owner changed, epoch + 1
     *   NEW       -> FINISHED  // closed before it ever ran
     */
    static final int NEW = 0;       // created, never ran
    static final int RUNNING = 1;   // its code is executing on its owner thread
    static final int CALLING = 2;   // running, but it has called an asymmetric coroutine
    static final int SUSPENDED = 3; // passed control on; frames are frozen
    static final int BUSY = 4;      // being migrated by steal()
    static final int FINISHED = 5;  // run() returned or threw; never runs again

    private static final int STATE_MASK = 0b111;
    /**
     * NEW and SUSPENDED, the states a coroutine is taken from, as one bit each. Tested as one
     * branch on purpose: the switch path is inlined into every coroutine's own frames, and a
     * branch that the JIT saw only one way while coroutines were starting (NEW) would trap in
     * each of their frames once they resume (SUSPENDED), leaving them all interpreted.
     */
    private static final int TAKEABLE = 1 << NEW | 1 << SUSPENDED;
    private static final int EXIT_REQUESTED = STATE_MASK + 1;
    private static final int EPOCH_UNIT = EXIT_REQUESTED << 1;
    private static final String[] STATE_NAMES = {"new", "running", "calling", "suspended", "busy", "finished"};

    private static final VarHandle STATE;
    private static final VarHandle NAME;
    /** The last number a default name took. */
    private static final AtomicLong NUMBERS = new AtomicLong();

    static {
        SharedAccess.setCoroutineAccess(new SchedulerAccess());
        try {
            STATE = MethodHandles.lookup().findVarHandle(CoroutineBase.class, "state", int.class);
            NAME = MethodHandles.lookup().findVarHandle(CoroutineBase.class, "name", String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state;
    private volatile CoroutineSupport owner;
    /**
     * Null until set or first asked for: a default name then takes the next number, so that a
     * coroutine that is never named holds no number (8 bytes in each of a million coroutines).
     */
    private volatile String name;

    /** The stack that runs this coroutine's body, of its engine; null for a thread's initial coroutine. */
    ExecutionStack stack;

    /**
     * Creates a coroutine of the current thread that will run on {@code engine}: the subclass's
     * constructor attaches its stack ({@link #attachStack}), which knows its engine (a field
     * here would be 8 more bytes in each of a million suspended coroutines, with the padding).
     */
    CoroutineBase(long stackSize, CoroutineBase sharedStack, Engine engine) {
        if (stackSize < 0) {
            throw new IllegalArgumentException("stackSize must not be negative: " + stackSize);
        }
        if (engine == null) {
            throw new NullPointerException("engine");
        }
        this.owner = CoroutineSupport.current();
    }

    /**
     * Creates the initial coroutine of {@code support}'s thread, which has no stack of its own,
     * or a stand-in in its ring (see {@code CoroutineSupport}): running from the start, so that
     * nothing ever takes it.
     */
    CoroutineBase(CoroutineSupport support, String name) {
        this.owner = support;
        this.name = name;
        this.stack = null;
        this.state = RUNNING;
    }

    /** Names this coroutine by its kind and the next number, unless a name was set meanwhile: the name it has then. */
    private String nameByDefault() {
        String type = getClass().getSimpleName();
        String named = (type.isEmpty() ? "Coroutine" : type) + "-" + NUMBERS.incrementAndGet();
        String witness = (String) NAME.compareAndExchange(this, (String) null, named);
        return witness != null ? witness : named;
    }

    /**
     * Gives this coroutine the stack of {@code engine} that runs its body; called by the
     * subclass's constructor once the body is known, with the engine its constructor was given.
     *
     * @throws IllegalArgumentException if the engine cannot run the body
     */
    final void attachStack(Engine engine) {
        stack = Engines.newStack(engine, this);
        Events.created(this);
    }

    /** Records how the user's code ended: a failure is kept for whoever receives control next. */
    final void recordEnd(Throwable t) {
        if (!(t instanceof CoroutineExitException) || !isExitRequested()) {
            keepFailure(t);
        }
    }

    /**
     * The user's code from its start: {@code run()} for a symmetric coroutine, {@code run(input)}
     * for an asymmetric one; what it returns (null for a symmetric one).
     */
    abstract Object runBody(Object input);

    /** The {@code Runnable} or {@code AsymRunnable} given at construction, or null. */
    abstract Object target();

    // ---------------------------------------------------------------- public contract

    /**
     * Whether this coroutine has finished: its {@code run} method returned or threw, or it was
     * closed. Any thread.
     *
     * @return true once it has finished; never false again after that
     */
    public boolean isFinished() {
        int bits = stateBits();
        return bits == FINISHED || bits == NEW && closedBeforeItRan();
    }

    /**
     * Whether this coroutine has not finished (the name of the 2010 paper). Any thread.
     *
     * @return {@code !isFinished()}
     */
    public boolean isAlive() {
        return !isFinished();
    }

    /**
     * This coroutine's name, used in every error message about it. Any thread.
     *
     * @return the name given by {@link #setName}, or else a default made of its kind and a number
     *         unique in the JVM, which it takes the first time its name is asked for (so numbers
     *         follow the order in which coroutines are first named, not created)
     */
    public final String getName() {
        String n = name;
        return n != null ? n : nameByDefault();
    }

    /**
     * Renames this coroutine. Any thread.
     *
     * @param name the new name, not null
     */
    public final void setName(String name) {
        if (name == null) {
            throw new NullPointerException("name");
        }
        this.name = name;
    }

    /**
     * The engine that runs this coroutine: chosen when it was created; a thread's initial coroutine's is {@link Engine#NATIVE}. Any thread.
     *
     * @return the engine it runs on
     */
    public final Engine engine() {
        ExecutionStack s = stack;
        return s == null ? Engine.NATIVE : s.engine();
    }

    /**
     * Whether this is a thread's initial coroutine, which stands for the thread's own stack.
     *
     * @return true for a thread's initial coroutine, false for every coroutine created by a constructor
     */
    public final boolean isInitial() {
        return stack == null;
    }

    /**
     * Where a coroutine is in its life cycle, as {@link #getState()} reads it (the thesis's
     * states, and the two transient ones that the scheduler's own operations take).
     */
    public enum State {
        /** Created and never run (or closed by {@link #closeAll()} before it ever ran: then {@link #FINISHED}). */
        NEW,
        /** Its code is executing on its owner thread. */
        RUNNING,
        /** Running, but it has called an asymmetric coroutine, which runs on top of it now. */
        CALLING,
        /** It has passed control on; its frames are kept until it is resumed. */
        SUSPENDED,
        /** Taken for a moment by another thread: being stolen, or having its stack read for a dump. */
        BUSY,
        /** Its {@code run} method returned or threw, or it was closed; it never runs again. */
        FINISHED
    }

    /**
     * This coroutine's state now; it may have changed by the time the caller looks, unless the
     * caller is its owner. Any thread.
     *
     * @return its state; a thread's initial coroutine is always {@link State#RUNNING}
     */
    public final State getState() {
        return isFinished() ? State.FINISHED : State.values()[stateBits()];
    }

    /**
     * This coroutine's stack, innermost frame first, as {@link Thread#getStackTrace()} gives a
     * thread's: its own methods (by the names its source gives them, on both engines) with the
     * source file and line of each frame's call in progress, from the frame that made the
     * suspending call ({@code yield}, {@code yieldTo}, {@code ret}, or the call of a method
     * that did) out to its body's {@code run} (or the lambda's body). Weft's own frames are
     * left out: the suspension operation above, the engine below. Any thread.
     *
     * <ul>
     *   <li>Suspended: its saved frames, read without resuming it. On the {@linkplain
     *       Engine#WOVEN woven engine}, each line is the one the weaver recorded for the
     *       frame's suspension site (none, -1, where the class was compiled without line
     *       numbers); on the {@linkplain Engine#NATIVE native engine}, the continuation's
     *       frames. The coroutine is held {@linkplain State#BUSY busy} while they are read,
     *       as a steal holds it: its owner waits to resume it until then.</li>
     *   <li>Running innermost on the current thread (the caller is its code): the frames
     *       from the caller out to its body, as far as they are on the thread's stack (the
     *       woven engine rebuilds outer frames only as the inner ones return).</li>
     *   <li>New, finished, running on another thread or calling another coroutine, busy, or a
     *       thread's initial coroutine: an empty array.</li>
     * </ul>
     *
     * @return its frames, innermost first; a new array, which the caller may change
     */
    public final StackTraceElement[] getStackTrace() {
        if (isInitial()) {
            return StackTraces.none();
        }
        while (true) {
            int seen = state;
            int bits = seen & STATE_MASK;
            if (bits == SUSPENDED) {
                if (STATE.compareAndSet(this, seen, (seen & ~STATE_MASK) | BUSY)) {
                    try {
                        return stack.suspendedStackTrace();
                    } finally {
                        STATE.setRelease(this, seen); // as it was: owner and epoch unchanged
                    }
                }
            } else if (bits == RUNNING && owner.thread == Thread.currentThread() && owner.isRunning(this)) {
                return StackTraces.live();
            } else {
                return StackTraces.none();
            }
        }
    }

    /**
     * Moves this suspended coroutine to the current thread (thesis 3.2.3). A stolen symmetric
     * coroutine joins the current thread's ring as the next one to run. Any thread; never
     * blocks.
     *
     * <p>Frames that hold monitors move with the coroutine on JDK 24 and newer: the monitors
     * stay held while it is suspended, and belong to the thread that runs it. (On older JDKs
     * a coroutine cannot suspend while it holds one, so there is nothing to refuse here.)
     *
     * <p>A caveat of HotSpot's: its JIT compilers treat {@code Thread.currentThread()} as fixed
     * within a compiled method, so a method that was suspended on one thread and resumes on
     * another may go on seeing the first thread (and its {@code ThreadLocal}s) until it returns.
     * Weft's own bookkeeping never relies on that; code that moves between threads should pass
     * thread-bound state explicitly rather than look it up again after a suspension.
     *
     * @return true if the coroutine now belongs to the current thread; false if it is busy:
     *         running, calling another, being switched to by its thread or stolen by another
     * @throws IllegalArgumentException if it already belongs to the current thread, is a
     *         thread's initial coroutine, or is an asymmetric coroutine in the middle of
     *         calling another
     * @throws IllegalStateException if it has finished
     */
    public final boolean steal() {
        CoroutineSupport here = CoroutineSupport.current();
        if (isInitial()) {
            throw new IllegalArgumentException("cannot steal " + this
                    + ": a thread's initial coroutine never leaves its thread");
        }
        int seen = state;
        int bits = seen & STATE_MASK;
        if (owner == here) {
            throw new IllegalArgumentException("cannot steal " + this + ": it already belongs to thread "
                    + here.thread.getName());
        }
        if (bits == FINISHED || bits == NEW && closedBeforeItRan()) {
            throw new IllegalStateException("cannot steal " + this + ": it has finished");
        }
        if (bits == CALLING && this instanceof AsymCoroutine) {
            throw new IllegalArgumentException("cannot steal " + this
                    + ": it is in the middle of calling another coroutine");
        }
        if (!isTakeable(bits) || !STATE.compareAndSet(this, seen, (seen & ~STATE_MASK) | BUSY)) {
            return false;
        }
        CoroutineSupport previous = owner;
        owner = here;
        if (bits == NEW && this instanceof AsymCoroutine) { // only those are counted by closeAll
            previous.unstartedLeft();
        }
        here.adopt(this, bits == SUSPENDED);
        STATE.setRelease(this, (seen & ~STATE_MASK) + EPOCH_UNIT | bits);
        Events.stolen(this, previous.thread);
        return true;
    }

    /**
     * Finishes this coroutine, running its {@code finally} blocks: a suspended coroutine is
     * resumed with {@link CoroutineExitException} thrown at its suspension point, and every
     * further attempt to suspend it throws that exception again, until it finishes. A new
     * coroutine is finished without running; a finished one is left as it is. Control returns
     * here, to the closer, when it has finished. Confined to the owner thread.
     *
     * @throws IllegalStateException if it is running or calling (it is on the current call chain),
     *         or if it is the thread's initial coroutine
     * @throws WrongThreadException if it belongs to another thread
     * @throws RuntimeException or {@link Error}: whatever its code threw while it was exiting,
     *         other than the {@code CoroutineExitException}; it has finished all the same
     */
    @Override
    public final void close() {
        CoroutineSupport support = CoroutineSupport.current();
        checkOwner(support, "close");
        if (isInitial()) {
            throw new IllegalStateException("cannot close " + this + ": it is its thread's own stack");
        }
        support.close(this);
    }

    /**
     * Closes every unfinished coroutine of the current thread, as the thesis does when a thread
     * ends: symmetric ones in ring order, then asymmetric ones, again until none is left (a
     * {@code finally} block may create new ones). Call it from the thread's initial coroutine,
     * typically in a {@code finally} block at the end of the thread's work.
     *
     * <p>An asymmetric coroutine that was never called finishes too, without running. Nothing
     * tracks it until it first runs, so that creating one costs no more than the object and an
     * abandoned one is collected; so it is counted by number, whether or not the program still
     * refers to it.
     *
     * <p>If closing some coroutines throws, the others are still closed, and the first exception
     * is thrown at the end with the later ones {@linkplain Throwable#addSuppressed suppressed}.
     *
     * @return how many coroutines were closed
     * @throws IllegalStateException if called from inside a coroutine
     */
    public static int closeAll() {
        return CoroutineSupport.current().closeAll();
    }

    /**
     * Wraps {@code work} so that it closes all coroutines its thread still has when it ends,
     * however it ends: {@code new Thread(CoroutineBase.draining(work))}, or a task given to an
     * executor (whose thread's coroutines it then closes).
     *
     * @param work what the thread does, not null
     * @return {@code work}, followed by {@link #closeAll()} however {@code work} ends
     */
    public static Runnable draining(Runnable work) {
        if (work == null) {
            throw new NullPointerException("work");
        }
        return () -> {
            try {
                work.run();
            } finally {
                closeAll();
            }
        };
    }

    /**
     * The frames of this suspended coroutine (thesis 3.2.4.1), outermost first: its state, as
     * values that Java serialization or the application can store. The coroutine stays as it
     * was and may be resumed, serialized again or migrated. Its code must have been woven by
     * {@code weft-weaver}. A new coroutine has no frames: the array is empty. Confined to the
     * owner thread.
     *
     * <p>The frames reference the same objects as the coroutine's stack (thesis figure 3.9).
     * On the {@linkplain Engine#WOVEN woven engine}, they are read from where the coroutine
     * saved them when it suspended, without resuming it. A bridge method that javac adds (for an
     * override of a generic method, such as {@code run(Integer)} for {@code run(I)}, or with a
     * covariant return) has no frame on either engine: the frame of the method it calls stands
     * in its place, so the same state reads the same on both.
     *
     * @return its frames, outermost first; empty for a coroutine that has not started
     * @throws IllegalArgumentException naming the class and method, if a frame is not woven, may
     *         hold a monitor, or cannot be captured for another reason; if this is a thread's
     *         initial coroutine; if it is running, or an asymmetric coroutine in the middle of
     *         calling another. The coroutine is untouched.
     * @throws IllegalStateException if it has finished
     * @throws WrongThreadException if it belongs to another thread
     */
    public final CoroutineFrame[] serialize() {
        CoroutineSupport support = CoroutineSupport.current();
        checkOwner(support, "serialize");
        return support.serialize(this);
    }

    /**
     * Replaces this coroutine's stack by {@code frames} (thesis 3.2.4.2), as {@link #serialize()}
     * returned them, possibly in another process. The next time it is resumed, it continues
     * where those frames were suspended. Every frame is checked against the weaver's record of
     * its method first: the method must exist and be woven, {@code bci} must be one of its
     * suspension sites, each slot's kind and type must fit (ints within the width the code gives
     * them, no null where the code never has one, {@code this} and receivers non-null), each
     * frame must be suspended in a call that reaches exactly the next one's method on that
     * frame's {@code this}, as the JVM selects it for the saved receiver (through a lambda: its
     * implementation method, on the native engine only), and the innermost frame in this
     * coroutine's own suspension operation. The frames are copied as they are checked, and the
     * copy is what the coroutine continues from: changing {@code frames} or their arrays
     * afterwards changes nothing of it.
     *
     * <p><b>The body comes from the frames.</b> On both engines, the coroutine resumes by calling
     * the outermost frame's method on that frame's {@code this} (none for a static method), not
     * by running the body it was created with: frames may go into a coroutine with no body, such
     * as {@code new AsymCoroutine<>()} (thesis 5.2), or with another body, and run the code
     * they name; the coroutine's own body runs only when it is given no frames. The woven
     * engine runs a frame through its method's twin, which the weaver adds to class files of
     * Java 7 and later: frames of older class files are refused there, naming the frame, and go
     * into a coroutine of the native engine. Confined to the owner thread.
     *
     * @param frames the frames to continue from, outermost first, as {@link #serialize()} returned them; an empty array leaves a new coroutine as it is
     * @throws IllegalArgumentException saying which frame and slot do not fit, or if this is a
     *         thread's initial coroutine or is running; the coroutine is untouched
     * @throws IllegalStateException if it has finished
     * @throws WrongThreadException if it belongs to another thread
     */
    public final void deserialize(CoroutineFrame[] frames) {
        CoroutineSupport support = CoroutineSupport.current();
        checkOwner(support, "deserialize");
        support.deserialize(this, frames);
    }

    @Override
    public String toString() {
        return getName() + " [" + STATE_NAMES[stateBits()] + ", thread " + owner.thread.getName() + "]";
    }

    // ---------------------------------------------------------------- for the package

    final CoroutineSupport owner() {
        return owner;
    }

    final int stateBits() {
        return state & STATE_MASK;
    }

    /**
     * Owner thread, while no steal can interfere (the state is RUNNING, CALLING or taken). A
     * releasing store, not a full fence: a thief's CAS acquires it, which is all it must see.
     */
    final void setStateBits(int bits) {
        STATE.setRelease(this, (state & ~STATE_MASK) | bits);
    }

    /** What {@link #tryTake} reports for a coroutine that finished or belongs to another thread. */
    static final int GONE = -1;
    /** What {@link #tryTake} reports for a coroutine of the thread that is running or calling. */
    static final int ON_CALL_CHAIN = -2;

    /**
     * Takes this coroutine to run it on {@code support}'s thread: NEW or SUSPENDED to RUNNING.
     * Waits out a steal in progress.
     *
     * @return the state it was taken from, or {@link #GONE} or {@link #ON_CALL_CHAIN}
     */
    final int tryTake(CoroutineSupport support) {
        while (true) {
            int seen = state;
            int bits = seen & STATE_MASK;
            if (bits == BUSY) {
                Thread.onSpinWait();
                continue;
            }
            if (owner != support || bits == FINISHED) {
                return GONE;
            }
            if (!isTakeable(bits)) {
                return ON_CALL_CHAIN;
            }
            if (STATE.compareAndSet(this, seen, (seen & ~STATE_MASK) | RUNNING)) {
                Events.taken(this, bits);
                return bits;
            }
        }
    }

    private static boolean isTakeable(int bits) {
        return (TAKEABLE >>> bits & 1) != 0;
    }

    /** Throws {@link WrongThreadException} unless {@code support} (the current thread's) owns this. */
    final void checkOwner(CoroutineSupport support, String operation) {
        CoroutineSupport o = owner;
        if (o != support) {
            throw WrongThread.exception("cannot " + operation + " " + this + " from thread "
                    + support.thread.getName() + ": it belongs to thread " + o.thread.getName());
        }
    }

    /** Publishes this coroutine as finished, and reports how it ended. Owner thread, before its failure is taken. */
    final void markFinished() {
        setStateBits(FINISHED);
        Events.finished(this, keptFailure());
    }

    /** The failure this coroutine finished with, if one is kept, left kept. */
    abstract Throwable keptFailure();

    /** Keeps {@code t}, the uncaught exception that finished this coroutine, until it is handed to its receiver. */
    abstract void keepFailure(Throwable t);

    /** The failure this coroutine finished with, forgotten here, or null if none is kept. */
    abstract Throwable takeFailure();

    /** Throws the failure this coroutine finished with, if any, and forgets it. */
    final void rethrowFailure() {
        Throwable f = takeFailure();
        if (f != null) {
            throw CoroutineSupport.<RuntimeException>sneaky(f);
        }
    }

    /** Makes every suspension attempt of this coroutine throw {@link CoroutineExitException}; for {@link #close()}. */
    final void requestExit() {
        STATE.getAndBitwiseOr(this, EXIT_REQUESTED);
    }

    /**
     * Whether {@link #close()} has asked this coroutine to exit: a plain read, as of the field it
     * replaces (the request is made on the thread that then runs the coroutine, and a steal
     * publishes the whole word).
     */
    final boolean isExitRequested() {
        return ((int) STATE.get(this) & EXIT_REQUESTED) != 0;
    }

    /**
     * Whether {@link #closeAll()} closed this new coroutine without its being tracked: an
     * asymmetric coroutine that was never called. Such a coroutine is finished, though its
     * state still reads NEW, and its body never starts.
     */
    boolean closedBeforeItRan() {
        return false;
    }

    /** Refuses to run this coroutine if it {@link #closedBeforeItRan()}. */
    final void checkNotClosedBeforeItRan() {
        if (closedBeforeItRan()) {
            throw new IllegalStateException("cannot run " + this + ": closeAll() closed it before it was ever called");
        }
    }

    /** Called on this coroutine's stack right after it resumes from a suspension. */
    final void checkExitRequested() {
        if (isExitRequested()) {
            throw new CoroutineExitException(this);
        }
    }
}
