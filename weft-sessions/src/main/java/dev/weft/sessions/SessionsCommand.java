package dev.weft.sessions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.spec.SecretKeySpec;

/**
 * The sessions of a store as this node sees them, on the command line: which builds they were
 * stored by, and whether this node's code (its class path) can resume them, and if not, why.
 *
 * <pre>
 * java -cp app.jar:weft-sessions.jar:... dev.weft.sessions.SessionsCommand --sqlite sessions.db builds
 * java -cp ... dev.weft.sessions.SessionsCommand --postgres jdbc:postgresql://db/app --user app --password secret list
 * java -cp ... dev.weft.sessions.SessionsCommand --sqlite sessions.db list --status SUSPENDED --waiting SLEEP --limit 50
 * java -cp ... dev.weft.sessions.SessionsCommand --sqlite sessions.db history 6f1c...
 * java -cp ... dev.weft.sessions.SessionsCommand --sqlite sessions.db stack 6f1c...
 * WEFT_CONSOLE_TOKEN=... java -cp ... dev.weft.sessions.SessionsCommand --sqlite sessions.db console --port 8081
 * </pre>
 *
 * {@code builds} prints one line per build: its fingerprint, how many sessions have it, and this
 * node's verdict; {@code list} one line per session, oldest first: id, status, version, build,
 * point, what it waits for until when ({@code SLEEP until 2026-01-01T00:05:00Z}, or {@code -}),
 * verdict. {@code list} takes the filters of {@link SessionQuery}: {@code --status S[,S...]},
 * {@code --build B}, {@code --point P}, {@code --waiting KIND[,KIND...]} or {@code --waiting none},
 * {@code --due-before INSTANT} (ISO-8601, {@code 2026-01-01T00:00:00Z}), {@code --parent ID} (the
 * sessions that session started, {@link StepContext#startChild}); it lists every session
 * that passes them, a page at a time, unless given {@code --limit N} (1 to
 * {@value SessionQuery#MAX_LIMIT}) or {@code --after CURSOR}: then one page, and if more follow,
 * the line {@code more: --after CURSOR} on the error stream, to list the next page with.
 * {@code history ID} prints the step history of session {@code ID} ({@link Sessions#history}), one
 * line per step, oldest first: version, start, node, duration in microseconds, engine, status,
 * what it waits for next (as {@code list} shows it), and the first line of its failure
 * ({@code -} for none). {@code stack ID} prints session {@code ID}'s frames as {@link Sessions#stack}
 * reads them, innermost first, as a stack trace prints them ({@code at Class.method(File.java:48)}),
 * each followed by its variables, one per line ({@code     name (type) = value}); or why there
 * are none.
 * {@code changes} lists each suspended session with what its next step would do on this node's
 * code, as a node that {@linkplain Sessions.Builder#acceptChangedCode() accepts changed code}
 * (the node's classes the command's class path): id, version, build, and {@code resumes: same
 * code}, {@code resumes: changed code, every frame fits}, {@code resumes: upgrade at point 'P'},
 * or {@code refused: } and why, naming the frame, the line and the variable that do not fit; it
 * reads every frame as a resume would and changes nothing (a dry run). {@code changes --move}
 * then moves each session listed as resuming on changed code onto this node's code
 * ({@link Sessions#moveToThisBuild}) and says {@code moved}, or why not, after its verdict.
 * {@code console} serves the {@link SessionConsole} on this store until the process is stopped, on
 * {@code --port N} (default 8081) of {@code --bind ADDRESS} (default 127.0.0.1, this machine
 * only), and prints its address; it is read-only unless the environment variable
 * {@code WEFT_CONSOLE_TOKEN} holds a token (at least 16 characters; an environment variable,
 * because a command line is visible to every user of the machine), which allows its actions.
 * Columns are separated by tabs; a session whose stored row is not to be trusted (a column out
 * of range, or a seal that does not match) is listed with its id, {@code ?} for what the store
 * says, and the reason; text from the store is printed with its control characters as {@code ?}.
 * It changes nothing, but for {@code changes --move}. For a store of sealed rows, give it the nodes' key ({@code --key FILE}, the
 * key's raw bytes): without it, every sealed session is listed as refused.
 */
public final class SessionsCommand {

    private static final String USAGE = "usage: SessionsCommand (--sqlite FILE | --postgres URL [--user USER]"
            + " [--password PASSWORD]) [--key FILE] (builds | list [--status S[,S...]] [--build B] [--point P]"
            + " [--waiting KIND[,KIND...]|none] [--due-before INSTANT] [--parent ID] [--limit N] [--after CURSOR]"
            + " | history ID | stack ID | changes [--move] | console [--port N] [--bind ADDRESS])";

    /** The environment variable that holds the console's token. */
    static final String TOKEN_VARIABLE = "WEFT_CONSOLE_TOKEN";

    /** The options, each followed by its value. */
    private static final java.util.Set<String> OPTIONS = java.util.Set.of("--sqlite", "--postgres", "--user",
            "--password", "--key", "--status", "--build", "--point", "--waiting", "--due-before", "--parent",
            "--limit", "--after", "--port", "--bind");

    /** The commands that take a session's id. */
    private static final java.util.Set<String> OF_ONE_SESSION = java.util.Set.of("history", "stack");

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
        return run(args, out, err, loader, System.getenv(TOKEN_VARIABLE));
    }

    /** {@link #run(String[], PrintStream, PrintStream, ClassLoader)} with {@code token} as the console's. */
    static int run(String[] args, PrintStream out, PrintStream err, ClassLoader loader, String token) {
        String sqlite = null;
        String postgres = null;
        String user = null;
        String password = null;
        String command = null;
        String keyFile = null;
        String sessionId = null;
        int port = 8081;
        String bind = "127.0.0.1";
        SessionQuery everything = SessionQuery.all().limit(SessionQuery.MAX_LIMIT);
        SessionQuery query = everything;
        boolean onePage = false;
        boolean move = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("builds") || arg.equals("list") || arg.equals("console") || arg.equals("changes")) {
                command = arg;
                continue;
            }
            if (arg.equals("--move")) {
                move = true;
                continue;
            }
            if (OF_ONE_SESSION.contains(arg)) {
                if (i + 1 == args.length) {
                    err.println(arg + " takes a session's id\n" + USAGE);
                    return 2;
                }
                command = arg;
                sessionId = args[++i];
                continue;
            }
            if (!OPTIONS.contains(arg)) {
                err.println("unknown argument " + arg + "\n" + USAGE);
                return 2;
            }
            if (i + 1 == args.length) {
                err.println(arg + " takes a value\n" + USAGE);
                return 2;
            }
            String value = args[++i];
            try {
                switch (arg) {
                    case "--sqlite" -> sqlite = value;
                    case "--postgres" -> postgres = value;
                    case "--user" -> user = value;
                    case "--password" -> password = value;
                    case "--key" -> keyFile = value;
                    case "--status" -> query = query.status(values(value, SessionStatus.class)
                            .toArray(SessionStatus[]::new));
                    case "--build" -> query = query.build(value);
                    case "--point" -> query = query.point(value);
                    case "--parent" -> query = query.parent(value);
                    case "--waiting" -> query = "none".equals(value) ? query.waitingForNothing()
                            : query.waitingFor(values(value, SessionInfo.WaitKind.class)
                                    .toArray(SessionInfo.WaitKind[]::new));
                    case "--due-before" -> query = query.dueBefore(Instant.parse(value));
                    case "--limit" -> query = query.limit(Integer.parseInt(value));
                    case "--port" -> port = port(value);
                    case "--bind" -> bind = value;
                    default -> query = query.after(value);
                }
            } catch (IllegalArgumentException | DateTimeParseException e) {
                err.println("cannot take " + arg + " " + field(value) + ": " + e.getMessage() + "\n" + USAGE);
                return 2;
            }
            onePage |= arg.equals("--limit") || arg.equals("--after");
        }
        if (!"list".equals(command) && command != null && !query.equals(everything)) {
            err.println(command + " takes no filters: they are list's\n" + USAGE);
            return 2;
        }
        if (move && !"changes".equals(command)) {
            err.println("--move is changes' option\n" + USAGE);
            return 2;
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
            if (command.equals("changes")) {
                builder.acceptChangedCode();
            }
            Sessions sessions = builder.build();
            if (command.equals("console")) {
                return serve(sessions, bind, port, token, out, err);
            }
            if (command.equals("stack")) {
                return printStack(sessions, sessionId, out, err);
            }
            if (command.equals("changes")) {
                printChanges(sessions, move, out);
            } else if (command.equals("history")) {
                out.println("VERSION\tSTARTED\tNODE\tMICROS\tENGINE\tSTATUS\tWAITING\tFAILURE");
                sessions.history(sessionId).forEach(entry -> out.println(line(entry)));
            } else if (command.equals("builds")) {
                out.println("BUILD\tSESSIONS\tTHIS NODE");
                for (Sessions.BuildSummary build : sessions.builds()) {
                    out.println((build.build() == null ? "(ended)" : field(build.build())) + "\t" + build.sessions()
                            + "\t" + field(verdict(build.build() == null, build.refusal())));
                }
            } else {
                out.println("ID\tSTATUS\tVERSION\tBUILD\tPOINT\tWAITING\tTHIS NODE");
                SessionListing.Page<SessionListing.Listing> page;
                do {
                    page = sessions.listing().listing(query);
                    page.items().forEach(listing -> out.println(line(listing)));
                    query = query.after(page.next());
                } while (page.next() != null && !onePage);
                if (page.next() != null) {
                    err.println("more: --after " + page.next());
                }
            }
        } catch (IOException e) {
            err.println("cannot read the key: " + e);
            return 2;
        }
        return 0;
    }

    private static int port(String value) {
        int port = Integer.parseInt(value);
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("a port is 0 to 65535 (0: any free one)");
        }
        return port;
    }

    /** Serves the console until the process is stopped; returns 1 if it cannot listen. */
    private static int serve(Sessions sessions, String bind, int port, String token, PrintStream out,
            PrintStream err) {
        SessionConsole console;
        try {
            console = SessionConsole.builder(sessions).token(token).build();
        } catch (IllegalArgumentException e) {
            err.println("cannot take " + TOKEN_VARIABLE + ": " + e.getMessage());
            return 2;
        }
        com.sun.net.httpserver.HttpServer server;
        try {
            server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress(bind, port), 0);
        } catch (IOException e) {
            err.println("cannot listen on " + bind + ":" + port + ": " + e);
            return 1;
        }
        server.createContext("/", console.httpHandler());
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);
        server.setExecutor(threads);
        server.start();
        out.println("console: http://" + bind + ":" + server.getAddress().getPort() + "/ ("
                + (token == null ? "read-only: " + TOKEN_VARIABLE + " is not set" : "actions allowed after sign-in")
                + ")");
        out.flush();
        try {
            new java.util.concurrent.CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            server.stop(0);
            threads.shutdown();
        }
        return 0;
    }

    /** Lists the suspended sessions as {@code changes} does, moving those that resume on changed code if {@code move}. */
    private static void printChanges(Sessions sessions, boolean move, PrintStream out) {
        out.println("ID\tVERSION\tBUILD\tTHIS NODE" + (move ? "\tMOVE" : ""));
        SessionQuery query = SessionQuery.all().limit(SessionQuery.MAX_LIMIT);
        SessionListing.Page<SessionListing.Change> page;
        do {
            page = sessions.listing().changes(query);
            for (SessionListing.Change change : page.items()) {
                String line = field(change.id()) + "\t" + change.version() + "\t" + field(change.build()) + "\t"
                        + field(change.verdict());
                if (move && change.verdict().equals(RowReader.CHANGED_CODE)) {
                    line += "\t" + field(moved(sessions, change));
                }
                out.println(line);
            }
            query = query.after(page.next());
        } while (page.next() != null);
    }

    /** Moves {@code change}'s session to this node's code: {@code moved}, or why not. */
    private static String moved(Sessions sessions, SessionListing.Change change) {
        try {
            return sessions.moveToThisBuild(change.id(), change.version()) ? "moved" : "not moved: nothing to move";
        } catch (SessionException e) {
            return "not moved: " + e.getMessage();
        }
    }

    /** Prints session {@code id}'s stack as {@code stack} does; 1 if there is no such session. */
    private static int printStack(Sessions sessions, String id, PrintStream out, PrintStream err) {
        java.util.Optional<SessionStack> stack = sessions.stack(id);
        if (stack.isEmpty()) {
            err.println("no session " + field(id));
            return 1;
        }
        if (stack.get().refusal() != null) {
            out.println("no frames: " + field(stack.get().refusal()));
            return 0;
        }
        for (SessionStack.Frame frame : stack.get().frames()) {
            out.println("at " + field(frame.place().toString()));
            for (SessionStack.Variable variable : frame.variables()) {
                String name = variable.name() != null ? variable.name()
                        : (variable.onStack() ? "stack slot " : "slot ") + variable.slot();
                out.println("    " + name + " (" + (variable.type() == null ? "?" : variable.type()) + ") = "
                        + field(variable.value()));
            }
        }
        return 0;
    }

    /** One session as a line of {@code list}. */
    private static String line(SessionListing.Listing listing) {
        SessionInfo info = listing.info();
        if (info == null) {
            return field(listing.id()) + "\t?\t?\t?\t?\t?\trefused: " + field(listing.refusal());
        }
        return field(info.id()) + "\t" + info.status() + "\t" + info.version() + "\t" + field(info.build()) + "\t"
                + field(info.point()) + "\t" + waiting(info.waiting())
                + "\t" + field(verdict(info.status() != SessionStatus.SUSPENDED, listing.refusal()));
    }

    /** One step of a session's history as a line of {@code history}. */
    private static String line(SessionHistoryEntry entry) {
        String failure = entry.failure() == null ? null : entry.failure().lines().findFirst().orElse("");
        return entry.version() + "\t" + entry.started() + "\t" + field(entry.node()) + "\t"
                + entry.duration().toNanos() / 1_000 + "\t" + (entry.engine() == null ? "-" : entry.engine()) + "\t"
                + (entry.status() == null ? "?" : entry.status()) + "\t" + waiting(entry.waiting()) + "\t"
                + field(failure);
    }

    /** What a session waits for until when, as a field: {@code SLEEP until 2026-01-01T00:05:00Z}, or {@code -}. */
    private static String waiting(SessionInfo.Waiting waiting) {
        return waiting == null ? "-" : waiting.kind() + (waiting.until() == null ? "" : " until " + waiting.until());
    }

    /** The constants of {@code type} named in {@code list}, separated by commas (in any case). */
    private static <E extends Enum<E>> List<E> values(String list, Class<E> type) {
        List<E> values = new ArrayList<>();
        for (String name : list.split(",", -1)) {
            try {
                values.add(Enum.valueOf(type, name.trim().toUpperCase(java.util.Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + field(name) + "' is none of " + java.util.Arrays.toString(
                        type.getEnumConstants()));
            }
        }
        return values;
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
