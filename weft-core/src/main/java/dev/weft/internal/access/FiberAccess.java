package dev.weft.internal.access;

import dev.weft.internal.woven.Fiber;

/**
 * The woven engine's control of a {@link Fiber}: what woven code must not do to it. Woven code
 * only reads a fiber's mode and pushes and pops its own frame's values; creating a fiber,
 * changing its mode and reading or replacing all its saved frames belong to the engine. Each
 * method is confined to the thread that runs the fiber's coroutine.
 */
public interface FiberAccess {

    /** A fiber for {@code coroutine}, whose {@code toString()} names it in errors. */
    Fiber newFiber(Object coroutine);

    /** The coroutine {@code fiber} runs. */
    Object coroutine(Fiber fiber);

    /** Whether frames are saved: the stack was suspended and has not been rewound since. */
    boolean hasSavedFrames(Fiber fiber);

    /** At the suspension point: the frames above the entry unwind as they return. */
    void startUnwinding(Fiber fiber);

    /** The entry has returned while unwinding: the stack is suspended. */
    void finishUnwinding(Fiber fiber);

    /** Before the engine calls the entry again: the frames rebuild themselves. */
    void startRewinding(Fiber fiber);

    /**
     * At the suspension point, reached while rewinding: the stack is rebuilt.
     *
     * @throws IllegalStateException if saved values are left over: the frames did not take back what they saved
     */
    void finishRewinding(Fiber fiber);

    /** Drops the saved frames, so that they hold no objects alive. */
    void discardSavedFrames(Fiber fiber);

    /** The saved references, oldest first (the innermost frame's first): a copy. */
    Object[] savedReferences(Fiber fiber);

    /** The saved primitives and site ids, oldest first: a copy. */
    long[] savedPrimitives(Fiber fiber);

    /** Replaces the saved frames by these values, as {@link #savedReferences} and {@link #savedPrimitives} give them. */
    void replaceSavedFrames(Fiber fiber, Object[] references, long[] primitives);
}
