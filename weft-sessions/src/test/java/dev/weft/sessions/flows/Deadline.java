package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;

/** Asks for a confirmation and waits {@code timeout} for it; says whether it came or the deadline did. */
public final class Deadline implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final Duration timeout;

    public Deadline(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        StepContext.current().awaitInput(timeout);
        String answer = self.ret("Do you confirm?");
        return StepContext.current().timedOut() ? "timed out with " + answer : "answered " + answer;
    }
}
