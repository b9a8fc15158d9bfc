package dev.weft.internal.engine.woven;

import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.internal.access.CoroutineAccess;
import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.engine.ExecutionStack;
import dev.weft.internal.woven.Fiber;

/**
 * An {@link ExecutionStack} of the woven engine: the body runs on the resuming thread's own
 * stack, as twin methods that unwind to {@link #resume()} when the coroutine suspends and
 * rewind from it when it is resumed ({@link Fiber}). Nothing of the coroutine stays on any
 * thread's stack while it is suspended, so it may be resumed on any thread; its frames are the
 * fiber's saved values, which {@link #capture()} reads and {@link #restore} writes without
 * running any of its code.
 *
 * <p>Suspension happens in {@link WovenSwitches}, which woven calls of the suspension points
 * are linked to; the scheduler's own {@link #suspend()} is reached only when the coroutine's
 * code got there through a frame that cannot unwind, and is refused.
 *
 * <p>Confined to one thread at a time, as {@link ExecutionStack} says.
 */
final class WovenStack implements ExecutionStack {

    private static final CoroutineAccess COROUTINES = SharedAccess.coroutines();
    private static final FiberAccess FIBERS = SharedAccess.fibers();

    private final CoroutineBase coroutine;
    private final WovenEntries.Entry entry;
    private final Fiber fiber;
    private boolean done;

    WovenStack(CoroutineBase coroutine, WovenEntries.Entry entry) {
        this.coroutine = coroutine;
        this.entry = entry;
        this.fiber = FIBERS.newFiber(coroutine);
    }

    @Override
    public void resume() {
        boolean rewinding = FIBERS.hasSavedFrames(fiber);
        if (rewinding) {
            FIBERS.startRewinding(fiber);
        }
        try {
            Object input = rewinding ? null : COROUTINES.startingInput(coroutine); // a rewind keeps the call's input for the ret it resumes in
            Object output = entry.enter(coroutine, input, fiber);
            if (!fiber.isUnwinding()) {
                COROUTINES.putOutput(coroutine, output);
            }
        } catch (Throwable t) {
            COROUTINES.recordEnd(coroutine, t);
        }
        if (fiber.isUnwinding()) {
            FIBERS.finishUnwinding(fiber);
        } else {
            done = true;
            FIBERS.discardSavedFrames(fiber);
        }
    }

    @Override
    public boolean isDone() {
        return done;
    }

    /** Always refused: the coroutine's code reached the suspension without going through twins all the way. */
    @Override
    public boolean suspend() {
        throw WovenRefusal.of(coroutine);
    }

    /** Never: a rewind ends in {@link WovenSwitches}, not in the scheduler's suspension operations. */
    @Override
    public boolean finishRestore() {
        return false;
    }

    @Override
    public CoroutineFrame[] capture() {
        return FiberFrames.read(fiber, entry.method());
    }

    @Override
    public void restore(CoroutineFrame[] frames) {
        FiberFrames.checkEntry(frames, entry.method());
        FIBERS.discardSavedFrames(fiber);
        done = false;
        FiberFrames.write(fiber, frames);
    }
}
