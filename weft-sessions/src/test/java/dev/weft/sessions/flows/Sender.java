package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends {@code messages} to session {@code target} from its first step, in the step's
 * transaction ({@link StepContext#send}), writing {@code "sent M"} to the ledger for each; then
 * throws {@code IllegalStateException("after sending")} if {@code fail}, else returns
 * {@code "sent N"}.
 */
public final class Sender implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final String target;
    private final List<String> messages;
    private final boolean fail;

    public Sender(String target, List<String> messages, boolean fail) {
        this.target = target;
        this.messages = new ArrayList<>(messages);
        this.fail = fail;
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        for (String message : messages) {
            StepContext.current().send(target, message);
            LedgerRows.write("sent " + message);
        }
        if (fail) {
            throw new IllegalStateException("after sending");
        }
        return "sent " + messages.size();
    }
}
