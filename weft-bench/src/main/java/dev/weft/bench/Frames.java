package dev.weft.bench;

import org.openjdk.jmh.annotations.CompilerControl;

/**
 * Puts a given number of Java frames on the stack before running some code, for the
 * benchmarks whose cost may depend on the depth at which a coroutine suspends.
 */
final class Frames {

    private Frames() {
    }

    /**
     * Calls itself until {@code frames} activations of this method are on the stack, then runs
     * {@code atBottom} in the innermost one. Never inlined under JMH, so each activation is a
     * physical frame; the addition after the call keeps every frame live.
     */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int descend(int frames, Runnable atBottom) {
        if (frames <= 1) {
            atBottom.run();
            return 1;
        }
        return descend(frames - 1, atBottom) + 1;
    }
}
