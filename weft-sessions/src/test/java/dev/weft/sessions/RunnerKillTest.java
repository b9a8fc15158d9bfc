package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.Engine;
import dev.weft.sessions.testing.PostgresServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner under fire: sessions that sleep, exchange messages, start children, fail and are
 * retried, run by nothing but the workers of node JVMs ({@link RunnerNode}) that are SIGKILLed
 * ({@code destroyForcibly}) and restarted again and again, on PostgreSQL while the server itself
 * is killed ({@code kill -9} of the postmaster and its processes, {@link PostgresServer#kill})
 * and restarted twice, and on one SQLite file shared by three processes. In the end:
 *
 * <ul>
 * <li>every session has finished, with the output its body computes;
 * <li>every timer fired exactly once (each wake-up writes one ledger row in its step's
 *     transaction), every message was taken exactly once, in the order its sender sent it (the
 *     driver's, and those that sessions send each other from their steps), every child's outcome
 *     reached its parent once, and every retried step succeeded at exactly the attempt its body
 *     says ({@link StepContext#attempt}: each failed attempt counted once, a run that died with
 *     its node not at all);
 * <li>no inbox holds a message, no session row is locked (PostgreSQL: {@code FOR UPDATE NOWAIT};
 *     SQLite: the write lock can be had), and on PostgreSQL no connection of a node is left once
 *     the nodes have stopped: nothing is left claimed by a dead node;
 * <li>the kills all happened: the node kills asked for, and two of the server.
 * </ul>
 *
 * What each session must write and return is {@link RunnerWorkload}'s; the test's own starts and
 * sends, which go on while the server dies, are made exactly once as {@link RunnerDriver} says.
 * Nodes must survive the server's death (their workers try again until it answers); one that
 * exits by itself fails the test (it is restarted, so that the run ends and says what else went
 * wrong). Kills follow progress, not time, so that the test means the same on a slow machine:
 * node kill {@code k} of {@code K} once the ledger holds {@code k/(K+1)} of its rows; the
 * server's half-way through the driver's starts and sends of each of the last two waves (a wave
 * begins once the ledger holds three quarters of the rows of those before it), the driver going
 * on at once, so that its next start or send meets the server dead. The nodes' logs are kept in
 * {@code target/runner-kill}.
 *
 * <p>PostgreSQL: 4 nodes (2 native, 2 woven), {@value #WORKERS} workers each; SQLite: 3 nodes
 * (native, woven, native). Sizes: {@code -Dweft.sessions.kill.scale} (4: per wave, 4 times the
 * unit of {@link RunnerWorkload}, 13 sessions and 55 rows), {@code .waves} (3), {@code .rounds}
 * (6 timer rounds), {@code .postgresKills} (20) and {@code .sqliteKills} (12), node kills, which
 * grow with the scale unless given; {@code .serverDownMillis} (1,000) how long the server stays
 * dead. That is 156 sessions and 660 rows a test: about two minutes on PostgreSQL (a third of it
 * to start the server and the nodes) and half a minute on SQLite, on a busy two-core machine.
 * For a bigger run: {@code -Dweft.sessions.kill.scale=12} (468 sessions, 1,980 rows, 60 and 36
 * node kills).
 */
class RunnerKillTest {

    private static final int SCALE = Integer.getInteger("weft.sessions.kill.scale", 4);
    private static final int WAVES = Integer.getInteger("weft.sessions.kill.waves", 3);
    private static final int ROUNDS = Integer.getInteger("weft.sessions.kill.rounds", 6);
    private static final int POSTGRES_KILLS = Integer.getInteger("weft.sessions.kill.postgresKills", 5 * SCALE);
    private static final int SQLITE_KILLS = Integer.getInteger("weft.sessions.kill.sqliteKills", 3 * SCALE);
    private static final long SERVER_DOWN_MILLIS = Long.getLong("weft.sessions.kill.serverDownMillis", 1000);
    private static final int SERVER_KILLS = 2;
    private static final int WORKERS = 3;
    /** How long the sessions may take to finish before the test fails. */
    private static final Duration PATIENCE = Duration.ofMinutes(5 + SCALE * WAVES / 4);
    private static final Path LOGS = Path.of("target", "runner-kill");

    @Test
    void onPostgresEveryTimerMessageRetryAndChildCountsOnceWhileNodesAndTheServerAreKilled() throws Exception {
        assertTrue(WAVES >= SERVER_KILLS, "-Dweft.sessions.kill.waves: the server is killed in each of the last two");
        try (PostgresServer server = PostgresServer.dedicated()) {
            String url = server.newDatabase("kill");
            new Run("postgres", url, () -> DriverManager.getConnection(url, "postgres", null), server,
                    List.of(Engine.NATIVE, Engine.NATIVE, Engine.WOVEN, Engine.WOVEN), POSTGRES_KILLS)
                    .go(() -> SessionStore.postgres(url, "postgres", null));
        }
    }

    @Test
    void onOneSqliteFileEveryTimerMessageRetryAndChildCountsOnceWhileProcessesAreKilled(@TempDir Path directory)
            throws Exception {
        Path file = directory.resolve("sessions.db");
        Properties properties = new Properties();
        properties.setProperty("busy_timeout", "60000");
        properties.setProperty("transaction_mode", "IMMEDIATE");
        new Run("sqlite", file.toString(), () -> DriverManager.getConnection("jdbc:sqlite:" + file, properties), null,
                List.of(Engine.NATIVE, Engine.WOVEN, Engine.NATIVE), SQLITE_KILLS)
                .go(() -> SessionStore.sqlite(file));
    }

    /** One run: its store, its nodes, its driver, and what happened. */
    private static final class Run {
        private final String name;
        private final RunnerDriver.Connect connect;
        private final PostgresServer server;
        private final List<Node> nodes = new ArrayList<>();
        private final int kills;
        private final RunnerWorkload workload = new RunnerWorkload(WAVES, SCALE, ROUNDS);
        private final List<String> nodeEnds = new ArrayList<>();
        private final List<Long> killedAt = new ArrayList<>();
        private RunnerDriver driver;
        private int nodeKills;
        private int serverKills;
        /** Set by the driver's feeder when it wants the server killed, to be told once it is. */
        private final AtomicReference<CountDownLatch> serverKill = new AtomicReference<>();
        private final long began = System.nanoTime();

        Run(String name, String storeArgument, RunnerDriver.Connect connect, PostgresServer server,
                List<Engine> engines, int kills) throws IOException {
            this.name = name;
            this.connect = connect;
            this.server = server;
            this.kills = kills;
            Files.createDirectories(LOGS);
            for (int i = 0; i < engines.size(); i++) {
                Path log = LOGS.resolve(name + "-node-" + i + ".log");
                Files.deleteIfExists(log);
                nodes.add(new Node(i, engines.get(i), storeArgument, log));
            }
        }

        void go(Supplier<SessionStore> stores) throws Exception {
            ExecutorService feeder = Executors.newSingleThreadExecutor();
            Throwable unfinished;
            List<String> problems;
            List<Integer> exits;
            try (SessionStore store = stores.get(); RunnerDriver opened = new RunnerDriver(store, connect)) {
                driver = opened;
                try (Connection connection = connect.get()) {
                    RunnerDriver.createTables(connection, server != null);
                }
                for (Node node : nodes) {
                    node.start();
                }
                unfinished = drive(feeder.submit(this::feed));
                String claimed = claimProblem();
                exits = stopNodes();
                problems = problems();
                if (claimed != null) {
                    problems.add(0, claimed);
                }
            } finally {
                feeder.shutdownNow();
                nodes.forEach(Node::kill);
            }
            report(unfinished == null, problems);
            verify(unfinished, problems, exits);
        }

        /** The assertions, once the nodes have stopped and the driver's store is closed. */
        private void verify(Throwable unfinished, List<String> problems, List<Integer> exits) {
            if (unfinished != null) {
                fail(unfinished.getMessage() + "\n" + summary(problems), unfinished);
            }
            assertEquals(List.of(), problems, () -> summary(problems));
            assertEquals(List.of(), nodeEnds, "no node ends by itself");
            assertEquals(nodes.stream().map(node -> 0).toList(), exits, "every node stops cleanly at the end");
            assertEquals(kills, nodeKills, "node kills");
            assertEquals(server == null ? 0 : SERVER_KILLS, serverKills, "server kills");
            if (server != null) {
                assertTrue(driver.unreachable.get() + driver.inDoubtStored.get() + driver.inDoubtLost.get()
                        >= SERVER_KILLS, "the driver's starts and sends met the server dead");
            }
            awaitNoConnectionLeft();
        }

        /**
         * The driver's part: each wave's starts, then its sends, once the ledger holds the rows it
         * waits for; on PostgreSQL, half-way through each of the last two waves, it has the server
         * killed, and goes on at once, so that its next start or send meets the server dead.
         */
        private void feed() {
            List<RunnerWorkload.Wave> waves = workload.waves();
            for (int w = 0; w < waves.size(); w++) {
                awaitRows(waves.get(w).startsAtRows());
                List<Runnable> operations = operations(waves.get(w));
                for (int i = 0; i < operations.size(); i++) {
                    if (server != null && w >= waves.size() - SERVER_KILLS && i == operations.size() / 2) {
                        awaitServerKilled();
                    }
                    operations.get(i).run();
                }
            }
        }

        /** A wave's starts (of the sessions with a body: the others are children), then its sends. */
        private List<Runnable> operations(RunnerWorkload.Wave wave) {
            List<Runnable> operations = new ArrayList<>();
            for (RunnerWorkload.Planned session : wave.sessions()) {
                if (session.body() != null) {
                    operations.add(() -> driver.start(session));
                }
            }
            for (RunnerWorkload.Send send : wave.sends()) {
                operations.add(() -> driver.send(send));
            }
            return operations;
        }

        /** Asks {@link #drive} to kill the server, and waits until it has (not until it is back). */
        private void awaitServerKilled() {
            CountDownLatch killed = new CountDownLatch(1);
            serverKill.set(killed);
            try {
                if (!killed.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("the server was not killed in " + PATIENCE);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }

        private void awaitRows(long rows) {
            while (driver.ledgerRows() < rows) {
                pause(50);
            }
        }

        /**
         * Kills nodes and the server as the ledger fills and the driver asks, restarts them, and
         * restarts a node that ended by itself, until every session has finished: null if they
         * did, else why not (the driver failed, or time ran out).
         */
        private Throwable drive(Future<?> feeding) throws IOException {
            long total = workload.rows();
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (System.nanoTime() < deadline) {
                if (feeding.isDone() && failure(feeding) != null) {
                    return new AssertionError("the driver failed: " + failure(feeding), failure(feeding));
                }
                restartEndedNodes();
                long rows = driver.ledgerRows();
                CountDownLatch serverKillAsked = serverKill.getAndSet(null);
                if (serverKillAsked != null) {
                    killServer(serverKillAsked);
                } else if (nodeKills < kills && rows >= total * (nodeKills + 1) / (kills + 1)) {
                    killNode(nodes.get(nodeKills % nodes.size()));
                } else if (feeding.isDone() && rows >= total && driver.unfinished() == 0) {
                    return null;
                } else {
                    pause(100);
                }
            }
            return new AssertionError("the sessions did not all finish in " + PATIENCE);
        }

        private void killNode(Node node) throws IOException {
            node.kill();
            killedAt.add(elapsedMillis());
            node.start();
            nodeKills++;
        }

        /**
         * Kills the server, says so to {@code killed}, leaves it dead {@code serverDownMillis}, and
         * restarts it: it recovers its commits.
         */
        private void killServer(CountDownLatch killed) {
            server.kill();
            killed.countDown();
            killedAt.add(elapsedMillis());
            pause(SERVER_DOWN_MILLIS);
            server.restart();
            serverKills++;
        }

        private void restartEndedNodes() throws IOException {
            for (Node node : nodes) {
                if (node.ended()) {
                    nodeEnds.add(node + " ended by itself, exit " + node.exitValue() + "; its log: " + node.log);
                    node.start();
                }
            }
        }

        /** Why a session is still claimed, with every session finished and the nodes idle; null if none is. */
        private String claimProblem() {
            try (Connection connection = connect.get()) {
                connection.setAutoCommit(false); // SQLite: BEGIN IMMEDIATE, the write lock
                try (Statement statement = connection.createStatement()) {
                    if (server != null) {
                        statement.executeQuery("SELECT id FROM weft_sessions FOR UPDATE NOWAIT").close();
                    } else {
                        statement.execute("DELETE FROM sent WHERE 1 = 0");
                    }
                }
                connection.rollback();
                return null;
            } catch (SQLException e) {
                return "a session row or the database is still locked once every session has finished: " + e;
            }
        }

        /** Ends the nodes' input: each closes its sessions and exits. Their exit values. */
        private List<Integer> stopNodes() throws InterruptedException {
            List<Integer> exits = new ArrayList<>();
            for (Node node : nodes) {
                exits.add(node.stop());
            }
            return exits;
        }

        /** What is wrong with the store's sessions, ledgers and inboxes, each a sentence; sorted. */
        private List<String> problems() throws SQLException {
            Map<String, List<String>> ledgers = ledgers();
            Map<String, SessionInfo> stored = new HashMap<>();
            driver.read(Sessions::list).forEach(info -> stored.put(info.id(), info));
            List<String> problems = new ArrayList<>();
            for (RunnerWorkload.Planned session : workload.sessions().values()) {
                SessionInfo info = stored.remove(session.id());
                Object output = info == null ? null : driver.read(node -> node.lastOutput(session.id())).orElse(null);
                problems.addAll(workload.problems(session, info, output, ledgers.getOrDefault(session.id(),
                        List.of())));
                ledgers.remove(session.id());
            }
            stored.keySet().forEach(id -> problems.add("session " + id + " is stored, but was never started"));
            ledgers.keySet().forEach(id -> problems.add("ledger rows of session " + id + ", which was not started"));
            problems.addAll(inboxProblems());
            problems.sort(null);
            return problems;
        }

        /** Every session's ledger rows, as {@code step:text}, in commit order. */
        private Map<String, List<String>> ledgers() throws SQLException {
            Map<String, List<String>> ledgers = new HashMap<>();
            try (Connection connection = connect.get(); Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT session, step, input FROM ledger ORDER BY seq")) {
                while (rows.next()) {
                    ledgers.computeIfAbsent(rows.getString(1), id -> new ArrayList<>()).add(rows.getInt(2) + ":"
                            + rows.getString(3));
                }
            }
            return ledgers;
        }

        /** The messages left in inboxes: none, as every session took all it was sent, and finished. */
        private List<String> inboxProblems() throws SQLException {
            List<String> problems = new ArrayList<>();
            try (Connection connection = connect.get(); Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT session_id, COUNT(*) FROM weft_messages"
                            + " GROUP BY session_id")) {
                while (rows.next()) {
                    problems.add("session " + rows.getString(1) + " has " + rows.getLong(2) + " messages left in its"
                            + " inbox; expected none");
                }
            }
            return problems;
        }

        /** PostgreSQL: waits until no client is connected to the database, the nodes stopped and the driver closed. */
        private void awaitNoConnectionLeft() {
            if (server == null) {
                return;
            }
            SessionWaitsContract.awaitTrue(() -> connectionsLeft() == 0, () -> "the nodes' connections to close: "
                    + connectionsLeft() + " are left");
        }

        private long connectionsLeft() {
            try (Connection connection = connect.get(); Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE datname ="
                            + " current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
                rows.next();
                return rows.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        private String summary(List<String> problems) {
            return problems.size() + " problems" + (problems.isEmpty() ? "" : ", the first: " + String.join("\n",
                    problems.subList(0, Math.min(20, problems.size())))) + "\n(node logs in " + LOGS.toAbsolutePath()
                    + ")";
        }

        /** One line for the build's output: sizes, kills, the driver's doubts, time, the nodes' log levels. */
        private void report(boolean finished, List<String> problems) throws IOException {
            long warnings = 0;
            long errors = 0;
            for (Node node : nodes) {
                List<String> lines = Files.readAllLines(node.log);
                warnings += lines.stream().filter(line -> line.startsWith("WARNING:")).count();
                errors += lines.stream().filter(line -> line.startsWith("SEVERE:")).count();
            }
            System.out.printf("RunnerKillTest %s: %d sessions, %d ledger rows, %d nodes; %d node kills, %d server"
                    + " kills, at seconds %s; driver: %d starts or sends made again after the store was unreachable,"
                    + " %d in doubt found stored, %d in doubt found lost; %s in %d s; node logs: %d warnings, %d"
                    + " errors; %d problems%n", name, workload.sessions().size(), workload.rows(), nodes.size(),
                    nodeKills, serverKills, killedAt.stream().map(ms -> String.valueOf(ms / 1000)).toList(),
                    driver.unreachable.get(), driver.inDoubtStored.get(), driver.inDoubtLost.get(),
                    finished ? "finished" : "NOT finished", elapsedMillis() / 1000, warnings, errors, problems.size());
        }

        private long elapsedMillis() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        }
    }

    /** A node JVM, started again after each kill; its standard error appended to its log. */
    private static final class Node {
        private final int index;
        private final Engine engine;
        private final List<String> command;
        final Path log;
        private Process process;

        Node(int index, Engine engine, String store, Path log) {
            this.index = index;
            this.engine = engine;
            this.log = log;
            this.command = List.of(ProcessHandle.current().info().command().orElseThrow(), "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-Xmx128m", "-Xss4m", "--add-exports",
                    "java.base/jdk.internal.vm=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", "-cp",
                    System.getProperty("java.class.path"), RunnerNode.class.getName(), store, engine.name(),
                    String.valueOf(WORKERS));
        }

        /** Starts the JVM; returns once it says its workers run. */
        void start() throws IOException {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            String said;
            try {
                said = CompletableFuture.supplyAsync(() -> readLine(output)).get(2, TimeUnit.MINUTES);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                kill();
                throw new IllegalStateException(this + " did not start: " + e + "; its log: " + log, e);
            }
            if (!"ready".equals(said)) {
                kill();
                throw new IllegalStateException(this + " did not start, it said " + said + "; its log: " + log);
            }
        }

        private static String readLine(BufferedReader output) {
            try {
                return output.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** SIGKILL; returns once the process is gone. */
        void kill() {
            if (process == null) {
                return;
            }
            process.destroyForcibly();
            try {
                process.waitFor(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        boolean ended() {
            return !process.isAlive();
        }

        int exitValue() {
            return process.exitValue();
        }

        /** Ends its input, so that it closes its sessions and exits: its exit value, or -1 if it had to be killed. */
        int stop() throws InterruptedException {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // it is gone already: its exit value says how it ended
            }
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                kill();
                return -1;
            }
            return process.exitValue();
        }

        @Override
        public String toString() {
            return "node " + index + " (" + engine + ")";
        }
    }

    /** What the task {@code done} threw, or null. */
    private static Throwable failure(Future<?> done) {
        try {
            done.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    /** Waits {@code millis}: between looks at the ledger, and the server's time dead. */
    private static void pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
