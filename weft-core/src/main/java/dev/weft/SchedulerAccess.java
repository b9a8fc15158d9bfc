package dev.weft;

import dev.weft.internal.access.CoroutineAccess;

/**
 * The API classes' side of {@link dev.weft.internal.access.SharedAccess}: what the engines may
 * do to a coroutine, and nothing more. Registered once by {@link CoroutineBase}'s static
 * initializer. Each method is confined to the coroutine's owner thread.
 */
final class SchedulerAccess implements CoroutineAccess {

    @Override
    public Object target(CoroutineBase c) {
        return c.target();
    }

    @Override
    public Object runBody(CoroutineBase c, Object input) {
        return c.runBody(input);
    }

    @Override
    public Object takeInput(CoroutineBase c) {
        return c instanceof AsymCoroutine<?, ?> a ? a.takeTransfer() : null;
    }

    @Override
    public Object startingInput(CoroutineBase c) {
        c.owner().bodyStarts(c);
        return takeInput(c);
    }

    @Override
    public void putOutput(CoroutineBase c, Object output) {
        if (c instanceof AsymCoroutine<?, ?> a) {
            a.putTransfer(output);
        }
    }

    @Override
    public void recordEnd(CoroutineBase c, Throwable failure) {
        c.recordEnd(failure);
    }

    @Override
    public void checkExitRequested(CoroutineBase c) {
        c.checkExitRequested();
    }

    @Override
    public boolean handOff(CoroutineBase running, Coroutine target, String operation) {
        Coroutine from = CoroutineSupport.symmetric(running, operation);
        return from.owner().handOff(from, target);
    }

    @Override
    public void afterSwitch(Coroutine resumed) {
        resumed.owner().afterSwitch(resumed); // its owner now: it may have been stolen while suspended
    }

    @Override
    public Object wovenCall(CoroutineBase caller, AsymCoroutine<?, ?> callee, Object input, boolean mayUnwind, Object unwound) {
        return caller.owner().wovenCall(caller, callee, input, mayUnwind, unwound);
    }

    @Override
    public Object takeCallReturn(CoroutineBase caller) {
        return caller.owner().takeCallReturn();
    }
}
