package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.bench.StepWatch;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Instant;

/**
 * The timers' workflow of section 9: sleeps until the time of its first input
 * ({@link StepContext#sleepUntil}); the step a worker runs when that time comes tells
 * {@link StepWatch} the time it was due, and ends the session.
 */
public final class SleepingWorkflow implements AsymRunnable<Instant, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends Instant, ? super String> self, Instant due) {
        StepContext.current().sleepUntil(due);
        self.ret("asleep");
        StepContext step = StepContext.current();
        if (!step.timedOut()) {
            throw new IllegalStateException("session " + step.sessionId() + " woke for an input, not its timer");
        }
        StepWatch.ran(step.sessionId(), due);
        return "woke";
    }
}
