package dev.weft.internal.frames;

import java.util.List;

/**
 * What an engine still keeps saved of a coroutine's stack, below the frames on the thread, as
 * an exception's trace needs it: the frames that were saved when the trace was filled, which
 * for an exception made in an earlier resume are not always the ones saved now.
 */
@FunctionalInterface
public interface SavedFrames {

    /**
     * The coroutine's frames that were saved, innermost first, when the trace was filled whose
     * outermost element of the coroutine is {@code outermost} and whose engine frames below it
     * are {@code run}; or null if the engine no longer knows them.
     *
     * @param outermost the coroutine's outermost frame on the thread when the trace was filled,
     *        or null if none of its frames was (the engine made the exception)
     * @param run the elements of the engine's frames under {@code outermost}, down to the
     *        resumer's innermost
     */
    StackTraceElement[] savedWhenFilled(StackTraceElement outermost, List<StackTraceElement> run);
}
