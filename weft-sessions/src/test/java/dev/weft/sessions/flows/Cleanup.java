package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;

/**
 * Asks two questions inside a {@code try} whose {@code finally} writes {@code "cleanup"} to the
 * ledger through the step's transaction, and then, with {@code throwing}, throws; with
 * {@code failing}, input {@code "boom"} throws from the body.
 */
public final class Cleanup implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final boolean throwing;

    public Cleanup(boolean throwing) {
        this.throwing = throwing;
    }

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        try {
            String a = self.ret("first?");
            if ("boom".equals(a)) {
                throw new IllegalStateException("boom");
            }
            String b = self.ret("second?");
            return a + " " + b;
        } finally {
            Ledger.write(StepContext.current().step(), "cleanup");
            if (throwing) {
                throw new IllegalStateException("the cleanup failed");
            }
        }
    }
}
