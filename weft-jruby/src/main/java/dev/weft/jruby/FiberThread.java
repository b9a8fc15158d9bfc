package dev.weft.jruby;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyThread;
import org.jruby.exceptions.RaiseException;
import org.jruby.internal.runtime.ThreadService;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;

/**
 * The Weft fibers of one Ruby thread: its root fiber, the fiber running now, and the value (or
 * exception) in flight between two fibers. Confined to the thread: every method runs on it.
 */
final class FiberThread {

    /*
     * Implementation notes.
     *
     * Every fiber but the root is an AsymCoroutine, and only the root ever calls one: a switch
     * from fiber A to fiber B leaves B's name in `next` and the value in the passing fields, and
     * A rets; the trampoline (runFromRoot, on the thread's own stack, inside the root's
     * resume or transfer) then calls B. So each switch is one ret and one call, the
     * same freeze and thaw a Weft symmetric yieldTo costs (it trampolines through the thread's
     * initial coroutine in the same way), and no fiber's frames ever sit on top of another's: a
     * chain of resumes of any depth runs from the root's stack one fiber at a time. Weft
     * refuses yieldTo inside asymmetric coroutines, and Ruby mixes resume/yield with transfer,
     * so the trampoline is also what makes transfer possible on AsymCoroutine; AsymCoroutine
     * rather than Coroutine because a thread's ring holds its symmetric coroutines strongly,
     * while started asymmetric ones are held weakly, so that a fiber abandoned unfinished is
     * collected with its stack.
     *
     * The passing fields are MRI's make_passing_arg spread out, so that a hop allocates
     * nothing: argc 0 is nil, 1 is arg0 itself, more is argv as an Array; a fiber's first
     * resume gives them to its block as its arguments instead.
     */

    private static final ThreadLocal<FiberThread> CURRENT = new ThreadLocal<>();

    /**
     * ThreadContext's {@code thread}, written directly: its setter also repoints the Ruby thread
     * at the context, with a new WeakReference each time, which a switch should not pay for.
     * (Both are classes of unnamed modules, so the lookup needs no option.) The Ruby thread's
     * own {@code getContext()} stays the root's context.
     */
    private static final VarHandle CONTEXT_THREAD;

    static {
        try {
            CONTEXT_THREAD = MethodHandles.privateLookupIn(ThreadContext.class, MethodHandles.lookup())
                    .findVarHandle(ThreadContext.class, "thread", RubyThread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Ruby runtime;
    final RubyThread rubyThread;
    final Thread javaThread;
    private final ThreadService threads;
    final WeftFiber root;
    /** What this thread's ThreadService holds while it has Weft fibers: see {@link CurrentContext}. */
    private final CurrentContext currentContext;

    /** The fiber whose code runs now. */
    WeftFiber current;

    /** The fiber control passes to next; null when no switch is under way. */
    private WeftFiber next;
    private int argc;
    private IRubyObject arg0;
    private IRubyObject[] argv;
    /** Raised in the receiver instead of a value: the exception that finished a fiber, or Fiber#raise's. */
    private Throwable error;

    private FiberThread(ThreadContext rootContext) {
        this.runtime = rootContext.runtime;
        this.rubyThread = rootContext.getThread();
        this.javaThread = Thread.currentThread();
        this.threads = runtime.getThreadService();
        this.root = WeftFiber.newRoot(this, rootContext, WeftFiberLibrary.fiberClass(rootContext));
        this.current = root;
        this.currentContext = new CurrentContext(this, rootContext);
        threads.set(currentContext);
    }

    /**
     * The reference JRuby's {@link ThreadService} (a {@code ThreadLocal<SoftReference<ThreadContext>>})
     * holds for a thread with Weft fibers: its {@code get()} is the running fiber's context, so
     * that a switch changes what {@code runtime.getCurrentContext()} gives by setting
     * {@link #current}, not by a thread-local write per switch. Its referent is the root's
     * context, which the Ruby thread holds strongly, so the collector never clears it. Confined
     * to the thread, like the thread-local it sits in.
     */
    static final class CurrentContext extends SoftReference<ThreadContext> {
        private final FiberThread home;

        CurrentContext(FiberThread home, ThreadContext rootContext) {
            super(rootContext);
            this.home = home;
        }

        @Override
        public ThreadContext get() {
            return home.current.context();
        }
    }

    /**
     * The Weft fibers of the thread that runs {@code context}, created with its root fiber the
     * first time. {@code context} is the root's context or one of its fibers' (they share its
     * Ruby thread).
     */
    static FiberThread of(ThreadContext context) {
        FiberThread home = CURRENT.get();
        if (home == null || home.runtime != context.runtime || home.rubyThread != context.getThread()) {
            home = new FiberThread(context);
            CURRENT.set(home);
        }
        return home;
    }

    /**
     * Makes {@code fiber} the running one: its context is then the one JRuby's thread-local
     * lookups ({@code runtime.getCurrentContext()}, through {@link CurrentContext}) give, and it
     * names the Ruby thread.
     */
    void enter(WeftFiber fiber) {
        current = fiber;
        fiber.status = WeftFiber.RESUMED;
        CONTEXT_THREAD.set(fiber.context(), rubyThread);
    }

    /** Puts {@link CurrentContext} back in JRuby's thread-local if something replaced it. */
    private void holdCurrentContext() {
        if (threads.get() != currentContext) {
            threads.set(currentContext);
        }
    }

    /**
     * Detaches a fiber that passed control on from the Ruby thread. A context that is collected
     * disposes of its thread (ThreadContext's finalizer), which would kill this one; so only the
     * running fiber's context names the thread, and an abandoned fiber's is left with none.
     * The root's context keeps it: it lives as long as the thread.
     */
    private void leave(WeftFiber fiber) {
        if (fiber != root) {
            CONTEXT_THREAD.set(fiber.context(), (RubyThread) null);
        }
    }

    // ---------------------------------------------------------------- the value in flight

    /** Leaves {@code args} (MRI's argc and argv) for {@code to}. */
    void pass(WeftFiber to, int count, IRubyObject first, IRubyObject[] all) {
        next = to;
        argc = count;
        arg0 = first;
        argv = all;
        error = null;
    }

    /** Leaves {@code exception} for {@code to}, to be raised there. */
    void passError(WeftFiber to, Throwable exception) {
        next = to;
        argc = 0;
        arg0 = null;
        argv = null;
        error = exception;
    }

    /** Forgets a switch that was refused before it happened. */
    void cancelPass() {
        next = null;
        arg0 = null;
        argv = null;
        error = null;
    }

    /** What the receiving fiber's resume, transfer or yield returns: nil, the value, or an Array; or raises. */
    IRubyObject receive() {
        Throwable e = error;
        IRubyObject first = arg0;
        IRubyObject[] all = argv;
        int count = argc;
        next = null;
        arg0 = null;
        argv = null;
        error = null;
        if (e != null) {
            throw WeftFiber.<RuntimeException>sneaky(e);
        }
        return switch (count) {
            case 0 -> runtime.getNil();
            case 1 -> first;
            default -> RubyArray.newArrayMayCopy(runtime, all);
        };
    }

    /** Calls a fiber's block, on its first run, with the values in flight as its arguments. */
    IRubyObject callBlock(Block block, ThreadContext context) {
        IRubyObject first = arg0;
        IRubyObject[] all = argv;
        int count = argc;
        next = null;
        arg0 = null;
        argv = null;
        assert error == null : "a fiber's first run received an exception";
        return switch (count) {
            case 0 -> block.call(context);
            case 1 -> block.call(context, first);
            default -> block.call(context, all);
        };
    }

    // ---------------------------------------------------------------- the trampoline

    /**
     * Runs fibers, on the root's stack, until one passes control back to the root; the root has
     * left the first one's name in {@code next}. Root only.
     */
    void runFromRoot() {
        assert current == root : "the trampoline runs in the root fiber only, not in " + current;
        holdCurrentContext();
        WeftFiber target;
        try {
            while ((target = next) != root) {
                enter(target);
                try {
                    target.coroutine().call(null);
                } catch (RuntimeException | Error lost) {
                    // the fiber's own code never throws out of call (it catches all), so this is
                    // Weft refusing the call: the fiber is unusable, and its resumer hears why
                    target.status = WeftFiber.TERMINATED;
                    passError(root, lost instanceof RaiseException ? lost
                            : runtime.newFiberError("cannot switch to "
                                    + target.inspectText(runtime.getCurrentContext()) + ": " + lost));
                } finally {
                    leave(target);
                }
            }
        } finally {
            enter(root);
        }
    }
}
