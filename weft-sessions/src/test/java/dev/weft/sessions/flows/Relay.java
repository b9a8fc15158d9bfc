package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;

/**
 * A session that sends another one messages from its steps: it writes {@code "start"} to the
 * ledger, then {@code messages} times sleeps {@code nap} and, in the step a worker runs when it
 * wakes, sends {@code "ID#K"} (its id, the message's number) to session {@code target} in the
 * step's transaction ({@link StepContext#send}) and writes {@code "sent ID#K"}: message and row
 * commit with the step, exactly once. It returns {@code "relayed N"}.
 */
public final class Relay implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final String target;
    private final int messages;
    private final Duration nap;

    public Relay(String target, int messages, Duration nap) {
        this.target = target;
        this.messages = messages;
        this.nap = nap;
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        LedgerRows.write("start");
        for (int k = 1; k <= messages; k++) {
            StepContext.current().sleep(nap);
            self.ret("sent " + (k - 1));
            StepContext step = StepContext.current();
            String message = step.sessionId() + "#" + k;
            step.send(target, message);
            LedgerRows.write("sent " + message);
        }
        return "relayed " + messages;
    }
}
