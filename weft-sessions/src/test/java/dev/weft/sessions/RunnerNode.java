package dev.weft.sessions;

import dev.weft.Engine;
import dev.weft.sessions.flows.Attempts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One node of {@link RunnerKillTest}, a JVM of its own, that runs sessions with nothing but its
 * workers: it opens the store, builds its {@link Sessions} with the test's settings
 * ({@link #settings}: a short poll, the retry policy) and workers, prints
 * {@code ready} on standard output, and runs until its standard input ends (then it closes its
 * sessions, which drains its running steps, and exits) or it is killed. It logs to standard
 * error.
 *
 * <p>It never gives up on the store: opening it is tried again until the database can be
 * reached, and once open, its workers look again after each failure (a server killed and
 * restarted included) until it answers.
 *
 * <p>Arguments: the store (a {@code jdbc:postgresql:} URL, user {@code postgres}, or a SQLite
 * database's path), the engine ({@code NATIVE} or {@code WOVEN}) and the number of workers.
 */
public final class RunnerNode {

    private RunnerNode() {
    }

    public static void main(String[] args) throws Exception {
        try (SessionStore store = open(args[0])) {
            Sessions node = settings(store).engine(Engine.valueOf(args[1]))
                    .workers(Integer.parseInt(args[2])).build();
            System.out.println("ready");
            System.out.flush();
            awaitEnd(System.in);
            node.close();
        }
    }

    /**
     * The settings of every node and of the test's driver: finished sessions kept (so that their
     * outputs can be checked), a 50 ms poll, and a retry policy of {@link RunnerWorkload#ATTEMPTS}
     * attempts 10 to 200 ms apart for {@link Attempts.Refusal} only, so that any other failure
     * shows as a failed session.
     */
    static Sessions.Builder settings(SessionStore store) {
        return Sessions.builder(store).keepFinished(true).pollEvery(Duration.ofMillis(50))
                .retry(RetryPolicy.attempts(RunnerWorkload.ATTEMPTS).backoff(Duration.ofMillis(10), 2,
                        Duration.ofMillis(200)).retryOn(Attempts.Refusal.class));
    }

    /** The store, opened as soon as its database can be reached. */
    private static SessionStore open(String store) throws InterruptedException {
        while (true) {
            try {
                return store.startsWith("jdbc:postgresql:") ? SessionStore.postgres(store, "postgres", null)
                        : SessionStore.sqlite(Path.of(store));
            } catch (SessionStoreUnavailableException e) {
                System.err.println("the node waits for its store: " + e.getMessage());
                TimeUnit.MILLISECONDS.sleep(200);
            }
        }
    }

    private static void awaitEnd(InputStream in) throws IOException {
        while (in.read() >= 0) {
            // nothing is sent: the input only ends
        }
    }
}
