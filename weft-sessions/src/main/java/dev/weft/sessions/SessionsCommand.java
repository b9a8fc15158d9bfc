package dev.weft.sessions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The sessions of a store as this node sees them, on the command line: which builds they were
 * stored by, and whether this node's code (its class path) can resume them, and if not, why.
 *
 * <pre>
 * java -cp app.jar:weft-sessions.jar:... dev.weft.sessions.SessionsCommand --sqlite sessions.db builds
 * java -cp ... dev.weft.sessions.SessionsCommand --postgres jdbc:postgresql://db/app --user app --password secret list
 * </pre>
 *
 * {@code builds} prints one line per build: its fingerprint, how many sessions have it, and this
 * node's verdict; {@code list} one line per session: id, status, version, build, point, verdict.
 * Columns are separated by tabs. It changes nothing.
 */
public final class SessionsCommand {

    private static final String USAGE = "usage: SessionsCommand (--sqlite FILE | --postgres URL [--user USER]"
            + " [--password PASSWORD]) (builds | list)";

    private SessionsCommand() {
    }

    /**
     * Runs the command; on a usage error it exits with status 2.
     *
     * @param args the store and the listing, as {@value #USAGE} says
     */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err, Thread.currentThread().getContextClassLoader());
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the command with {@code loader} as this node's code; returns the exit status (0, or
     * 2 for a usage error).
     */
    static int run(String[] args, PrintStream out, PrintStream err, ClassLoader loader) {
        String sqlite = null;
        String postgres = null;
        String user = null;
        String password = null;
        String command = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            boolean hasValue = i + 1 < args.length;
            switch (arg) {
                case "--sqlite" -> sqlite = hasValue ? args[++i] : null;
                case "--postgres" -> postgres = hasValue ? args[++i] : null;
                case "--user" -> user = hasValue ? args[++i] : null;
                case "--password" -> password = hasValue ? args[++i] : null;
                case "builds", "list" -> command = arg;
                default -> {
                    err.println("unknown argument " + arg + "\n" + USAGE);
                    return 2;
                }
            }
        }
        if (command == null || (sqlite == null) == (postgres == null)) {
            err.println(USAGE);
            return 2;
        }
        try (SessionStore store = sqlite != null ? SessionStore.sqlite(Path.of(sqlite))
                : SessionStore.postgres(postgres, user, password)) {
            Sessions sessions = Sessions.builder(store).classLoader(loader).build();
            if (command.equals("builds")) {
                out.println("BUILD\tSESSIONS\tTHIS NODE");
                for (Sessions.BuildSummary build : sessions.builds()) {
                    out.println((build.build() == null ? "(ended)" : build.build()) + "\t" + build.sessions() + "\t"
                            + verdict(build.build() == null, build.refusal()));
                }
            } else {
                out.println("ID\tSTATUS\tVERSION\tBUILD\tPOINT\tTHIS NODE");
                List<SessionInfo> all = sessions.list();
                for (SessionInfo info : all) {
                    String refusal = sessions.refusal(info.id()).orElse(null);
                    out.println(info.id() + "\t" + info.status() + "\t" + info.version() + "\t"
                            + (info.build() == null ? "-" : info.build()) + "\t"
                            + (info.point() == null ? "-" : info.point()) + "\t"
                            + verdict(info.status() != SessionStatus.SUSPENDED, refusal));
                }
            }
        }
        return 0;
    }

    private static String verdict(boolean ended, String refusal) {
        return ended ? "ended" : refusal == null ? "accepted" : "refused: " + refusal;
    }
}
