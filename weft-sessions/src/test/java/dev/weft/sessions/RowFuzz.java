package dev.weft.sessions;

import dev.weft.Engine;
import dev.weft.sessions.flows.Fanout;
import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Questionnaire;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import javax.crypto.SecretKey;

/**
 * A fuzz test of whole stored rows: sessions of a few shapes are stored, then each case changes
 * one to three columns of one row behind the sessions' back (bits flipped, bytes cut, NULLs,
 * huge values, another session's values, an older version's, statuses that are none, parents and
 * deadlines made up or moved,
 * numbers out of range, manifests in {@code weft_builds} that are malformed, huge or name
 * missing classes) and calls every way in: resume, status, last output, list, pages of a query, refusal, builds,
 * the command's listing, remove. Each outcome must be a documented one: a refusal that names
 * the session and leaves the row byte for byte as it was, or, for rows written without a key,
 * the changed data taken as data (a resume that runs, a body that fails on it); for sealed rows,
 * nothing changed is ever accepted. Any other exception, or a row changed by a refusal, fails
 * with the case's seed and mutations. One run of {@code cases} cases per kind of row (sealed,
 * not sealed), each case seeded with {@code seed + case}: the case seed a failure prints, given as
 * the seed of a run of one case, replays it (its mutations and calls; the sessions' ids and
 * times are new).
 */
final class RowFuzz {

    private static final List<String> STATUSES = List.of("", "suspended", "RUNNING", "SUSPENDED ", "FINISHED",
            "FAILED", "SUSPENDED", "DELETED", "\u0000");
    private static final List<String> INPUTS = List.of("London", "36", "thirty", "boom", "");

    private final Supplier<Connection> connect;
    private final Supplier<SessionStore> reopen;
    private final Engine engine;
    private final List<String> commandStore;
    private final Map<String, Integer> outcomes = new TreeMap<>();

    /** A stored session: its id and its rows, one per version, the last one current. */
    private record Stored(String id, List<Map<String, Object>> history) {
        Map<String, Object> current() {
            return history.get(history.size() - 1);
        }
    }

    RowFuzz(Supplier<Connection> connect, Supplier<SessionStore> reopen, Engine engine, List<String> commandStore) {
        this.connect = connect;
        this.reopen = reopen;
        this.engine = engine;
        this.commandStore = commandStore;
    }

    /** The count of each outcome so far, by kind of row, call and outcome. */
    Map<String, Integer> outcomes() {
        return outcomes;
    }

    /** Runs {@code cases} cases on rows sealed with {@code key} (null: rows without a seal). */
    void run(long seed, int cases, SecretKey key, Path keyFile) throws Exception {
        List<Stored> sessions = store(key);
        List<Map<String, Object>> sealedRows = new ArrayList<>();
        sessions.forEach(s -> sealedRows.addAll(s.history()));
        for (int i = 0; i < cases; i++) {
            long caseSeed = seed + i;
            runCase(caseSeed, new Random(caseSeed), sessions, key, keyFile, sealedRows);
        }
        try (SessionStore store = reopen.get()) {
            Sessions node = node(store, key);
            for (Stored session : sessions) {
                node.remove(session.id());
            }
        }
    }

    private Sessions node(SessionStore store, SecretKey key) {
        Sessions.Builder builder = Sessions.builder(store).engine(engine).keepFinished(true);
        return (key == null ? builder : builder.sealWith(key)).build();
    }

    /** Sessions of a few shapes, each with its row at each version. */
    private List<Stored> store(SecretKey key) throws SQLException {
        List<Stored> stored = new ArrayList<>();
        try (SessionStore store = reopen.get(); Connection connection = connect.get()) {
            Sessions node = node(store, key);
            for (List<String> inputs : List.of(List.<String>of(), List.of("Ada"), List.of("Ada", "London"),
                    List.of("Bo", "Oslo", "old"))) {
                String id = node.start(new Questionnaire(), null).id();
                stored.add(steps(node, connection, id, inputs));
            }
            stored.add(steps(node, connection, node.start(new Ledger(1_000), "a").id(), List.of("b", "c")));
            String failed = "failed-" + (key == null ? "plain" : "sealed");
            try {
                node.start(failed, new Ledger(3), "boom");
            } catch (SessionFailedException expected) {
                stored.add(new Stored(failed, new ArrayList<>(List.of(StoredRows.read(connection, failed)))));
            }
            String finished = node.start(new Ledger(1), "only").id();
            stored.add(new Stored(finished, new ArrayList<>(List.of(StoredRows.read(connection, finished)))));
            String late = node.start(null, new Questionnaire(), null, java.time.Duration.ofDays(3650)).id();
            stored.add(steps(node, connection, late, List.of("Ada")));
            String parent = "parent-" + (key == null ? "plain" : "sealed");
            node.start(parent, new Fanout(List.of("wait:a"), false), null);
            stored.add(steps(node, connection, parent, List.of()));
            stored.add(steps(node, connection, parent + "-0", List.of()));
        }
        return stored;
    }

    private static Stored steps(Sessions node, Connection connection, String id, List<String> inputs)
            throws SQLException {
        List<Map<String, Object>> history = new ArrayList<>();
        history.add(StoredRows.read(connection, id));
        for (String input : inputs) {
            node.resume(id, input);
            history.add(StoredRows.read(connection, id));
        }
        return new Stored(id, history);
    }

    // ---------------------------------------------------------------- one case

    private void runCase(long seed, Random random, List<Stored> sessions, SecretKey key, Path keyFile,
            List<Map<String, Object>> sealedRows) throws Exception {
        Stored target = sessions.get(random.nextInt(sessions.size()));
        String id = target.id();
        String kind = key == null ? "plain" : "sealed";
        List<String> mutations = new ArrayList<>();
        try (Connection connection = connect.get()) {
            Map<String, String> builds = StoredRows.builds(connection);
            String mutatedId = id;
            try {
                for (int n = 1 + random.nextInt(3); n > 0; n--) {
                    mutatedId = mutate(connection, random, mutatedId, target, sessions, builds, mutations);
                }
            } catch (SQLException notStorable) {
                count(kind, "mutation", "not storable");
                restore(connection, id, mutatedId, target.current(), builds);
                return;
            }
            String context = "case seed " + seed + " (" + kind + " rows, " + engine + ", session " + id
                    + "; replay: -Dweft.rowfuzz.seed=" + seed + " -Dweft.rowfuzz.cases=1): " + String.join("; ", mutations);
            try (SessionStore store = reopen.get()) {
                Sessions node = node(store, key);
                calls(random, node, connection, id, mutatedId, key, keyFile, sealedRows, context);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(context + ": " + e, e);
            } catch (Error e) {
                throw new AssertionError(context + ": an undocumented " + e, e);
            } finally {
                restore(connection, id, mutatedId, target.current(), builds);
            }
        }
    }

    private void calls(Random random, Sessions node, Connection connection, String id, String mutatedId,
            SecretKey key, Path keyFile, List<Map<String, Object>> sealedRows, String context) throws Exception {
        String kind = key == null ? "plain" : "sealed";
        List<String> calls = new ArrayList<>(List.of("status", "lastOutput", "list", "page", "refusal", "builds",
                "listing", "resume"));
        java.util.Collections.shuffle(calls, random);
        if (random.nextInt(20) == 0) {
            calls.add(random.nextInt(calls.size()), "command");
        }
        if (random.nextInt(5) == 0) {
            calls.add("remove");
        }
        for (String call : calls) {
            Map<String, Object> before = StoredRows.read(connection, mutatedId);
            boolean trusted = key == null || before != null && sealedRows.stream().anyMatch(
                    row -> StoredRows.same(withoutManifest(row), withoutManifest(before)));
            String outcome;
            try {
                outcome = call(call, random, node, id, mutatedId, key, keyFile, trusted, context);
            } catch (SessionException e) {
                if (!e.getMessage().startsWith("session " + e.sessionId() + ": ") || !(id.equals(e.sessionId())
                        || mutatedId.equals(e.sessionId()) || e.sessionId() == null && idNull(connection))) {
                    throw new AssertionError(call + " threw for another session, or without naming it: " + e, e);
                }
                outcome = outcomeOf(e, trusted, call);
            }
            count(kind, call, outcome);
            boolean changes = outcome.equals("accepted") && call.equals("resume") || call.equals("remove")
                    || outcome.startsWith("failed by the body");
            if (!changes && !StoredRows.same(before, StoredRows.read(connection, mutatedId))) {
                throw new AssertionError(call + " (" + outcome + ") changed the row: it was "
                        + StoredRows.describe(before) + ", it is " + StoredRows.describe(StoredRows.read(connection,
                                mutatedId)));
            }
            if (changes) {
                return;
            }
        }
    }

    private static boolean idNull(Connection connection) throws SQLException {
        try (var select = connection.prepareStatement("SELECT COUNT(*) FROM weft_sessions WHERE id IS NULL");
                var rows = select.executeQuery()) {
            return rows.next() && rows.getLong(1) > 0;
        }
    }

    /** Runs one call; returns its outcome, or throws what it threw. */
    private String call(String call, Random random, Sessions node, String id, String mutatedId, SecretKey key,
            Path keyFile, boolean trusted, String context) throws Exception {
        switch (call) {
            case "status" -> {
                return node.status(id).map(info -> accepted(trusted, call)).orElse("not found");
            }
            case "lastOutput" -> {
                node.lastOutput(id);
                return node.status(id).isPresent() ? accepted(trusted, call) : "not found";
            }
            case "list" -> {
                return node.list().stream().anyMatch(info -> info.id().equals(mutatedId)) ? accepted(trusted, call)
                        : "not listed";
            }
            case "page" -> {
                return SessionListingContract.all(node, SessionQuery.all().limit(1 + random.nextInt(3)), null)
                        .contains(mutatedId) ? accepted(trusted, call) : "not listed";
            }
            case "refusal" -> {
                return node.refusal(id).map(RowFuzz::reasonClass).orElseGet(
                        () -> node.status(id).isPresent() ? accepted(trusted, call) : "not found");
            }
            case "builds" -> {
                return node.builds().isEmpty() ? "no builds" : "listed";
            }
            case "listing" -> {
                SessionListing.Listing listing = node.listing().listing().stream()
                        .filter(l -> mutatedId.equals(l.id())).findFirst()
                        .orElse(null);
                if (listing == null) {
                    return "not listed";
                }
                if (listing.info() == null) {
                    return "refused: " + reasonClass(listing.refusal());
                }
                return accepted(trusted, call);
            }
            case "command" -> {
                return command(key, keyFile, mutatedId);
            }
            case "resume" -> {
                node.resume(id, INPUTS.get(random.nextInt(INPUTS.size())));
                return accepted(trusted, call);
            }
            case "remove" -> {
                return node.remove(id) ? "removed" : "not found";
            }
            default -> throw new IllegalArgumentException(call);
        }
    }

    private static String accepted(boolean trusted, String call) {
        if (!trusted) {
            throw new AssertionError(call + " accepted a sealed row that differs from every row the key sealed");
        }
        return "accepted";
    }

    private String command(SecretKey key, Path keyFile, String mutatedId) {
        List<String> args = new ArrayList<>(commandStore);
        if (key != null) {
            args.addAll(List.of("--key", keyFile.toString()));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        for (String listing : List.of("list", "builds")) {
            List<String> all = new ArrayList<>(args);
            all.add(listing);
            int status = SessionsCommand.run(all.toArray(String[]::new), new PrintStream(out, true,
                    StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                    RowFuzz.class.getClassLoader());
            if (status != 0) {
                throw new AssertionError("the command's " + listing + " exited with " + status + ": " + err);
            }
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        if (printed.lines().map(line -> line.split("\t", -1).length).anyMatch(fields -> fields != 3 && fields != 7)) {
            throw new AssertionError("the command printed a line that is not one session or build: " + printed);
        }
        return printed.lines().anyMatch(line -> line.contains("refused: ")) ? "listed with a refusal" : "listed";
    }

    /** The outcome a documented exception stands for; any other fails the case. */
    private static String outcomeOf(SessionException e, boolean trusted, String call) {
        if (e instanceof SessionRefusedException refused) {
            return "refused: " + reasonClass(refused.reason());
        }
        if (e instanceof SessionNotFoundException) {
            return "not found";
        }
        if (e instanceof SessionFailedException failed) {
            accepted(trusted, call);
            return failed.getCause() == null ? "accepted: failed before" : "failed by the body";
        }
        if (e instanceof SessionWaitingException) {
            accepted(trusted, call);
            return "accepted: waits for a time";
        }
        if (e instanceof SessionConflictException) {
            accepted(trusted, call);
            return "accepted: conflict (ended)";
        }
        if (e.getClass() == SessionException.class && e.getMessage().contains(": its deadline, ")) {
            accepted(trusted, call);
            return "accepted: its deadline passed";
        }
        if (e.getClass() == SessionException.class && !(e.getCause() instanceof java.sql.SQLException)) {
            accepted(trusted, call);
            return "accepted: state not storable";
        }
        throw new AssertionError("an undocumented exception from " + call + ": " + e, e);
    }

    /** Kinds of reasons whose text names what the store holds: counted by kind. */
    private static final List<Map.Entry<String, String>> REASON_KINDS = List.of(
            Map.entry("^class .* does not exist here or cannot be loaded.*", "a manifest naming a class not here"),
            Map.entry("^method .* does not exist here or is not woven.*", "a manifest naming a method not here"),
            Map.entry("^method .* has other code here.*", "a manifest naming other code"),
            Map.entry("^the stored manifest of build .* is not that build's.*", "a manifest not the build's"),
            Map.entry("^the stored manifest of build .* characters, more than.*", "a manifest too long"),
            Map.entry("^the stored manifest is malformed.*", "a malformed manifest"),
            Map.entry("^its state cannot be restored here: ([\\w.$]+).*", "state unreadable: $1"),
            Map.entry("^column status holds .*", "column status names no status"),
            Map.entry("^column version holds .*", "column version out of range"),
            Map.entry("^(columns? [\\w, ]+ differs?) from what was sealed.*", "$1 from the seal"));

    /** A refusal's reason, by kind, for the counts. */
    static String reasonClass(String reason) {
        String firstLine = reason.lines().findFirst().orElse("");
        for (Map.Entry<String, String> kind : REASON_KINDS) {
            if (firstLine.matches(kind.getKey())) {
                return firstLine.replaceAll(kind.getKey(), kind.getValue());
            }
        }
        int colon = firstLine.indexOf(": ");
        String head = colon < 0 ? firstLine : firstLine.substring(0, colon);
        return head.length() <= 90 ? head : head.substring(0, 90) + "...";
    }

    private static Map<String, Object> withoutManifest(Map<String, Object> row) {
        Map<String, Object> copy = new java.util.LinkedHashMap<>(row);
        copy.remove("manifest");
        return copy;
    }

    private void count(String kind, String call, String outcome) {
        outcomes.merge(kind + " rows, " + call + ": " + outcome, 1, Integer::sum);
    }

    // ---------------------------------------------------------------- mutations

    /** Changes one column of {@code id}'s row (or {@code weft_builds}); returns the row's id after it. */
    private static String mutate(Connection connection, Random random, String id, Stored target, List<Stored> sessions,
            Map<String, String> builds, List<String> mutations) throws SQLException {
        Map<String, Object> row = StoredRows.read(connection, id);
        if (row == null) {
            return id;
        }
        if (random.nextInt(8) == 0) {
            mutateBuilds(connection, random, row, builds, mutations);
            return id;
        }
        List<String> columns = List.copyOf(new java.util.TreeSet<>(StoredRows.COLUMNS.keySet()));
        String column = columns.get(random.nextInt(columns.size()));
        Object value = row.get(column);
        Stored other = sessions.get(random.nextInt(sessions.size()));
        Object replacement;
        String how;
        switch (random.nextInt(7)) {
            case 0 -> {
                replacement = null;
                how = "NULL";
            }
            case 1 -> {
                replacement = other.current().get(column);
                how = "session " + other.id() + "'s value";
            }
            case 2 -> {
                Map<String, Object> older = target.history().get(random.nextInt(target.history().size()));
                if (random.nextBoolean()) {
                    StoredRows.put(connection, id, older);
                    mutations.add("the whole row as it was at version " + older.get("version"));
                    return (String) older.get("id");
                }
                replacement = older.get(column);
                how = "its value at version " + older.get("version");
            }
            case 3 -> {
                replacement = flipped(random, value);
                how = "a bit flipped";
            }
            case 4 -> {
                replacement = truncated(random, value);
                how = "truncated";
            }
            case 5 -> {
                replacement = huge(random, column, value);
                how = "huge";
            }
            default -> {
                replacement = special(random, column, value);
                how = "out of range";
            }
        }
        mutations.add(column + " := " + how + " (" + brief(replacement) + ")");
        StoredRows.set(connection, id, column, replacement);
        return column.equals("id") && replacement != null ? (String) replacement : id;
    }

    private static void mutateBuilds(Connection connection, Random random, Map<String, Object> row,
            Map<String, String> builds, List<String> mutations) throws SQLException {
        String build = (String) row.get("build");
        if (build == null) {
            build = builds.keySet().stream().findFirst().orElse(Builds.fingerprint(""));
        }
        String manifest = builds.get(build);
        String replacement = switch (random.nextInt(7)) {
            case 0 -> null;
            case 1 -> manifest == null ? "" : (String) truncated(random, manifest);
            case 2 -> "x".repeat(Builds.MAX_MANIFEST + 1 + random.nextInt(100));
            case 3 -> "com.example.Gone\trun()V\tabc";
            case 4 -> "java.lang.String\tlength()I\tabc\nmalformed";
            case 5 -> builds.values().stream().skip(random.nextInt(Math.max(1, builds.size()))).findFirst().orElse("");
            default -> manifest == null ? "\n" : (String) flipped(random, manifest);
        };
        boolean matching = random.nextBoolean() && replacement != null;
        if (matching) {
            // the hostile manifest under the build it hashes to, and the row naming that build
            String hashed = Builds.fingerprint(replacement);
            StoredRows.setBuild(connection, hashed, replacement);
            StoredRows.set(connection, (String) row.get("id"), "build", hashed);
            mutations.add("weft_builds gets build " + hashed + " := " + brief(replacement) + ", the row names it");
        } else {
            StoredRows.setBuild(connection, build, replacement);
            mutations.add("weft_builds " + build + " := " + brief(replacement));
        }
    }

    private static Object flipped(Random random, Object value) {
        if (value instanceof byte[] bytes && bytes.length > 0) {
            byte[] copy = bytes.clone();
            copy[random.nextInt(copy.length)] ^= (byte) (1 << random.nextInt(8));
            return copy;
        }
        if (value instanceof String text && !text.isEmpty()) {
            char[] chars = text.toCharArray();
            int at = random.nextInt(chars.length);
            chars[at] = (char) ((chars[at] ^ (1 << random.nextInt(7))) & 0x7f);
            return new String(chars).replace('\u0000', '?');
        }
        if (value instanceof Long number) {
            return number ^ (1L << random.nextInt(64));
        }
        return value;
    }

    private static Object truncated(Random random, Object value) {
        if (value instanceof byte[] bytes) {
            return java.util.Arrays.copyOf(bytes, bytes.length == 0 ? 0 : random.nextInt(bytes.length));
        }
        if (value instanceof String text) {
            return text.substring(0, text.isEmpty() ? 0 : random.nextInt(text.length()));
        }
        return value;
    }

    /** A value too large: a length field patched to the largest int, or a column of a mebibyte and more. */
    private static Object huge(Random random, String column, Object value) {
        if (value instanceof byte[] bytes && bytes.length >= 4 && random.nextBoolean()) {
            byte[] copy = bytes.clone();
            int at = random.nextInt(copy.length - 3);
            copy[at] = 0x7f;
            copy[at + 1] = copy[at + 2] = copy[at + 3] = (byte) 0xff;
            return copy;
        }
        return switch (StoredRows.COLUMNS.get(column)) {
            case BYTES -> {
                byte[] big = new byte[(1 << 20) + random.nextInt(1024)];
                random.nextBytes(big);
                yield big;
            }
            case TEXT -> "h".repeat((1 << 20) + random.nextInt(1024));
            case NUMBER -> Long.MAX_VALUE;
        };
    }

    private static Object special(Random random, String column, Object value) {
        return switch (StoredRows.COLUMNS.get(column)) {
            case NUMBER -> List.of(-1L, 0L, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE - 1,
                    value == null ? 1L : (Long) value + 1, value == null ? 1L : (Long) value - 1).get(random.nextInt(7));
            case TEXT -> column.equals("status") ? STATUSES.get(random.nextInt(STATUSES.size()))
                    : List.of("", "SUSPENDED", "age", "city", "name", "\t\n", "fresh-" + random.nextInt(1000))
                            .get(random.nextInt(7));
            case BYTES -> new byte[random.nextInt(3)];
        };
    }

    private static String brief(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes.length + " bytes";
        }
        if (value instanceof String text) {
            return text.length() > 40 ? "'" + text.substring(0, 40) + "...' (" + text.length() + " chars)"
                    : "'" + text + "'";
        }
        return String.valueOf(value);
    }

    /** Puts the session's row and {@code weft_builds} back as they were before the case. */
    private static void restore(Connection connection, String id, String mutatedId, Map<String, Object> row,
            Map<String, String> builds) throws SQLException {
        try (var delete = connection.prepareStatement("DELETE FROM weft_sessions WHERE id = ? OR id IS NULL")) {
            delete.setString(1, mutatedId);
            delete.executeUpdate();
        }
        StoredRows.put(connection, id, row);
        Map<String, String> now = StoredRows.builds(connection);
        for (String build : now.keySet()) {
            if (!builds.containsKey(build)) {
                StoredRows.setBuild(connection, build, null);
            }
        }
        for (Map.Entry<String, String> build : builds.entrySet()) {
            if (!build.getValue().equals(now.get(build.getKey()))) {
                StoredRows.setBuild(connection, build.getKey(), build.getValue());
            }
        }
    }

    /** Writes {@code key}'s raw bytes to a file for the command's {@code --key}. */
    static Path keyFile(Path directory, SecretKey key) throws java.io.IOException {
        return Files.write(directory.resolve("row-fuzz.key"), key.getEncoded());
    }
}
