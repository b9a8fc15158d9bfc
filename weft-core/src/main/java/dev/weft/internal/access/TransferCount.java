package dev.weft.internal.access;

/**
 * The JVM-wide count of frame captures and restores in progress, which sends every woven method
 * in the JVM down its slow path (it asks for a frame after each call) while it is not zero.
 * Implemented by {@code dev.weft.internal.frames.FrameTransfer}, beside the count; reached only
 * through {@link SharedAccess#transferCount()}, which hands it to Weft's own classes alone, so
 * that no other code can raise or lower it. Woven code only reads the count, through
 * {@code dev.weft.internal.woven.WovenFrames.active()}.
 *
 * <p>Any thread; each call is atomic. Every {@link #begin()} must be matched by one
 * {@link #end()}, or woven code stays on its slow path.
 */
public interface TransferCount {

    /** A capture or restore begins: woven code must look for its transfer after each call. */
    void begin();

    /** A capture or restore has ended. */
    void end();
}
