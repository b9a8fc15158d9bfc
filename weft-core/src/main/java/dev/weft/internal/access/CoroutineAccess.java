package dev.weft.internal.access;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;

/**
 * What the engines need of the API classes: how to run a coroutine's code and hand values in
 * and out of it, and the two halves of a suspension that the woven engine performs itself.
 * Implemented in {@code dev.weft}, beside the state it reaches. Each method is confined to the
 * coroutine's owner thread.
 */
public interface CoroutineAccess {

    /** The {@code Runnable} or {@code AsymRunnable} given to {@code c} at construction, or null. */
    Object target(CoroutineBase c);

    /** Runs {@code c}'s code from its start: {@code run()}, or {@code run(input)} for an asymmetric coroutine; what it returns (null if symmetric). */
    Object runBody(CoroutineBase c, Object input);

    /** Takes the value handed to {@code c}: a call's input (null for a symmetric coroutine). */
    Object takeInput(CoroutineBase c);

    /**
     * Takes the input {@code c}'s body starts with, as {@link #takeInput}; called by the engine
     * once, as the body starts (never on a restore).
     *
     * @throws IllegalStateException if {@code CoroutineBase.closeAll()} closed {@code c} before
     *         it ever ran: the body must not start
     */
    Object startingInput(CoroutineBase c);

    /** Hands {@code output} out of {@code c}: to its caller, for an asymmetric coroutine; ignored for a symmetric one. */
    void putOutput(CoroutineBase c, Object output);

    /** Records how {@code c}'s code ended: {@code failure} is rethrown to whoever receives control next. */
    void recordEnd(CoroutineBase c, Throwable failure);

    /** Throws {@code CoroutineExitException} if {@code c} is being closed. */
    void checkExitRequested(CoroutineBase c);

    /**
     * The first half of a woven yield ({@code target} null) or yieldTo from {@code running}:
     * takes the coroutine to switch to and names it as the next to run.
     *
     * @return whether to suspend: false if there is nothing to switch to
     * @throws IllegalStateException if {@code running} may not switch (asymmetric, or the target cannot run)
     */
    boolean handOff(CoroutineBase running, Coroutine target, String operation);

    /** The second half of a woven yield or yieldTo, on the resumed side: throws what {@code resumed} is handed. */
    void afterSwitch(Coroutine resumed);

    /**
     * A woven call of {@code callee} by {@code caller}, the coroutine whose woven code makes it:
     * run nested on this thread's stack, as {@code callee.call(input)} runs it, and its output
     * returned; or, if {@code mayUnwind} (the caller's stack can wait unwound) and many runs
     * are nested on the thread's stack already, the first half of a call by unwinding: the
     * callee is taken to run once the caller has unwound, and {@code unwound} is returned, a
     * marker of the engine's that no output is.
     *
     * @throws IllegalStateException or {@code WrongThreadException} if the callee cannot be called
     */
    Object wovenCall(CoroutineBase caller, AsymCoroutine<?, ?> callee, Object input, boolean mayUnwind, Object unwound);

    /** The second half of a call by unwinding, as {@code caller} resumes: the call's result, or the callee's failure thrown. */
    Object takeCallReturn(CoroutineBase caller);
}
