package dev.weft.sessions;

import dev.weft.Engine;
import dev.weft.sessions.flows.Ledger;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One node of {@link PostgresNodesStressTest}, a JVM of its own: reads requests from standard
 * input, one a line, runs each on a pool of threads against the PostgreSQL store, and writes one
 * reply line per request to standard output.
 *
 * <pre>
 * request: ID start SESSION STEPS INPUT | ID resume SESSION VERSION INPUT
 * reply:   ID ok VERSION FINISHED OUTPUT | ID busy | ID conflict VERSION STATUS | ID error MESSAGE
 * </pre>
 *
 * It prints {@code ready} once its store is open, and ends when its input ends (or it is killed).
 * Arguments: the store's URL, the number of worker threads, how many sessions it keeps
 * resident ({@link Sessions.Builder#keepResident}), and the engine its steps run on
 * ({@code NATIVE} or {@code WOVEN}, {@link Sessions.Builder#engine}).
 */
public final class StressNode {

    private StressNode() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (SessionStore store = SessionStore.postgres(args[0], "postgres", null)) {
            Sessions sessions = Sessions.builder(store).keepFinished(true)
                    .keepResident(Integer.parseInt(args[2])).engine(Engine.valueOf(args[3])).build();
            ExecutorService workers = Executors.newFixedThreadPool(Integer.parseInt(args[1]));
            reply(out, "ready");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String request = line;
                workers.execute(() -> reply(out, handle(sessions, request)));
            }
            workers.shutdown();
        }
    }

    private static String handle(Sessions sessions, String request) {
        String[] f = request.split(" ", 5);
        String id = f[0];
        try {
            SessionStep<String> step = "start".equals(f[1])
                    ? sessions.start(f[2], ledger(f[2], Integer.parseInt(f[3])), f[4])
                    : sessions.resume(f[2], Long.parseLong(f[3]), f[4]);
            return id + " ok " + step.version() + " " + step.finished() + " " + step.output();
        } catch (SessionBusyException e) {
            return id + " busy";
        } catch (SessionConflictException e) {
            return id + " conflict " + e.currentVersion() + " " + e.status();
        } catch (RuntimeException e) {
            return id + " error " + String.valueOf(e).replace('\n', ' ');
        }
    }

    /** Session {@code id}'s ledger: a quiet one for the ids {@link PostgresNodesStressTest} names so. */
    private static Ledger ledger(String id, int steps) {
        return id.startsWith(PostgresNodesStressTest.QUIET) ? Ledger.quiet(steps) : new Ledger(steps);
    }

    private static void reply(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
