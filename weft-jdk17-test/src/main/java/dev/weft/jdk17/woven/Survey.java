package dev.weft.jdk17.woven;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;

/** A session's body: two questions, each a {@code ret}, and the answers summed up at the end. */
public final class Survey implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String ignored) {
        String name = self.ret("name?");
        int visits = Integer.parseInt(self.ret("visits, " + name + "?"));
        return name + " visited " + visits + (visits == 1 ? " time" : " times");
    }
}
