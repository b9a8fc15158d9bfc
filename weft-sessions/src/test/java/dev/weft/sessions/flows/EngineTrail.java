package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import java.io.Serializable;

/**
 * Keeps every input in a local and answers with them and the engine the step ran on, so that a
 * test sees both the state a step resumed with and which engine resumed it. Input {@code "end"}
 * finishes it.
 */
public final class EngineTrail implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        String trail = first;
        while (true) {
            String input = answer(self, trail);
            if ("end".equals(input)) {
                return trail + " end, ended on " + self.engine();
            }
            trail = trail + " " + input;
        }
    }

    private static String answer(AsymCoroutine<? extends String, ? super String> self, String trail) {
        return self.ret(trail + " on " + self.engine());
    }
}
