package dev.weft.sessions.upgraded;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;
import java.io.Serializable;
import java.util.Map;

/**
 * Version 2 of the sign-up form: a name, an e-mail address, and a question about the newsletter.
 * {@link #fromEmail} carries on a version 1 session waiting at its point "email".
 */
public final class Signup implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 2L;

    /** The name a session moved from version 1 already gave; null for a new session. */
    private final String known;

    public Signup() {
        this(null);
    }

    private Signup(String known) {
        this.known = known;
    }

    /** The upgrade of a session at version 1's point "email": its first input is the e-mail address. */
    public static AsymRunnable<String, String> fromEmail(Map<String, Object> values) {
        return new Signup((String) values.get("name"));
    }

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        String name;
        String email;
        if (known == null) {
            StepContext.current().suspendingAt("name", Map.of());
            name = self.ret("v2: your name?");
            StepContext.current().suspendingAt("email", Map.of("name", name));
            email = self.ret("v2: your e-mail, " + name + "?");
        } else {
            name = known;
            email = first;
        }
        StepContext.current().suspendingAt("newsletter", Map.of("name", name, "email", email));
        String newsletter = self.ret("v2: the newsletter, " + name + "?");
        return "v2 signed up " + name + " <" + email + "> newsletter=" + newsletter;
    }
}
