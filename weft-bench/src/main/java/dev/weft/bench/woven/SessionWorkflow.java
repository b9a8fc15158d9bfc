package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;

/**
 * The durable sessions benchmark's workflow: suspended {@code frames} woven frames deep (its
 * {@code run} and {@code frames - 1} activations of a helper), it answers each input with the
 * input plus one, forever. Each frame holds a few live values, as real code does.
 */
public final class SessionWorkflow implements AsymRunnable<Integer, Integer>, Serializable {

    private static final long serialVersionUID = 1L;

    private final int frames;

    public SessionWorkflow(int frames) {
        if (frames < 1) {
            throw new IllegalArgumentException("at least one frame: " + frames);
        }
        this.frames = frames;
    }

    @Override
    public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer first) {
        if (frames == 1) {
            int value = first;
            while (true) {
                value = self.ret(value + 1);
            }
        }
        return descend(self, frames - 2, first, "level " + (frames - 2));
    }

    private static int descend(AsymCoroutine<? extends Integer, ? super Integer> self, int more, int input,
            String label) {
        if (more > 0) {
            return descend(self, more - 1, input, label) + label.length();
        }
        int value = input;
        while (true) {
            value = self.ret(value + 1);
        }
    }
}
