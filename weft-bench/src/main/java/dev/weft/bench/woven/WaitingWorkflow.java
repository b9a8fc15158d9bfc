package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.bench.StepWatch;
import dev.weft.sessions.StepContext;

import java.io.Serializable;

/**
 * The worker-run steps' workflow of section 9: {@link SessionWorkflow}'s shape ({@code frames}
 * woven frames deep, at least two: its {@code run} and activations of a helper, each holding a
 * few live values), answering each input with the input plus
 * one, forever; each step tells {@link StepWatch} its answer. With {@code byMessage}, each
 * suspension waits for a message ({@link StepContext#awaitMessage()}), so that a worker runs the
 * step a {@code send} makes due; without, it waits for a caller's {@code resume}, as
 * {@link SessionWorkflow} does. Both do the same work otherwise.
 */
public final class WaitingWorkflow implements AsymRunnable<Integer, Integer>, Serializable {

    private static final long serialVersionUID = 1L;

    private final int frames;
    private final boolean byMessage;

    public WaitingWorkflow(int frames, boolean byMessage) {
        if (frames < 2) {
            throw new IllegalArgumentException("at least two frames (its run and a helper's): " + frames);
        }
        this.frames = frames;
        this.byMessage = byMessage;
    }

    @Override
    public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer first) {
        return descend(self, frames - 2, first, byMessage, "level " + (frames - 2));
    }

    private static int descend(AsymCoroutine<? extends Integer, ? super Integer> self, int more, int input,
            boolean byMessage, String label) {
        if (more > 0) {
            return descend(self, more - 1, input, byMessage, label) + label.length();
        }
        int value = input;
        while (true) {
            if (byMessage) {
                StepContext.current().awaitMessage();
            }
            value = self.ret(value + 1);
            StepWatch.ran(StepContext.current().sessionId(), value + 1);
        }
    }
}
