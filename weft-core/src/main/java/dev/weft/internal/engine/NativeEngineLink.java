package dev.weft.internal.engine;

import dev.weft.CoroutineBase;
import dev.weft.internal.frames.FrameTransfer;

/**
 * What the rest of Weft asks of the native engine, so that nothing loaded on every JVM links to
 * its classes: they use {@code jdk.internal.vm.Continuation}, which exists from JDK 21 only, and
 * are compiled apart from the rest of {@code weft-core} (see its POM). {@link Engines} holds the
 * one instance: the engine itself, loaded by name on JDK {@value Engines#NATIVE_FEATURE_VERSION}
 * and later, or on older JDKs a link that refuses to create stacks and runs none.
 *
 * <p>Every method may be called from any thread.
 */
public interface NativeEngineLink {

    /**
     * A new native stack that will run {@code coroutine}'s body.
     *
     * @throws IllegalStateException naming what to do, if this JVM cannot run the native engine
     */
    ExecutionStack newStack(CoroutineBase coroutine);

    /**
     * The coroutine whose native stack is the innermost one running on the current thread, or
     * null when the caller runs on no native stack.
     */
    CoroutineBase runningCoroutine();

    /**
     * The frames moving out of or into the innermost native stack running on the current thread,
     * which woven code captures itself into or restores itself from; null if there are none.
     */
    FrameTransfer currentTransfer();
}
