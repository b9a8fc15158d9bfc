package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;

/**
 * Takes {@code expected} messages, one a step, whoever sends them, then returns
 * {@code "collected N"}: each step that a message resumes writes {@code "message M"} to the
 * ledger through the step's transaction, so that a message taken twice, lost, or taken out of the
 * order its sender sent it in shows there.
 */
public final class Collector implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final int expected;

    public Collector(int expected) {
        this.expected = expected;
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        for (int got = 0; got < expected; got++) {
            StepContext.current().awaitMessage();
            Object message = self.ret("collected " + got);
            LedgerRows.write("message " + message);
        }
        return "collected " + expected;
    }
}
