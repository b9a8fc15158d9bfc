package dev.weft;


/**
 * A symmetric coroutine (thesis figure 3.1): it passes control to any other coroutine of its
 * thread, by {@link #yield()} to the next one in the thread's ring or by {@link #yieldTo} to a
 * chosen one.
 *
 * <pre>{@code
 * new Coroutine(() -> {
 *     System.out.println("Coroutine running 1");
 *     Coroutine.yield();
 *     System.out.println("Coroutine running 2");
 * });
 * System.out.println("start");
 * Coroutine.yield();          // runs the coroutine up to its yield
 * System.out.println("middle");
 * Coroutine.yield();          // runs it to its end
 * System.out.println("end");
 * }</pre>
 *
 * <h2>Scheduling</h2>
 * Each thread keeps its symmetric coroutines in a ring whose first member is the thread's
 * initial coroutine: the thread's own stack, which exists from the first coroutine operation on
 * that thread. A new coroutine is inserted right after the current one, so it runs next.
 * {@code yield()} runs the next one in the ring, so each runs again only after all the others
 * (first come, first served); with no other coroutine it returns at once. {@code yieldTo(t)}
 * runs {@code t} and leaves the order of the others as it was: the ones between are skipped,
 * not moved. A coroutine that finishes leaves the ring and control passes to the next one.
 *
 * <h2>Failures</h2>
 * An uncaught exception finishes the coroutine and is rethrown out of the switch operation
 * ({@code yield}, {@code yieldTo}, or the {@code close} that was closing it) of the coroutine
 * that last switched to it; if that one has finished or moved to another thread meanwhile,
 * out of the thread's initial coroutine's.
 *
 * <h2>Threading</h2>
 * Confined to its owner thread (see {@link CoroutineBase}); {@link #steal()} is the only
 * cross-thread operation. {@code yield} and {@code yieldTo} may not be called while an
 * asymmetric coroutine runs: they throw {@link IllegalStateException} there.
 */
@SuppressWarnings("this-escape") // a new coroutine joins its thread's ring as it is built (thesis 3.2.1); it runs later
public non-sealed class Coroutine extends CoroutineBase {

    private final Runnable target;

    /*
     * The ring links live in the coroutine itself (a node object per coroutine would be 24 more
     * bytes in each of a million suspended ones). They belong to the thread whose support is in
     * `ring`, and only that thread reads or writes them; a ring that drops this coroutine clears
     * them and then `ring` with a releasing write, after which the next owner may claim them
     * (see CoroutineSupport's implementation notes).
     */

    /** The previous and next member of the ring that holds these links. Thread of {@link #ring}. */
    Coroutine prev;
    Coroutine next;

    /** The support whose ring holds these links, or null when no ring does. See above. */
    CoroutineSupport ring;

    /**
     * The coroutine that last switched to this one, which receives its uncaught exception; once
     * it has finished by one, a {@link Failed} holding both until the exception is handed on.
     * One field for the two, since they are needed together only by a failed coroutine.
     */
    private Object resumer;

    /** A coroutine of the current thread that runs its {@link #run()} method. */
    public Coroutine() {
        this(null, 0, null);
    }

    /**
     * A coroutine of the current thread that runs {@code target}.
     *
     * @param target the body
     */
    public Coroutine(Runnable target) {
        this(requireTarget(target), 0, null);
    }

    /**
     * A coroutine that runs its {@link #run()} method; {@code stackSize} is a hint (see {@link CoroutineBase}).
     *
     * @param stackSize a hint of the stack's size in bytes, 0 for the default
     */
    public Coroutine(long stackSize) {
        this(null, stackSize, null);
    }

    /**
     * A coroutine that runs {@code target}; {@code stackSize} is a hint (see {@link CoroutineBase}).
     *
     * @param target the body
     * @param stackSize a hint of the stack's size in bytes, 0 for the default
     */
    public Coroutine(Runnable target, long stackSize) {
        this(requireTarget(target), stackSize, null);
    }

    /**
     * A coroutine that runs {@code target}, with the hint that it may share its stack with
     * {@code sharedStack} (see {@link CoroutineBase}).
     *
     * @param target the body
     * @param sharedStack a coroutine whose stack this one may share, or null
     */
    public Coroutine(Runnable target, CoroutineBase sharedStack) {
        this(requireTarget(target), 0, sharedStack);
    }

    /**
     * A coroutine that runs its {@link #run()} method on {@code engine}. On {@link Engine#WOVEN},
     * the subclass must be woven.
     *
     * @param engine the engine that runs it
     * @throws IllegalArgumentException naming the class, if the engine is woven and the
     *         subclass's {@code run} is not
     */
    public Coroutine(Engine engine) {
        this(null, 0, null, engine);
    }

    /**
     * A coroutine that runs {@code target} on {@code engine}. On {@link Engine#WOVEN}, the
     * target must be woven code: an instance of a woven class, or a lambda or method reference
     * written in one.
     *
     * @param target the body
     * @param engine the engine that runs it
     * @throws IllegalArgumentException naming the class, if the engine is woven and the
     *         target's {@code run} is not
     */
    public Coroutine(Runnable target, Engine engine) {
        this(requireTarget(target), 0, null, engine);
    }

    private Coroutine(Runnable target, long stackSize, CoroutineBase sharedStack) {
        this(target, stackSize, sharedStack, Engine.defaultEngine());
    }

    private Coroutine(Runnable target, long stackSize, CoroutineBase sharedStack, Engine engine) {
        super(stackSize, sharedStack, engine);
        this.target = target;
        attachStack(engine);
        owner().adopt(this, false);
    }

    /** The initial coroutine of {@code support}'s thread, or a stand-in of its ring, named {@code name}. */
    Coroutine(CoroutineSupport support, String name) {
        super(support, name);
        this.target = null;
    }

    private static Runnable requireTarget(Runnable target) {
        if (target == null) {
            throw new NullPointerException("target");
        }
        return target;
    }

    /**
     * The coroutine's code: runs the {@code Runnable} given at construction, if any; otherwise
     * does nothing. Subclasses override it.
     */
    protected void run() {
        if (target != null) {
            target.run();
        }
    }

    @Override
    final Object runBody(Object input) {
        run();
        return null;
    }

    /** The uncaught exception that finished a coroutine, kept with the coroutine that last switched to it. */
    record Failed(Throwable failure, Coroutine resumer) {
    }

    /** Records that {@code from} switches to this coroutine now. Owner thread. */
    final void resumedBy(Coroutine from) {
        resumer = from;
    }

    /** The coroutine that last switched to this one, or null. Owner thread. */
    final Coroutine resumer() {
        Object r = resumer;
        return r instanceof Failed f ? f.resumer() : (Coroutine) r;
    }

    /** Forgets the coroutine that switched to this finished one, keeping its failure if it has one. */
    final void forgetResumer() {
        if (resumer instanceof Failed f) {
            resumer = new Failed(f.failure(), null);
        } else {
            resumer = null;
        }
    }

    @Override
    final void keepFailure(Throwable t) {
        resumer = new Failed(t, resumer());
    }

    @Override
    final Throwable keptFailure() {
        return resumer instanceof Failed f ? f.failure() : null;
    }

    @Override
    final Throwable takeFailure() {
        if (resumer instanceof Failed f) {
            resumer = f.resumer();
            return f.failure();
        }
        return null;
    }

    @Override
    final Object target() {
        return target;
    }

    /**
     * Passes control to the next coroutine in the current thread's ring; returns when control
     * comes back. Returns at once if the ring has no other coroutine.
     *
     * @throws IllegalStateException inside an asymmetric coroutine, or when the stack cannot be
     *         suspended (a native frame on it)
     * @throws CoroutineExitException when the current coroutine is being closed
     */
    public static void yield() {
        CoroutineSupport support = CoroutineSupport.current();
        if (!support.finishRestore()) {
            support.yieldToNext();
        }
    }

    /**
     * Passes control to {@code target}, leaving the order of the ring as it was; returns when
     * control comes back. Returns at once if {@code target} is the current coroutine.
     *
     * @param target the coroutine to pass control to, of the current thread
     * @throws WrongThreadException if {@code target} belongs to another thread
     * @throws IllegalStateException if {@code target} has finished, inside an asymmetric
     *         coroutine, or when the stack cannot be suspended
     * @throws CoroutineExitException when the current coroutine is being closed
     */
    public static void yieldTo(Coroutine target) {
        CoroutineSupport support = CoroutineSupport.current();
        if (support.finishRestore()) {
            return; // a restored frame re-invokes its call, with default arguments: it resumes here
        }
        if (target == null) {
            throw new NullPointerException("target");
        }
        support.yieldTo(target);
    }

    /**
     * The coroutine running on the current thread, if it is symmetric; null inside an asymmetric one.
     *
     * @return the running symmetric coroutine, the thread's initial one outside of every coroutine, or null inside an asymmetric one
     */
    public static Coroutine current() {
        return CoroutineSupport.current().runningSymmetric();
    }
}
