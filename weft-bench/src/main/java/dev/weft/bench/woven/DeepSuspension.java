package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/**
 * The coroutine of the serialization benchmark: it recurses {@code frames - 2} calls deep (plus
 * {@code run} and the innermost call: {@code frames} woven frames in all, 2 at least; the bridge
 * {@code run(Object)} javac adds is passed through and leaves no frame), each
 * frame holding an int, a long and a reference, then passes out values forever. The build weaves
 * this package (see the pom).
 */
public class DeepSuspension extends AsymCoroutine<Integer, Integer> {

    private final int depth;

    public DeepSuspension(int frames) {
        this(frames, Engine.NATIVE);
    }

    public DeepSuspension(int frames, Engine engine) {
        super(engine);
        this.depth = Math.max(0, frames - 2);
    }

    @Override
    protected Integer run(Integer first) {
        return descend(depth, first, (long) first, "level");
    }

    private int descend(int remaining, int value, long wide, String label) {
        if (remaining == 0) {
            int input = value;
            while (true) {
                input = ret(input + 1);
            }
        }
        return descend(remaining - 1, value + 1, wide * 3, label) + label.length() + (int) wide;
    }
}
