package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;

/** Sleeps until the {@link Instant} or for the {@link Duration} of its first input, then says how it woke. */
public final class Alarm implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        if (first instanceof Instant time) {
            StepContext.current().sleepUntil(time);
        } else {
            StepContext.current().sleep((Duration) first);
        }
        Object input = self.ret("asleep");
        return "woke at step " + StepContext.current().step() + ", timed out " + StepContext.current().timedOut()
                + ", input " + input;
    }
}
