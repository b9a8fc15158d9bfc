package com.example.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import java.io.Serializable;

/**
 * Thesis 5.2's interaction as a session's body: each question is a {@code ret}, each answer the
 * next step's input. Serializable, as every session's body is: it is stored with the stack.
 */
public final class Interview implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String ignored) {
        String name = self.ret("Please enter your name:");
        String country = self.ret("Please enter your country:");
        return "Hello " + name + " from " + country;
    }
}
