package dev.weft.internal.engine;

import dev.weft.CoroutineBase;
import dev.weft.internal.frames.FrameTransfer;

/**
 * The native engine's link on a JDK older than {@value Engines#NATIVE_FEATURE_VERSION}, which
 * has no continuations: no native stack ever runs, and creating one throws an exception that
 * names the coroutine, the JDK that runs and the JDK it needs. Immutable; any thread.
 */
final class NativeEngineUnavailable implements NativeEngineLink {

    private final String runningJdk;

    NativeEngineUnavailable(String runningJdk) {
        this.runningJdk = runningJdk;
    }

    /** Always throws, naming the coroutine's class and the JDKs. */
    @Override
    public ExecutionStack newStack(CoroutineBase coroutine) {
        throw new IllegalStateException("cannot create " + coroutine.getClass().getName()
                + " on Engine.NATIVE: the native engine runs on HotSpot's continuations, which need JDK "
                + Engines.NATIVE_FEATURE_VERSION + " or newer, and this JVM is " + runningJdk
                + "; create it on Engine.WOVEN with its classes woven, or run on JDK "
                + Engines.NATIVE_FEATURE_VERSION + " or newer");
    }

    @Override
    public CoroutineBase runningCoroutine() {
        return null;
    }

    @Override
    public FrameTransfer currentTransfer() {
        return null;
    }
}
