package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;

/**
 * A recurring job: a body that sleeps in a loop. Each round writes one row to the table
 * {@code ledger} through the step's transaction (its round, and how the step began: {@code "start"},
 * {@code "timer"} when a worker resumed it for its sleep, else the input), then sleeps
 * {@code every}; the last round returns. A round that runs as another step than its own number
 * throws, so that a step stored twice or lost fails the session. With {@code gated}, round 2 waits
 * at {@link Gate} before it writes.
 */
public final class Recurring implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final int rounds;
    private final Duration every;
    private final boolean gated;

    public Recurring(int rounds, Duration every) {
        this(rounds, every, false);
    }

    public Recurring(int rounds, Duration every, boolean gated) {
        this.rounds = rounds;
        this.every = every;
        this.gated = gated;
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        Object input = first;
        for (int round = 1;; round++) {
            if (gated && round == 2) {
                Gate.pass();
            }
            record(round, input);
            if (round == rounds) {
                return "done after " + rounds + " rounds";
            }
            StepContext.current().sleep(every);
            input = self.ret("round " + round + " done");
        }
    }

    /** The round's row in the ledger, written in the step's transaction. */
    private static void record(int round, Object input) {
        StepContext context = StepContext.current();
        if (context.step() != round) {
            throw new IllegalStateException("round " + round + " runs as step " + context.step());
        }
        Ledger.write(round, round == 1 ? "start" : context.timedOut() && input == null ? "timer" : "input " + input);
    }
}
