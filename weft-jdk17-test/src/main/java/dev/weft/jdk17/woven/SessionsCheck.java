package dev.weft.jdk17.woven;

import dev.weft.sessions.SessionStep;
import dev.weft.sessions.SessionStore;
import dev.weft.sessions.Sessions;

import java.nio.file.Path;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * What weft-jdk17-test's test runs in a JDK 17 to check weft-sessions there: a sealed session
 * started in an SQLite file, then answered to its end by a second {@code Sessions} on the same
 * file, as another process would. One line per step on standard output; the database file is
 * the first argument. Any failure ends it with an exception, and a non-zero status.
 */
public final class SessionsCheck {

    private SessionsCheck() {
    }

    public static void main(String[] args) throws Exception {
        Path database = Path.of(args[0]);
        SecretKey key = new SecretKeySpec(new byte[32], "HmacSHA256");
        SessionStep<String> step;
        try (SessionStore store = SessionStore.sqlite(database)) {
            step = Sessions.builder(store).sealWith(key).build().start(new Survey(), null);
            System.out.println(line(step));
        }
        try (SessionStore store = SessionStore.sqlite(database)) {
            Sessions sessions = Sessions.builder(store).sealWith(key).build();
            step = sessions.resume(step.id(), step.version(), "Ada");
            System.out.println(line(step));
            step = sessions.resume(step.id(), step.version(), "3");
            System.out.println(line(step));
            System.out.println("stored afterwards: " + sessions.status(step.id()).isPresent());
        }
    }

    private static String line(SessionStep<String> step) {
        return "version " + step.version() + (step.finished() ? ", finished: " : ": ") + step.output();
    }
}
