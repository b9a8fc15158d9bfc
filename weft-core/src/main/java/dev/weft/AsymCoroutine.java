package dev.weft;


import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * An asymmetric coroutine (thesis figure 3.4): it runs only when called, and returns control to
 * whoever called it. Each {@link #call} passes an input in and gets an output back; inside,
 * {@link #ret} passes an output out and gets the next call's input back.
 *
 * <pre>{@code
 * AsymCoroutine<Integer, Integer> doubler = new AsymCoroutine<>((self, first) -> {
 *     int in = first;
 *     while (true) in = self.ret(in * 2);
 * });
 * System.out.println(doubler.call(1));  // 2
 * System.out.println(doubler.call(5));  // 10
 * }</pre>
 *
 * <p>The first call's input is {@code run}'s argument, and the value {@code run} returns is the
 * last call's output. A coroutine cannot be called while it runs or while it is calling another
 * (so it cannot call itself, directly or through others), nor once it has finished.
 * {@link Coroutine#yield()} and {@link Coroutine#yieldTo} are refused inside it.
 *
 * <p>As an {@link Iterable}, it is the call loop written another way: it produces the values
 * it passes to {@code ret}, calling it with {@code null}, and last the value {@code run}
 * returns; iteration ends when it has finished.
 *
 * <p>Confined to its owner thread (see {@link CoroutineBase}); {@link #steal()} is the only
 * cross-thread operation.
 *
 * @param <I> what each {@code call} passes in ({@code Void} if nothing)
 * @param <O> what each {@code ret}, and the final return, passes out ({@code Void} if nothing)
 */
@SuppressWarnings("this-escape") // a new coroutine gets its stack and joins its thread as it is built (thesis 3.2.1); it runs later
public non-sealed class AsymCoroutine<I, O> extends CoroutineBase implements Iterable<O> {

    private final AsymRunnable<? super I, ? extends O> target;

    /**
     * The value in flight: a call's input on the way in, a ret's output on the way out; or, once
     * its code has thrown, the exception that finished it, as a {@link Failure} until its
     * receiver takes it (one field for both keeps a suspended coroutine 8 bytes smaller, with
     * the padding: a finished coroutine has no value in flight).
     */
    private Object transfer;

    /** The uncaught exception that finished a coroutine, in {@link #transfer}: no value in flight is one. */
    private record Failure(Throwable exception) {
    }

    /** Its owner's count of {@code closeAll()}s when it became the owner's: a later one closed it if it had not run. */
    int adoptedAtClosing;

    /** A coroutine of the current thread that runs its {@link #run(Object)} method. */
    public AsymCoroutine() {
        this(null, 0, null);
    }

    /**
     * A coroutine of the current thread that runs {@code target}.
     *
     * @param target the body, which gets this coroutine and the first call's input
     */
    public AsymCoroutine(AsymRunnable<? super I, ? extends O> target) {
        this(requireTarget(target), 0, null);
    }

    /**
     * A coroutine that runs its {@link #run(Object)} method; {@code stackSize} is a hint (see {@link CoroutineBase}).
     *
     * @param stackSize a hint of the stack's size in bytes, 0 for the default
     */
    public AsymCoroutine(long stackSize) {
        this(null, stackSize, null);
    }

    /**
     * A coroutine that runs {@code target}; {@code stackSize} is a hint (see {@link CoroutineBase}).
     *
     * @param target the body, which gets this coroutine and the first call's input
     * @param stackSize a hint of the stack's size in bytes, 0 for the default
     */
    public AsymCoroutine(AsymRunnable<? super I, ? extends O> target, long stackSize) {
        this(requireTarget(target), stackSize, null);
    }

    /**
     * A coroutine that runs {@code target}, with the hint that it may share its stack with
     * {@code sharedStack} (see {@link CoroutineBase}).
     *
     * @param target the body, which gets this coroutine and the first call's input
     * @param sharedStack a coroutine whose stack this one may share, or null
     */
    public AsymCoroutine(AsymRunnable<? super I, ? extends O> target, CoroutineBase sharedStack) {
        this(requireTarget(target), 0, sharedStack);
    }

    /**
     * A coroutine that runs its {@link #run(Object)} method on {@code engine}. On
     * {@link Engine#WOVEN}, the subclass must be woven.
     *
     * @param engine the engine that runs it
     * @throws IllegalArgumentException naming the class, if the engine is woven and the
     *         subclass's {@code run} is not
     */
    public AsymCoroutine(Engine engine) {
        this(null, 0, null, engine);
    }

    /**
     * A coroutine that runs {@code target} on {@code engine}. On {@link Engine#WOVEN}, the
     * target must be woven code: an instance of a woven class, or a lambda or method reference
     * written in one.
     *
     * @param target the body, which gets this coroutine and the first call's input
     * @param engine the engine that runs it
     * @throws IllegalArgumentException naming the class, if the engine is woven and the
     *         target's {@code run} is not
     */
    public AsymCoroutine(AsymRunnable<? super I, ? extends O> target, Engine engine) {
        this(requireTarget(target), 0, null, engine);
    }

    private AsymCoroutine(AsymRunnable<? super I, ? extends O> target, long stackSize, CoroutineBase sharedStack) {
        this(target, stackSize, sharedStack, Engine.defaultEngine());
    }

    private AsymCoroutine(AsymRunnable<? super I, ? extends O> target, long stackSize, CoroutineBase sharedStack,
            Engine engine) {
        super(stackSize, sharedStack, engine);
        this.target = target;
        attachStack(engine);
        owner().adopt(this, false);
    }

    private static <T> T requireTarget(T target) {
        if (target == null) {
            throw new NullPointerException("target");
        }
        return target;
    }

    /**
     * The coroutine's code: runs the {@code AsymRunnable} given at construction, if any;
     * otherwise returns {@code null} at once. Subclasses override it.
     *
     * @param input the first call's input
     * @return the last call's output
     */
    protected O run(I input) {
        return target == null ? null : target.run(this, input);
    }

    @Override
    @SuppressWarnings("unchecked")
    final Object runBody(Object input) {
        return run((I) input);
    }

    @Override
    final boolean closedBeforeItRan() {
        return owner().closings() != adoptedAtClosing;
    }

    @Override
    final Object target() {
        return target;
    }

    /**
     * Runs this coroutine until it {@code ret}s or finishes, and returns what it passed out.
     * Confined to the owner thread.
     *
     * @param input the value {@code ret} returns inside (or {@code run}'s argument, the first time)
     * @return the value passed to {@code ret}, or the value {@code run} returned
     * @throws IllegalStateException if it has finished, or is running or calling (including a
     *         call of itself, directly or through others)
     * @throws WrongThreadException if it belongs to another thread
     * @throws RuntimeException or {@link Error}: the exception that finished it, if its code threw
     */
    @SuppressWarnings("unchecked")
    public O call(I input) {
        return (O) callOn(CoroutineSupport.currentFor(this), input);
    }

    /** {@link #call}, made on the thread whose scheduler is {@code support}. */
    final Object callOn(CoroutineSupport support, Object input) {
        checkOwner(support, "call");
        int prior = support.take(this, "call");
        transfer = input;
        Object output = support.runTaken(this, prior); // taken before a thief can call it again
        if (isFinished()) {
            rethrowFailure();
        }
        return output;
    }

    /**
     * Suspends this coroutine, which must be the one running, and passes {@code output} to its
     * caller; returns the next call's input when it is called again.
     *
     * @param output what the current {@code call} returns
     * @return the input of the {@code call} that resumes it
     * @throws IllegalStateException if this coroutine is not the one running on this thread, or
     *         when the stack cannot be suspended (a native frame on it)
     * @throws WrongThreadException if it belongs to another thread
     * @throws CoroutineExitException when it is being closed
     */
    @SuppressWarnings("unchecked")
    public I ret(O output) {
        CoroutineSupport support = CoroutineSupport.current();
        checkOwner(support, "ret from");
        if (support.finishRestore(this)) {
            return (I) takeTransfer();
        }
        checkExitRequested();
        support.checkRunning(this, "ret");
        transfer = output;
        try {
            if (!support.suspendAsymmetric(this)) {
                return null; // resumed only to be captured
            }
        } catch (RuntimeException | Error refused) {
            transfer = null;
            throw refused;
        }
        return (I) takeTransfer();
    }

    /** Puts a value in flight. */
    final void putTransfer(Object value) {
        transfer = value;
    }

    /** Takes the value in flight: a call's input inside, a ret's output outside; null, leaving it kept, if it is a failure. */
    final Object takeTransfer() {
        Object value = transfer;
        if (value instanceof Failure) {
            return null;
        }
        transfer = null;
        return value;
    }

    @Override
    final void keepFailure(Throwable t) {
        transfer = new Failure(t);
    }

    @Override
    final Throwable keptFailure() {
        return transfer instanceof Failure f ? f.exception() : null;
    }

    @Override
    final Throwable takeFailure() {
        if (transfer instanceof Failure f) {
            transfer = null;
            return f.exception();
        }
        return null;
    }

    /**
     * An iterator that is the call loop written another way (thesis 3.2.2, figures 3.6 and
     * 3.7): {@code hasNext} is {@code !isFinished()}, and {@code next} calls this coroutine with
     * {@code null} and returns what the call returns. So it produces every value passed to
     * {@code ret} and then the value {@code run} returns, exactly what
     * {@code while (!c.isFinished()) c.call(null)} sees. Confined to the owner thread.
     */
    @Override
    public Iterator<O> iterator() {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !isFinished();
            }

            @Override
            public O next() {
                if (isFinished()) {
                    throw new NoSuchElementException(getName() + " has finished");
                }
                return call(null);
            }
        };
    }
}
