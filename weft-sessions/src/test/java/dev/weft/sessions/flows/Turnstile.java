package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;

/**
 * Counts the steps it runs and answers each input with the count and the input
 * ({@code "2:b"}), writing nothing of its own to the database (it never takes the step's
 * connection); an input {@code "gate"} holds its step at the {@link Gate}.
 */
public final class Turnstile implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        String input = first;
        for (int count = 1; ; count++) {
            if ("gate".equals(input)) {
                Gate.pass();
            }
            input = self.ret(count + ":" + input);
        }
    }
}
