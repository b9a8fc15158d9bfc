package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes messages one step at a time until {@code "stop"}: each step that a message resumes writes
 * {@code "message M"} to the table {@code ledger} through the step's transaction, so that a
 * message taken twice or lost shows there. With a {@code timeout}, each wait for a message ends
 * at it, and the session returns what it got. With {@code sleepFirst}, it sleeps that long before
 * its first wait, so that messages sent meanwhile wait in its inbox. A message {@code "hold"}
 * keeps something unserializable across the next {@code ret}: that step cannot be stored.
 */
public final class Mailbox implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final Duration timeout;
    private final Duration sleepFirst;

    public Mailbox(Duration timeout, Duration sleepFirst) {
        this.timeout = timeout;
        this.sleepFirst = sleepFirst;
    }

    /** Waits for messages with no deadline, at once. */
    public Mailbox() {
        this(null, null);
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        if (sleepFirst != null) {
            StepContext.current().sleep(sleepFirst);
            self.ret("asleep");
        }
        List<Object> got = new ArrayList<>();
        Object held = null;
        while (true) {
            if (timeout == null) {
                StepContext.current().awaitMessage();
            } else {
                StepContext.current().awaitMessage(timeout);
            }
            Object message = self.ret("got " + got);
            StepContext context = StepContext.current();
            if (context.timedOut()) {
                return "timed out after " + got + " at step " + context.step();
            }
            Ledger.write(context.step(), "message " + message + (held == null ? "" : " after holding " + held));
            got.add(message);
            held = "hold".equals(message) ? new Object() : null;
            if ("stop".equals(message)) {
                return "stopped after " + got;
            }
        }
    }
}
