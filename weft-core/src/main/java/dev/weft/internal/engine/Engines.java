package dev.weft.internal.engine;

import dev.weft.CoroutineBase;
import dev.weft.Engine;
import dev.weft.internal.engine.woven.WovenEngine;
import dev.weft.internal.frames.FrameTransfer;

/**
 * The engines behind {@link Engine}: where the scheduler gets a coroutine's stack, and what it
 * asks of them all. Adding an engine adds a constant to {@link Engine} and a case here; the API
 * classes and the scheduler do not change. Any thread.
 *
 * <p>The native engine's classes link to {@code jdk.internal.vm.Continuation}, which JDKs before
 * {@value #NATIVE_FEATURE_VERSION} lack: they are compiled apart from the rest of
 * {@code weft-core} (which is compiled for JDK 17), nothing refers to them by type, and this
 * class loads the engine by name, once, only on a JDK that has them. On an older JDK the
 * woven engine is the default, and creating a native-engine coroutine throws.
 */
public final class Engines {

    /** The first JDK (its {@link Runtime.Version#feature()}) whose continuations the native engine runs on. */
    public static final int NATIVE_FEATURE_VERSION = 21;

    private static final String NATIVE_ENGINE_CLASS = "dev.weft.internal.engine.hotspot.NativeEngine";

    /** The native engine, or on an older JDK the link that refuses it; a constant once inlined. */
    private static final NativeEngineLink NATIVE_ENGINE = linkNativeEngine();

    private Engines() {
    }

    /** True when this JVM can run the native engine (given access to {@code jdk.internal.vm}). */
    public static boolean nativeEngineRuns() {
        return Runtime.version().feature() >= NATIVE_FEATURE_VERSION;
    }

    /**
     * A new stack of {@code engine} that will run {@code coroutine}'s body from its start.
     *
     * @throws IllegalArgumentException naming the coroutine, if the engine cannot run its body
     * @throws IllegalStateException naming what to do, if the engine is not available in this JVM
     */
    public static ExecutionStack newStack(Engine engine, CoroutineBase coroutine) {
        return switch (engine) {
            case NATIVE -> NATIVE_ENGINE.newStack(coroutine);
            case WOVEN -> WovenEngine.newStack(coroutine);
        };
    }

    /**
     * The coroutine whose stack runs innermost on the current thread, as the engines whose
     * frames stay on a stack while it runs can tell, read afresh; null when they cannot (the
     * caller then relies on its thread). Correct in a frame that was suspended on one thread and
     * resumed on another, unlike anything derived from {@code Thread.currentThread()}, which
     * HotSpot's compilers may keep from before the suspension.
     */
    public static CoroutineBase runningCoroutine() {
        return NATIVE_ENGINE.runningCoroutine();
    }

    /**
     * The frames moving out of or into the innermost native stack running on the current thread,
     * which woven code captures itself into or restores itself from; null if there are none.
     */
    public static FrameTransfer nativeTransfer() {
        return NATIVE_ENGINE.currentTransfer();
    }

    private static NativeEngineLink linkNativeEngine() {
        if (!nativeEngineRuns()) {
            return new NativeEngineUnavailable("JDK " + Runtime.version() + " (" + System.getProperty("java.home") + ")");
        }
        try {
            return (NativeEngineLink) Class.forName(NATIVE_ENGINE_CLASS).getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("weft-core is incomplete: its native engine " + NATIVE_ENGINE_CLASS
                    + " cannot be loaded on JDK " + Runtime.version(), e);
        }
    }
}
