package dev.weft.jruby;

import dev.weft.AsymCoroutine;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyException;
import org.jruby.RubyObject;
import org.jruby.RubyThread;
import org.jruby.anno.JRubyMethod;
import org.jruby.exceptions.JumpException;
import org.jruby.ir.operands.IRException;
import org.jruby.ir.runtime.IRBreakJump;
import org.jruby.ir.runtime.IRReturnJump;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.Visibility;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * Ruby's {@code Fiber} on Weft coroutines: the class that {@code require 'weft/fiber'} installs
 * as {@code ::Fiber} (and as {@code Weft::Fiber}).
 *
 * <pre>{@code
 * require 'weft/fiber'
 * f = Fiber.new { |x| y = Fiber.yield(x * 2); y + 1 }
 * f.resume(20)   # => 40
 * f.resume(1)    # => 2
 * f.alive?       # => false
 * }</pre>
 *
 * <p>It has MRI's semantics (cont.c, Ruby 3.x): {@code resume}, {@code Fiber.yield},
 * {@code transfer}, {@code raise}, {@code alive?}, {@code Fiber.current}; values pass as MRI
 * passes them (no value is nil, one is itself, more are an Array; a fiber's first resume passes
 * them to its block as arguments); an exception that finishes a fiber is raised in the fiber
 * control returns to (its resumer, or for a fiber that was transferred to, the innermost fiber
 * of the root's chain of resumes); and misuse raises {@code FiberError} with MRI's messages.
 * {@code Enumerator#next} uses it too: JRuby's Enumerator looks up {@code ::Fiber} by name.
 *
 * <p>Each fiber has its own JRuby {@link ThreadContext} (frames, scopes, backtrace and catch
 * tags live there), as the 2011 coroutine fibers of JRuby had; it shares its thread's
 * {@link RubyThread}, so {@code Thread.current}, {@code $!} and {@code Thread#[]} are the
 * thread's in every fiber of it (in MRI, {@code Thread#[]} is per fiber).
 *
 * <p>Threading: a fiber belongs to the Ruby thread that created it; switching to it from another
 * thread raises {@code FiberError} ("fiber called across threads"). A fiber that is never
 * finished and no longer referenced is collected with its stack; its {@code ensure} blocks do
 * not run (nor do they in MRI).
 */
public final class WeftFiber extends RubyObject {

    /*
     * Implementation notes.
     *
     * The bookkeeping is MRI's: `prev` is the fiber that resumed this one (its resumer, while
     * this one runs on its behalf), `resumingFiber` the fiber this one is resuming, and
     * `yielding` says this one is suspended in Fiber.yield, so that only a resume, never a
     * transfer, may continue it. A fiber whose block ends returns control to its `prev`, or,
     * if it was transferred to, to the innermost fiber of the root's resuming chain. The
     * switching itself is FiberThread's trampoline.
     *
     * State transitions:
     *   CREATED   -> RESUMED     // first resume or transfer
     *   RESUMED   -> SUSPENDED   // it resumed, transferred to or yielded to another fiber
     *   SUSPENDED -> RESUMED     // control came back to it
     *   RESUMED   -> TERMINATED  // its block returned or raised
     *   CREATED   -> TERMINATED  // finalized (Enumerator#rewind) before it ever ran
     *   SUSPENDED -> TERMINATED  // finalized while suspended: never resumed again
     */
    static final int CREATED = 0;     // made, its block not yet started
    static final int RESUMED = 1;     // its code runs now
    static final int SUSPENDED = 2;   // passed control to another fiber
    static final int TERMINATED = 3;  // its block ended, or it was finalized
    private static final String[] STATUS_NAMES = {"created", "resumed", "suspended", "terminated"};

    // transient: a fiber's state is its running stack, which Java serialization cannot carry
    private transient FiberThread home;
    private transient boolean root;
    /** Its own context; the root's is the thread's. */
    private transient ThreadContext fiberContext;
    private transient Block block;
    private transient FiberCoroutine coroutine;

    transient int status;
    private transient WeftFiber prev;
    private transient WeftFiber resumingFiber;
    private transient boolean yielding;

    WeftFiber(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    static WeftFiber newRoot(FiberThread home, ThreadContext rootContext, RubyClass type) {
        WeftFiber root = new WeftFiber(rootContext.runtime, type);
        root.home = home;
        root.root = true;
        root.fiberContext = rootContext;
        root.status = RESUMED;
        return root;
    }

    // ---------------------------------------------------------------- Ruby methods

    /**
     * {@code Fiber.new { ... }}: the block is the fiber's body, started by its first resume or transfer.
     *
     * @param context the calling thread's context
     * @param block the body
     * @return this fiber
     */
    @JRubyMethod(visibility = Visibility.PRIVATE)
    public IRubyObject initialize(ThreadContext context, Block block) {
        if (!block.isGiven()) {
            throw context.runtime.newArgumentError("tried to create Proc object without block");
        }
        if (home != null) {
            throw context.runtime.newFiberError("already initialized fiber");
        }
        Ruby runtime = context.runtime;
        home = FiberThread.of(context);
        this.block = block.type == Block.Type.NORMAL ? block.cloneBlockAsType(Block.Type.PROC) : block;
        fiberContext = ThreadContext.newContext(runtime); // its thread is set while it runs (FiberThread.enter)
        fiberContext.useRecursionGuardsFrom(home.root.fiberContext);
        coroutine = new FiberCoroutine(this);
        status = CREATED;
        return context.nil;
    }

    /**
     * {@code Fiber.new(blocking: ..., storage: ...)}: the options are accepted and ignored.
     *
     * @param context the calling thread's context
     * @param options the keyword options
     * @param block the body
     * @return this fiber
     */
    @JRubyMethod(visibility = Visibility.PRIVATE)
    public IRubyObject initialize(ThreadContext context, IRubyObject options, Block block) {
        return initialize(context, block);
    }

    /**
     * {@code Fiber#resume} with no value.
     *
     * @param context the calling thread's context
     * @return what the fiber passes back: to {@code Fiber.yield}, or its block's value
     */
    @JRubyMethod
    public IRubyObject resume(ThreadContext context) {
        return resume(context, 0, null, null);
    }

    /**
     * {@code Fiber#resume(value)}.
     *
     * @param context the calling thread's context
     * @param value what {@code Fiber.yield} returns in the fiber, or its block's argument
     * @return what the fiber passes back
     */
    @JRubyMethod
    public IRubyObject resume(ThreadContext context, IRubyObject value) {
        return resume(context, 1, value, null);
    }

    /**
     * {@code Fiber#resume(a, b, ...)}: more than one value arrive as an Array.
     *
     * @param context the calling thread's context
     * @param values the values passed
     * @return what the fiber passes back
     */
    @JRubyMethod(rest = true)
    public IRubyObject resume(ThreadContext context, IRubyObject[] values) {
        return resume(context, values.length, values.length == 1 ? values[0] : null, values);
    }

    /**
     * {@code Fiber#transfer} with no value: control goes to this fiber, with no resumer to return to.
     *
     * @param context the calling thread's context
     * @return what is transferred back to the calling fiber later
     */
    @JRubyMethod
    public IRubyObject transfer(ThreadContext context) {
        return transfer(context, 0, null, null);
    }

    /**
     * {@code Fiber#transfer(value)}.
     *
     * @param context the calling thread's context
     * @param value what the fiber receives
     * @return what is transferred back later
     */
    @JRubyMethod
    public IRubyObject transfer(ThreadContext context, IRubyObject value) {
        return transfer(context, 1, value, null);
    }

    /**
     * {@code Fiber#transfer(a, b, ...)}.
     *
     * @param context the calling thread's context
     * @param values the values passed, as an Array
     * @return what is transferred back later
     */
    @JRubyMethod(rest = true)
    public IRubyObject transfer(ThreadContext context, IRubyObject[] values) {
        return transfer(context, values.length, values.length == 1 ? values[0] : null, values);
    }

    /**
     * {@code Fiber.yield} with no value: back to the fiber's resumer.
     *
     * @param context the calling thread's context
     * @param self the Fiber class
     * @return the value of the next resume
     */
    @JRubyMethod(name = "yield", meta = true)
    public static IRubyObject fiberYield(ThreadContext context, IRubyObject self) {
        return yieldToReturnFiber(context, 0, null, null);
    }

    /**
     * {@code Fiber.yield(value)}.
     *
     * @param context the calling thread's context
     * @param self the Fiber class
     * @param value what the resumer's resume returns
     * @return the value of the next resume
     */
    @JRubyMethod(name = "yield", meta = true)
    public static IRubyObject fiberYield(ThreadContext context, IRubyObject self, IRubyObject value) {
        return yieldToReturnFiber(context, 1, value, null);
    }

    /**
     * {@code Fiber.yield(a, b, ...)}.
     *
     * @param context the calling thread's context
     * @param self the Fiber class
     * @param values the values, passed as an Array
     * @return the value of the next resume
     */
    @JRubyMethod(name = "yield", meta = true, rest = true)
    public static IRubyObject fiberYield(ThreadContext context, IRubyObject self, IRubyObject[] values) {
        return yieldToReturnFiber(context, values.length, values.length == 1 ? values[0] : null, values);
    }

    /**
     * MRI's fiber_raise: raises an exception (Kernel#raise's arguments) in this fiber, where it is suspended.
     *
     * @param context the calling thread's context
     * @param args Kernel#raise's arguments
     * @return what the fiber passes back, if it rescues the exception
     */
    @JRubyMethod(optional = 3, checkArity = false)
    public IRubyObject raise(ThreadContext context, IRubyObject[] args) {
        IRubyObject exception = RubyThread.prepareRaiseException(context, args);
        RuntimeException raised = ((RubyException) exception).toThrowable();
        if (resumingFiber != null) {
            throw context.runtime.newFiberError("attempt to raise a resuming fiber");
        }
        if (status == CREATED) {
            throw context.runtime.newFiberError("cannot raise exception on unborn fiber");
        }
        FiberThread home = homeFor(context);
        if (status == SUSPENDED && !yielding) {
            checkTransfer(context);
            return home.current.switchTo(this, false, false, 0, null, null, raised);
        }
        checkResume(context, home);
        return home.current.switchTo(this, true, false, 0, null, null, raised);
    }

    /**
     * {@code Fiber#alive?}: false once its block has ended.
     *
     * @param context the calling thread's context
     * @return true or false
     */
    @JRubyMethod(name = "alive?")
    public IRubyObject alive_p(ThreadContext context) {
        return context.runtime.newBoolean(status != TERMINATED);
    }

    /**
     * {@code Fiber.current}: the fiber running, the thread's root fiber outside any.
     *
     * @param context the calling thread's context
     * @param self the Fiber class
     * @return the current fiber
     */
    @JRubyMethod(meta = true)
    public static IRubyObject current(ThreadContext context, IRubyObject self) {
        return FiberThread.of(context).current;
    }

    /**
     * As JRuby's fibers have it, for Enumerator#rewind: this fiber is never resumed again, and is left to the collector.
     *
     * @param context the calling thread's context
     * @return nil
     */
    @JRubyMethod(name = "__finalize__", visibility = Visibility.PRIVATE)
    public IRubyObject finalize_fiber(ThreadContext context) {
        if (!root && (status == CREATED || status == SUSPENDED) && resumingFiber == null) {
            status = TERMINATED;
            dropStack();
        }
        return context.nil;
    }

    /**
     * {@code Fiber#inspect}: the class, an address and the status, as MRI prints them.
     *
     * @param context the calling thread's context
     * @return the text
     */
    @JRubyMethod(name = {"inspect", "to_s"})
    public IRubyObject inspect(ThreadContext context) {
        return context.runtime.newString(inspectText(context));
    }

    String inspectText(ThreadContext context) {
        return "#<" + getMetaClass().getRealClass().getName(context) + ":0x" + Integer.toHexString(System.identityHashCode(this))
                + " (" + STATUS_NAMES[status] + ")>";
    }

    // ---------------------------------------------------------------- switching (MRI's cont.c)

    /** MRI's fiber_resume_kw. */
    private IRubyObject resume(ThreadContext context, int argc, IRubyObject arg0, IRubyObject[] argv) {
        FiberThread home = homeFor(context);
        checkResume(context, home);
        return home.current.switchTo(this, true, false, argc, arg0, argv, null);
    }

    private void checkResume(ThreadContext context, FiberThread home) {
        Ruby runtime = context.runtime;
        if (status == TERMINATED) {
            throw runtime.newFiberError("attempt to resume a terminated fiber");
        }
        if (this == home.current) {
            throw runtime.newFiberError("attempt to resume the current fiber");
        }
        if (prev != null) {
            throw runtime.newFiberError("attempt to resume a resumed fiber (double resume)");
        }
        if (resumingFiber != null) {
            throw runtime.newFiberError("attempt to resume a resuming fiber");
        }
        if (root || status != CREATED && !yielding) {
            throw runtime.newFiberError("attempt to resume a transferring fiber");
        }
    }

    /** MRI's fiber_transfer_kw. */
    private IRubyObject transfer(ThreadContext context, int argc, IRubyObject arg0, IRubyObject[] argv) {
        FiberThread home = homeFor(context);
        checkTransfer(context);
        return home.current.switchTo(this, false, false, argc, arg0, argv, null);
    }

    private void checkTransfer(ThreadContext context) {
        if (resumingFiber != null) {
            throw context.runtime.newFiberError("attempt to transfer to a resuming fiber");
        }
        if (yielding) {
            throw context.runtime.newFiberError("attempt to transfer to a yielding fiber");
        }
    }

    /** MRI's rb_fiber_yield: control goes back to the fiber that resumed the current one. */
    private static IRubyObject yieldToReturnFiber(ThreadContext context, int argc, IRubyObject arg0, IRubyObject[] argv) {
        WeftFiber current = FiberThread.of(context).current;
        return current.switchTo(current.returnFiber(context, false), false, true, argc, arg0, argv, null);
    }

    /** The home of this fiber, which must be the current thread's. */
    private FiberThread homeFor(ThreadContext context) {
        FiberThread home = this.home;
        if (home == null) {
            throw context.runtime.newFiberError("uninitialized fiber");
        }
        if (home.javaThread != Thread.currentThread() || home.runtime != context.runtime) {
            throw context.runtime.newFiberError("fiber called across threads");
        }
        return home;
    }

    /**
     * MRI's return_fiber: where control goes when this fiber yields or ends. Its resumer, if it
     * has one; otherwise, for an ending fiber, the innermost fiber of the root's resuming chain.
     */
    private WeftFiber returnFiber(ThreadContext context, boolean terminating) {
        WeftFiber p = prev;
        if (p != null) {
            prev = null;
            p.resumingFiber = null;
            return p;
        }
        if (!terminating) {
            throw context.runtime.newFiberError("attempt to yield on a not resumed fiber");
        }
        WeftFiber f = home.root;
        while (f.resumingFiber != null) {
            f = f.resumingFiber;
        }
        return f;
    }

    /**
     * MRI's fiber_switch, from this fiber (the current one) to {@code target}: passes the
     * values, or {@code error}, and returns (or raises) what this fiber receives when control
     * comes back to it. Confined to the home thread.
     */
    private IRubyObject switchTo(WeftFiber target, boolean resuming, boolean yield, int argc, IRubyObject arg0,
            IRubyObject[] argv, Throwable error) {
        FiberThread home = this.home;
        assert home.current == this : "switching from " + inspectText(getRuntime().getCurrentContext()) + ", which is not running";
        Ruby runtime = getRuntime();
        if (target == this) {
            home.pass(this, argc, arg0, argv);
            if (error != null) {
                home.passError(this, error);
            }
            return home.receive();
        }
        if (target.home != home) {
            throw runtime.newFiberError("fiber called across threads");
        }
        if (target.status == TERMINATED) {
            throw runtime.newFiberError("dead fiber called");
        }
        if (resuming) {
            resumingFiber = target;
            target.prev = this;
            target.yielding = false;
        }
        if (yield) {
            yielding = true;
        }
        if (error != null) {
            home.passError(target, error);
        } else {
            home.pass(target, argc, arg0, argv);
        }
        status = SUSPENDED;
        if (root) {
            home.runFromRoot();
        } else {
            suspend(target, resuming, yield);
        }
        return home.receive();
    }

    /** Hands control to the trampoline, and returns when a switch comes back to this fiber. */
    private void suspend(WeftFiber target, boolean resuming, boolean yield) {
        try {
            coroutine.ret(null);
        } catch (RuntimeException refused) {
            // Weft refused to suspend (a frame that cannot be frozen): nothing switched
            home.cancelPass();
            status = RESUMED;
            if (resuming) {
                resumingFiber = null;
                target.prev = null;
            }
            if (yield) {
                yielding = false;
            }
            throw getRuntime().newFiberError("cannot switch fibers here: " + refused.getMessage());
        }
    }

    // ---------------------------------------------------------------- the fiber's own code

    ThreadContext context() {
        return fiberContext;
    }

    FiberCoroutine coroutine() {
        return coroutine;
    }

    /** Runs the block on this fiber's coroutine, then passes its value or exception to the return fiber. */
    void runBlock() {
        Ruby runtime = getRuntime();
        IRubyObject value = null;
        Throwable failure = null;
        try {
            value = home.callBlock(block, fiberContext);
        } catch (IRBreakJump e) {
            failure = IRException.BREAK_LocalJumpError.getException(runtime);
        } catch (IRReturnJump e) {
            failure = IRException.RETURN_LocalJumpError.getException(runtime);
        } catch (JumpException.FlowControlException e) {
            failure = e.buildException(runtime);
        } catch (Throwable t) {
            failure = t;
        }
        status = TERMINATED;
        WeftFiber to = returnFiber(fiberContext, true);
        if (failure != null) {
            home.passError(to, failure);
        } else {
            home.pass(to, 1, value, null);
        }
        dropStack();
    }

    /** Lets the collector have what only a running fiber needs. */
    private void dropStack() {
        block = null;
        coroutine = null;
    }

    @SuppressWarnings("unchecked")
    static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** The coroutine a fiber runs on: its block, once. */
    static final class FiberCoroutine extends AsymCoroutine<Void, Void> {
        private final WeftFiber fiber;

        FiberCoroutine(WeftFiber fiber) {
            this.fiber = fiber;
        }

        @Override
        protected Void run(Void input) {
            fiber.runBlock();
            return null;
        }
    }
}
