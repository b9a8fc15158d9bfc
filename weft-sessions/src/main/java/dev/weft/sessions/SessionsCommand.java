package dev.weft.sessions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.crypto.spec.SecretKeySpec;

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
 * Columns are separated by tabs; a session whose stored row is not to be trusted (a column out
 * of range, or a seal that does not match) is listed with its id, {@code ?} for what the store
 * says, and the reason; text from the store is printed with its control characters as {@code ?}.
 * It changes nothing. For a store of sealed rows, give it the nodes' key ({@code --key FILE}, the
 * key's raw bytes): without it, every sealed session is listed as refused.
 */
public final class SessionsCommand {

    private static final String USAGE = "usage: SessionsCommand (--sqlite FILE | --postgres URL [--user USER]"
            + " [--password PASSWORD]) [--key FILE] (builds | list)";

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
        String keyFile = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            boolean hasValue = i + 1 < args.length;
            switch (arg) {
                case "--sqlite" -> sqlite = hasValue ? args[++i] : null;
                case "--postgres" -> postgres = hasValue ? args[++i] : null;
                case "--user" -> user = hasValue ? args[++i] : null;
                case "--password" -> password = hasValue ? args[++i] : null;
                case "--key" -> keyFile = hasValue ? args[++i] : null;
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
            Sessions.Builder builder = Sessions.builder(store).classLoader(loader);
            if (keyFile != null) {
                builder.sealWith(new SecretKeySpec(Files.readAllBytes(Path.of(keyFile)), "HmacSHA256"));
            }
            Sessions sessions = builder.build();
            if (command.equals("builds")) {
                out.println("BUILD\tSESSIONS\tTHIS NODE");
                for (Sessions.BuildSummary build : sessions.builds()) {
                    out.println((build.build() == null ? "(ended)" : field(build.build())) + "\t" + build.sessions()
                            + "\t" + field(verdict(build.build() == null, build.refusal())));
                }
            } else {
                out.println("ID\tSTATUS\tVERSION\tBUILD\tPOINT\tTHIS NODE");
                for (Sessions.Listing listing : sessions.listing()) {
                    SessionInfo info = listing.info();
                    out.println(info == null ? field(listing.id()) + "\t?\t?\t?\t?\trefused: " + field(listing.refusal())
                            : field(info.id()) + "\t" + info.status() + "\t" + info.version() + "\t"
                                    + field(info.build()) + "\t" + field(info.point()) + "\t"
                                    + field(verdict(info.status() != SessionStatus.SUSPENDED, listing.refusal())));
                }
            }
        } catch (IOException e) {
            err.println("cannot read the key: " + e);
            return 2;
        }
        return 0;
    }

    /** A text from the store as one field of a line: its control characters (tabs, line ends) shown as '?'. */
    private static String field(String text) {
        return text == null ? "-" : text.chars().map(c -> c < 0x20 || c == 0x7f ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    private static String verdict(boolean ended, String refusal) {
        return ended ? "ended" : refusal == null ? "accepted" : "refused: " + refusal;
    }
}
