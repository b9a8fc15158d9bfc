package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;

/**
 * Waits for a caller's input, a {@link Duration}, and in the step that input resumes sleeps that
 * long (with {@code writes}, after writing {@code "snooze D"} to the ledger through the step's
 * transaction, so that its body takes the connection); then says how it woke.
 */
public final class Snooze implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final boolean writes;

    public Snooze(boolean writes) {
        this.writes = writes;
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        Duration nap = (Duration) self.ret("how long?");
        if (writes) {
            Ledger.write(StepContext.current().step(), "snooze " + nap);
        }
        StepContext.current().sleep(nap);
        self.ret("asleep");
        return "woke at step " + StepContext.current().step() + ", timed out " + StepContext.current().timedOut();
    }
}
