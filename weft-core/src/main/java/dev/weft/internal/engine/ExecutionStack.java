package dev.weft.internal.engine;

import dev.weft.CoroutineFrame;
import dev.weft.Engine;

/**
 * A stack on which one coroutine's body runs, and everything its engine does to it: resume and
 * suspend it, capture it as frames and rebuild it from frames. The scheduler in {@code dev.weft}
 * (the ring, call and ret, steal, close) works on this interface alone.
 *
 * <p>Life cycle: a new stack starts the body at its first {@link #resume()}; each resume runs it
 * until it suspends or ends ({@link #isDone()}). A suspended stack can be captured and
 * restored; a restored one continues, at its next resume, where the frames were suspended.
 *
 * <p>Confined to one thread at a time: whoever calls a method must own the coroutine (the
 * scheduler's state word, not this interface, moves it between threads).
 */
public interface ExecutionStack {

    /**
     * Runs the body on this stack, from its start or from where it last suspended, until it
     * suspends again or ends. Returns on the calling thread's own stack. An exception the body
     * throws does not come out of here: the engine records it with the coroutine.
     */
    void resume();

    /** The engine this stack belongs to. Any thread. */
    Engine engine();

    /** Whether the body has ended (returned or thrown); a done stack cannot be resumed. */
    boolean isDone();

    /**
     * Suspends this stack, which runs innermost on the current thread, from the scheduler's
     * suspension operation; returns when it is resumed.
     *
     * @return true when resumed to go on; false when the engine resumed it only to capture it,
     *         and the suspension operation must return at once, doing nothing else
     * @throws IllegalStateException naming the coroutine and why, without suspending, if the
     *         stack cannot suspend here (the engine cannot freeze or unwind what is on it)
     */
    boolean suspend();

    /**
     * Called by a suspension operation before anything else: whether this stack has just been
     * rebuilt from frames and its code has come back to the suspension point it was saved at.
     * If so the restore is over, and the operation completes as a resumed suspension.
     *
     * @throws IllegalStateException if the code reached a suspension point before every frame was rebuilt
     */
    boolean finishRestore();

    /**
     * The frames of this suspended stack, outermost first, as {@code serialize()} returns them;
     * the stack stays suspended where it was, and is resumed later as if nothing happened.
     *
     * @throws IllegalArgumentException saying why, naming the frame, if the stack cannot be
     *         captured (the caller names the coroutine); the stack is untouched
     * @throws IllegalStateException if capturing broke the body, which has ended ({@link #isDone()})
     */
    CoroutineFrame[] capture();

    /**
     * Replaces what this stack holds by {@code frames}, already validated against the weaver's
     * record, outermost first; with none, the stack starts the body afresh at its next resume.
     *
     * @throws IllegalArgumentException saying why, if this engine cannot run these frames (the
     *         caller names the coroutine); the stack is untouched
     */
    void restore(CoroutineFrame[] frames);

    /**
     * The frames of this suspended stack as a stack trace, innermost first, as
     * {@link dev.weft.internal.frames.StackTraces} says; nothing of the coroutine runs. Called
     * by whoever has taken the coroutine from its suspended state: its owner, or any thread that
     * holds it busy, so that nobody resumes it meanwhile.
     */
    StackTraceElement[] suspendedStackTrace();
}
