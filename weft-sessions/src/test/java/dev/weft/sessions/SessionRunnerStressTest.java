package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Engine;
import dev.weft.sessions.flows.Fanout;
import dev.weft.sessions.flows.Mailbox;
import dev.weft.sessions.flows.Recurring;
import dev.weft.sessions.testing.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers of several nodes on one store: {@code SESSIONS} recurring jobs
 * ({@link Recurring}: each round writes a ledger row in its step's transaction, then sleeps a few
 * milliseconds), started on random nodes, and resumed only by the nodes' workers, which claim
 * them from the store (PostgreSQL: {@code FOR UPDATE SKIP LOCKED}). Nodes alternate engines, and
 * one node is closed (its running steps drain) once a third of the rounds are done and another
 * opened in its place. In the end every session has finished, and its ledger holds each of its
 * rounds exactly once, in order, each after the first one run by a worker for its sleep.
 *
 * <p>Messages the same way: {@code MAILBOXES} sessions that take messages ({@link Mailbox}),
 * each sent {@code MESSAGES} messages by each of {@code SENDERS} threads on random nodes, while
 * the workers run them and a node is replaced; then a {@code "stop"} each. Every session's
 * ledger then holds each message exactly once, each sender's in the order sent, and the stop
 * last.
 *
 * <p>Children the same way: {@code PARENTS} sessions ({@link Fanout}) that each start
 * {@code CHILDREN} children that sleep and then finish, and take their outcomes, while the
 * workers run them all and a node is replaced. Every parent's ledger then holds each child's
 * outcome exactly once, and every child's ledger its {@code finally} exactly once.
 *
 * <p>Sizes: {@code -Dweft.sessions.runner.sessions} (200), {@code .rounds} (5), {@code .nodes} (3),
 * {@code .workers} (3 per node), {@code .mailboxes} (40), {@code .messages} (5), {@code .senders} (3),
 * {@code .parents} (30), {@code .children} (5).
 */
class SessionRunnerStressTest {

    private static final int SESSIONS = Integer.getInteger("weft.sessions.runner.sessions", 200);
    private static final int ROUNDS = Integer.getInteger("weft.sessions.runner.rounds", 5);
    private static final int NODES = Integer.getInteger("weft.sessions.runner.nodes", 3);
    private static final int WORKERS = Integer.getInteger("weft.sessions.runner.workers", 3);
    private static final int MAILBOXES = Integer.getInteger("weft.sessions.runner.mailboxes", 40);
    private static final int MESSAGES = Integer.getInteger("weft.sessions.runner.messages", 5);
    private static final int SENDERS = Integer.getInteger("weft.sessions.runner.senders", 3);
    private static final int PARENTS = Integer.getInteger("weft.sessions.runner.parents", 30);
    private static final int CHILDREN = Integer.getInteger("weft.sessions.runner.children", 5);

    @Test
    void workersOfManyNodesOnPostgresRunEveryRoundOfEverySessionOnceInOrder() throws Exception {
        String url = PostgresServer.shared().newDatabase("runner");
        run(() -> SessionStore.postgres(url, "postgres", null), () -> DriverManager.getConnection(url, "postgres", null));
    }

    @Test
    void workersOfManyNodesOnOneSqliteFileRunEveryRoundOfEverySessionOnceInOrder(@TempDir Path directory)
            throws Exception {
        Path file = directory.resolve("sessions.db");
        run(() -> SessionStore.sqlite(file), () -> DriverManager.getConnection("jdbc:sqlite:" + file));
    }

    @Test
    void workersOfManyNodesOnPostgresTakeEveryMessageOnceInTheOrderSent() throws Exception {
        String url = PostgresServer.shared().newDatabase("runnermessages");
        runMessages(() -> SessionStore.postgres(url, "postgres", null),
                () -> DriverManager.getConnection(url, "postgres", null));
    }

    @Test
    void workersOfManyNodesOnOneSqliteFileTakeEveryMessageOnceInTheOrderSent(@TempDir Path directory)
            throws Exception {
        Path file = directory.resolve("sessions.db");
        runMessages(() -> SessionStore.sqlite(file), () -> DriverManager.getConnection("jdbc:sqlite:" + file));
    }

    @Test
    void workersOfManyNodesOnPostgresDeliverEveryChildsOutcomeOnce() throws Exception {
        String url = PostgresServer.shared().newDatabase("runnerchildren");
        runChildren(() -> SessionStore.postgres(url, "postgres", null),
                () -> DriverManager.getConnection(url, "postgres", null));
    }

    @Test
    void workersOfManyNodesOnOneSqliteFileDeliverEveryChildsOutcomeOnce(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("sessions.db");
        runChildren(() -> SessionStore.sqlite(file), () -> DriverManager.getConnection("jdbc:sqlite:" + file));
    }

    @FunctionalInterface
    private interface Connect {
        Connection get() throws SQLException;
    }

    private void run(Supplier<SessionStore> stores, Connect connect) throws Exception {
        List<SessionStore> opened = new ArrayList<>();
        List<Sessions> nodes = new ArrayList<>();
        try {
            SessionStore first = stores.get();
            opened.add(first);
            try (Connection connection = connect.get(); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE ledger (session VARCHAR(64), step INT, input VARCHAR(100))");
            }
            for (int i = 0; i < NODES; i++) {
                SessionStore store = i == 0 ? first : stores.get();
                if (i > 0) {
                    opened.add(store);
                }
                nodes.add(node(store, i));
            }
            List<String> ids = start(nodes);
            awaitRows(connect, SESSIONS * ROUNDS / 3);
            replaceFirst(stores, opened, nodes);
            awaitRows(connect, SESSIONS * ROUNDS);
            awaitAllEnded(nodes.get(1));
            check(connect, ids);
        } finally {
            nodes.forEach(Sessions::close);
            opened.forEach(SessionStore::close);
        }
    }

    private void runMessages(Supplier<SessionStore> stores, Connect connect) throws Exception {
        List<SessionStore> opened = new ArrayList<>();
        List<Sessions> nodes = new ArrayList<>();
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        try {
            openNodes(stores, connect, opened, nodes);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < MAILBOXES; i++) {
                ids.add(nodes.get(i % NODES).start(new Mailbox(), null).id());
            }
            List<Future<?>> sending = new ArrayList<>();
            for (int sender = 0; sender < SENDERS; sender++) {
                int number = sender;
                sending.add(senders.submit(() -> send(nodes, ids, number)));
            }
            awaitRows(connect, MAILBOXES * MESSAGES * SENDERS / 3);
            replaceFirst(stores, opened, nodes);
            for (Future<?> sent : sending) {
                sent.get();
            }
            for (String id : ids) {
                nodes.get(1).send(id, "stop");
            }
            awaitAllEnded(nodes.get(1));
            checkMessages(connect, ids);
        } finally {
            senders.shutdownNow();
            nodes.forEach(Sessions::close);
            opened.forEach(SessionStore::close);
        }
    }

    private void runChildren(Supplier<SessionStore> stores, Connect connect) throws Exception {
        List<SessionStore> opened = new ArrayList<>();
        List<Sessions> nodes = new ArrayList<>();
        try {
            openNodes(stores, connect, opened, nodes);
            List<String> parts = new ArrayList<>();
            for (int child = 0; child < CHILDREN; child++) {
                parts.add("sleep:" + child);
            }
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < PARENTS; i++) {
                ids.add(nodes.get(i % NODES).start("parent" + i, new Fanout(parts, false), null).id());
            }
            awaitRows(connect, PARENTS * CHILDREN * 3 / 2); // a start and a finally per child, an outcome each
            replaceFirst(stores, opened, nodes);
            awaitAllEnded(nodes.get(1));
            checkChildren(connect, ids);
        } finally {
            nodes.forEach(Sessions::close);
            opened.forEach(SessionStore::close);
        }
    }

    /** Opens {@code NODES} nodes, each on a store of its own over one database, and creates the ledger. */
    private static void openNodes(Supplier<SessionStore> stores, Connect connect, List<SessionStore> opened,
            List<Sessions> nodes) throws SQLException {
        for (int i = 0; i < NODES; i++) {
            opened.add(stores.get());
            nodes.add(node(opened.get(i), i));
        }
        try (Connection connection = connect.get(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE ledger (session VARCHAR(64), step INT, input VARCHAR(100))");
        }
    }

    /** Closes the first node (it drains: its running steps commit or roll back, it claims no more) and opens another. */
    private static void replaceFirst(Supplier<SessionStore> stores, List<SessionStore> opened, List<Sessions> nodes) {
        nodes.get(0).close();
        SessionStore replacement = stores.get();
        opened.add(replacement);
        nodes.set(0, node(replacement, NODES));
    }

    private static void awaitAllEnded(Sessions node) {
        SessionWaitsContract.awaitTrue(() -> node.list().isEmpty(), () -> node.list().size() + " sessions to finish");
    }

    /** Every parent's ledger: each child started once and its outcome taken once; every child's finally once. */
    private static void checkChildren(Connect connect, List<String> ids) throws SQLException {
        Map<String, List<String>> ledgers = ledgers(connect);
        assertEquals(PARENTS * (CHILDREN + 1), ledgers.size(), "sessions in the ledger");
        for (String id : ids) {
            List<String> expected = new ArrayList<>();
            for (int child = 0; child < CHILDREN; child++) {
                expected.add("outcome " + id + "-" + child + " FINISHED done " + child);
                expected.add("started " + id + "-" + child);
                assertEquals(List.of("2:finally"), ledgers.get(id + "-" + child), "child " + child + " of " + id);
            }
            List<String> got = ledgers.get(id).stream().map(row -> row.substring(row.indexOf(':') + 1)).sorted()
                    .toList();
            assertEquals(expected.stream().sorted().toList(), got, "parent " + id);
        }
    }

    /** Sender {@code sender}'s messages to every session, in order, each from a random node. */
    private static void send(List<Sessions> nodes, List<String> ids, int sender) {
        Random random = new Random(sender);
        for (int n = 1; n <= MESSAGES; n++) {
            for (String id : ids) {
                Sessions node = nodes.get(random.nextInt(nodes.size()));
                try {
                    node.send(id, "s" + sender + "-" + n);
                } catch (SessionStoreUnavailableException e) {
                    throw new AssertionError("a send failed: " + e, e);
                }
            }
        }
    }

    /** Every session's ledger: each message once, each sender's in the order sent, the stop last. */
    private static void checkMessages(Connect connect, List<String> ids) throws SQLException {
        Map<String, List<String>> ledgers = ledgers(connect);
        assertEquals(MAILBOXES, ledgers.size(), "sessions in the ledger");
        for (String id : ids) {
            List<String> ledger = ledgers.get(id);
            assertEquals(MESSAGES * SENDERS + 1, ledger.size(), () -> "session " + id + ": " + ledger);
            for (int step = 0; step < ledger.size(); step++) {
                assertTrue(ledger.get(step).startsWith((step + 2) + ":message "), "session " + id + ": " + ledger);
            }
            assertEquals((ledger.size() + 1) + ":message stop", ledger.get(ledger.size() - 1));
            for (int sender = 0; sender < SENDERS; sender++) {
                String prefix = "message s" + sender + "-";
                List<String> sent = ledger.stream().map(row -> row.substring(row.indexOf(':') + 1))
                        .filter(row -> row.startsWith(prefix)).toList();
                List<String> expected = new ArrayList<>();
                for (int n = 1; n <= MESSAGES; n++) {
                    expected.add(prefix + n);
                }
                assertEquals(expected, sent, "session " + id + ", sender " + sender);
            }
        }
    }

    private static Map<String, List<String>> ledgers(Connect connect) throws SQLException {
        Map<String, List<String>> ledgers = new HashMap<>();
        try (Connection connection = connect.get(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT session, step, input FROM ledger ORDER BY session,"
                        + " step")) {
            while (rows.next()) {
                ledgers.computeIfAbsent(rows.getString(1), id -> new ArrayList<>()).add(rows.getInt(2) + ":"
                        + rows.getString(3));
            }
        }
        return ledgers;
    }

    private static Sessions node(SessionStore store, int number) {
        return Sessions.builder(store).engine(number % 2 == 0 ? Engine.NATIVE : Engine.WOVEN).workers(WORKERS)
                .pollEvery(Duration.ofMillis(50)).waitWhenBusy(Duration.ofSeconds(30)).build();
    }

    /** Starts the sessions on random nodes, from several threads; their ids. */
    private static List<String> start(List<Sessions> nodes) throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> started = new ArrayList<>();
            Random random = new Random(32);
            for (int i = 0; i < SESSIONS; i++) {
                Sessions node = nodes.get(random.nextInt(nodes.size()));
                Duration every = Duration.ofMillis(random.nextInt(20));
                started.add(callers.submit(() -> node.start(new Recurring(ROUNDS, every), null).id()));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> id : started) {
                ids.add(id.get());
            }
            return ids;
        } finally {
            callers.shutdown();
        }
    }

    private static void awaitRows(Connect connect, int rows) {
        SessionWaitsContract.awaitTrue(() -> count(connect) >= rows, () -> rows + " ledger rows; there are "
                + count(connect));
    }

    private static long count(Connect connect) {
        try (Connection connection = connect.get(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM ledger")) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every session's ledger: each round once, in order, the first at its start and every other by a timer. */
    private static void check(Connect connect, List<String> ids) throws SQLException {
        Map<String, List<String>> ledgers = ledgers(connect);
        List<String> expected = new ArrayList<>(List.of("1:start"));
        for (int round = 2; round <= ROUNDS; round++) {
            expected.add(round + ":timer");
        }
        assertEquals(SESSIONS, ledgers.size(), "sessions in the ledger");
        for (String id : ids) {
            assertEquals(expected, ledgers.get(id), "session " + id);
        }
    }
}
