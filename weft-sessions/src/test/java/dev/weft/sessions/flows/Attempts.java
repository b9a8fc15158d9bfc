package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;

/**
 * A body whose second step fails its first {@code failures} attempts ({@link StepContext#attempt}):
 * its first step writes {@code "start at attempt 1"} to the ledger and sleeps {@code nap}; its
 * second, run by a worker, writes a row and throws {@link Refusal} while its attempt is
 * {@code failures} or less (the row rolls back with the failure), and else writes and returns
 * {@code "succeeded at attempt N"}. With a retry policy of more than {@code failures} attempts,
 * it ends at attempt {@code failures + 1} exactly, however often its runs die with their node.
 */
public final class Attempts implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    /** What a failing attempt throws: retry policies may retry this alone. */
    public static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message);
        }
    }

    private final int failures;
    private final Duration nap;

    public Attempts(int failures, Duration nap) {
        this.failures = failures;
        this.nap = nap;
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        LedgerRows.write("start at attempt " + StepContext.current().attempt());
        StepContext.current().sleep(nap);
        self.ret("asleep");
        int attempt = StepContext.current().attempt();
        if (attempt <= failures) {
            LedgerRows.write("failed at attempt " + attempt);
            throw new Refusal("attempt " + attempt + " of " + StepContext.current().sessionId() + " refused");
        }
        LedgerRows.write("succeeded at attempt " + attempt);
        return "succeeded at attempt " + attempt;
    }
}
