package dev.weft.sessions.upgraded;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;
import java.io.Serializable;
import java.util.Map;

/** Version 1 of a sign-up form: a name, then an e-mail address. */
public final class Signup implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        StepContext.current().suspendingAt("name", Map.of());
        String name = self.ret("v1: your name?");
        StepContext.current().suspendingAt("email", Map.of("name", name));
        String email = self.ret("v1: your e-mail, " + name + "?");
        return "v1 signed up " + name + " <" + email + ">";
    }
}
