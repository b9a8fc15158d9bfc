package dev.weft.internal.access;

import dev.weft.internal.woven.Fiber;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;

/**
 * The woven engine's control of a {@link Fiber}: what woven code must not do to it. Woven code
 * only reads a fiber's mode, pushes and pops its own frame's values and takes its call's result;
 * creating a fiber, entering and resuming its frames and reading or replacing its saved frames
 * belong to the engine. Each method is confined to the thread that runs the fiber's coroutine.
 */
public interface FiberAccess {

    /**
     * A fiber for {@code coroutine}, whose {@code toString()} names it in errors, driven by its
     * caller alone: the engine's own stacks are fibers themselves (a subclass passes this access
     * to {@code Fiber}'s constructor).
     */
    Fiber newFiber(Object coroutine);

    /** The coroutine {@code fiber} runs. */
    Object coroutine(Fiber fiber);

    /** Whether frames are saved: the stack is suspended. */
    boolean hasSavedFrames(Fiber fiber);

    /**
     * The engine begins a resume of {@code fiber}: the fiber notes where its saved frames end,
     * which {@link #savedWhenFilled} reads. Returns whether frames are saved.
     */
    boolean beginResume(Fiber fiber);

    /** Before the engine calls the body's twin from its start. */
    void enter(Fiber fiber);

    /** At the suspension point: the frames above the engine unwind as they return. */
    void startUnwinding(Fiber fiber);

    /** The engine's call has returned while unwinding: the stack is suspended. */
    void finishUnwinding(Fiber fiber);

    /**
     * Takes the {@code count} innermost saved frames of the top segment (all, if fewer; at most
     * 64) to be resumed together: the
     * outermost of them is called, each rebuilds its callee, and the innermost's call gives
     * {@code value}, or throws {@code exception} if that is not null. Returns whether the frame
     * to call is the outermost of all, which the engine then calls through the body's twin as it
     * enters it (any arguments: a resumed prologue overwrites them) before {@link #afterResume};
     * else the engine calls {@link #resumeTaken}.
     */
    boolean take(Fiber fiber, int count, Object value, Throwable exception);

    /**
     * Drops the next saved frames to resume that are suspended in tail calls, up to the first
     * that is not, and never the outermost of all: the engine then passes the value or exception
     * it was to resume the first with on to the next frame left. Returns whether it dropped any.
     */
    boolean dropTailCalls(Fiber fiber);

    /** Calls the frame {@link #take} took through its twin's handle: what it returns (anything while it unwinds again), or throws. */
    Object resumeTaken(Fiber fiber) throws Throwable;

    /** After the engine's call of the entry that {@link #take} prepared has returned or thrown. */
    void afterResume(Fiber fiber);

    /** Drops the saved frames, so that they hold no objects alive. */
    void discardSavedFrames(Fiber fiber);

    /** How many frames are saved. */
    int frameCount(Fiber fiber);

    /** Whether exactly {@code count} frames are saved: cheaper than {@link #frameCount} when more are. */
    boolean hasFrameCount(Fiber fiber, int count);

    /**
     * The saved frames as a stack trace, innermost first: each its method's name, at the line
     * its site table records for the site it is suspended at.
     */
    StackTraceElement[] savedStackTrace(Fiber fiber);

    /**
     * The frames that were saved, innermost first, when a trace was filled whose outermost
     * element of the coroutine is {@code outermost}, over the engine's elements {@code run};
     * null if the fiber no longer knows them ({@link dev.weft.internal.frames.SavedFrames}).
     */
    StackTraceElement[] savedWhenFilled(Fiber fiber, StackTraceElement outermost, java.util.List<StackTraceElement> run);

    /**
     * Whether {@code thrown}'s trace was completed by one of the fiber's twins that caught it
     * ({@link Fiber#caught}), since the last time this was asked: its boundary is in already.
     */
    boolean takeCaughtTrace(Fiber fiber, Throwable thrown);

    /** The class of saved frame {@code frame} (0 the outermost). */
    Class<?> frameClass(Fiber fiber, int frame);

    /** The references saved by frame {@code frame}, in the order pushed: a copy. */
    Object[] frameReferences(Fiber fiber, int frame);

    /** The primitives saved by frame {@code frame}, in the order pushed, its site id last: a copy. */
    long[] framePrimitives(Fiber fiber, int frame);

    /** The handle of the twin that saved frame {@code frame}, an exact call, as woven code gives it. */
    MethodHandle frameTwin(Fiber fiber, int frame);

    /**
     * The method of saved frame {@code frame}: the one whose twin saved it, read from the twin's handle once per
     * handle.
     *
     * @throws IllegalArgumentException if Weft cannot read the handle (the class registered no lookup, and its package is not open to Weft)
     */
    Method frameMethod(Fiber fiber, int frame);

    /**
     * A direct call of woven {@code method}'s twin, of type {@code (receiver?, parameters...,
     * Fiber) R}: how the engine enters a body whose {@code run} it is. Twins are private; this
     * reaches them, as only the engine may.
     *
     * @throws IllegalArgumentException if {@code method} has no twin
     */
    MethodHandle exactTwin(Method method);

    /**
     * Saves a frame of woven {@code method}, run by an exact call of its twin, as the caller of the frame saved before
     * it (frames are added innermost first, as unwinding saves them), on {@code receiver}, its own (null if static),
     * suspended at site {@code site}: the references {@code objects[referenceSlots[0]], objects[referenceSlots[1]], ...}
     * and the primitives {@code scalars[primitiveSlots[0]], ...}, in the order its twin pushes them.
     *
     * @throws IllegalArgumentException if {@code method} has no twin
     */
    void addSavedFrame(Fiber fiber, Method method, Object receiver, Object[] objects, int[] referenceSlots,
            long[] scalars, int[] primitiveSlots, int site);
}
