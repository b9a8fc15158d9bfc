package dev.weft.bench;

import dev.weft.Engine;
import dev.weft.bench.woven.SessionWorkflow;
import dev.weft.sessions.SessionStep;
import dev.weft.sessions.SessionStore;
import dev.weft.sessions.Sessions;
import dev.weft.sessions.testing.PostgresServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The durable sessions probe, in a fresh JVM:
 * {@code STORE FRAMES SESSIONS ROUNDS NODES [RESIDENT [ENGINE [WARMUP [history]]]]}. It
 * starts {@code SESSIONS} sessions of {@link SessionWorkflow} suspended {@code FRAMES} frames
 * deep in the store ({@code sqlite}: a file in a temporary directory; {@code postgres}: a real
 * server it starts), then resumes each {@code ROUNDS} times, timing every step, spread over
 * {@code NODES} threads each with a {@link Sessions} and store of its own (as separate nodes
 * would have); with {@code RESIDENT} above 0, each node's {@code Sessions} keeps that many
 * sessions resident ({@link Sessions.Builder#keepResident}) and steps its share once, untimed,
 * before the clock starts, so that every timed step runs from the coroutine it kept. Every node
 * runs its steps on {@code ENGINE} ({@code NATIVE} or {@code WOVEN}; default: the default engine). The floor
 * runs interleaved with the steps, on the same threads: after each round of steps, each node
 * updates as many rows of a table of its own, one transaction each, every row holding as many
 * bytes as a stored session's row (all its columns but the id), with the same store settings;
 * so a load that comes and goes on the machine weighs on both alike. Before the clock starts,
 * each node runs such rounds untimed for {@code WARMUP} seconds (default 0), so that the JIT has
 * compiled both paths: a step's code runs once per step, and a few thousand steps leave it in
 * the JIT's profiling tier. Prints {@code key=value}
 * lines: steps per second (each kind's count over the longest time a node spent on that kind),
 * median and 99th-percentile latency of both, the stored state's size and the row's. Every
 * step's answer is checked.
 *
 * <p>With {@code history}, the floor gives way to the same step without history: each node has
 * two {@link Sessions} on its store, one that keeps a step history
 * ({@link Sessions.Builder#keepHistory}, a day's) and one that does not, and each round steps
 * every session of its share with the first ({@code sessions-*}, timed) and then with the second
 * ({@code plain-*}): the same sessions, the same rows, the same moment, one writing its steps'
 * entries and the other not.
 */
public final class SessionsProbe {

    private SessionsProbe() {
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int frames = Integer.parseInt(args[1]);
        int sessions = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        int nodes = Integer.parseInt(args[4]);
        int resident = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        Engine engine = args.length > 6 ? Engine.valueOf(args[6]) : Engine.defaultEngine();
        long warmupNanos = args.length > 7 ? (long) (Double.parseDouble(args[7]) * 1e9) : 0;
        boolean history = args.length > 8 && args[8].equals("history");
        Path directory = Files.createTempDirectory("weft-sessions-bench");
        try {
            Target target = kind.equals("sqlite") ? sqlite(directory.resolve("sessions.db"))
                    : postgres(PostgresServer.shared().newDatabase("bench"));
            List<String> ids = new ArrayList<>();
            try (SessionStore store = target.store()) {
                Sessions starter = Sessions.builder(store).engine(engine).build();
                for (int i = 0; i < sessions; i++) {
                    ids.add(starter.start(new SessionWorkflow(frames), 0).id());
                }
                for (int round = 0; round < 3; round++) {
                    for (String id : ids) {
                        starter.resume(id, 1); // warm-up, untimed
                    }
                }
            }
            int stateBytes = averageBytes(target, "LENGTH(state)");
            int rowBytes = averageBytes(target, ROW_BYTES);
            floorTable(target, ids, rowBytes);
            NodePreparation preparation = history ? historyNode(target, engine)
                    : floorNode(target, engine, resident, rowBytes);
            Timing[] timings = interleaved(nodes, ids, rounds, warmupNanos, preparation);
            print("sessions", timings[0]);
            System.out.println("state-bytes=" + stateBytes);
            System.out.println("row-bytes=" + rowBytes);
            System.out.println("engine=" + engine);
            print(history ? "plain" : "floor", timings[1]);
        } finally {
            delete(directory);
        }
    }

    /**
     * A node of a plain run, on {@code target}'s store and {@code engine}, keeping {@code resident}
     * sessions in memory: its step is a step of a session, its floor an update of that session's
     * row of {@code rowBytes} bytes in the floor's table.
     */
    private static NodePreparation floorNode(Target target, Engine engine, int resident, int rowBytes) {
        return (node, slice) -> {
            SessionStore store = target.store();
            Sessions sessionsOfNode = Sessions.builder(store).engine(engine).keepResident(resident).build();
            if (resident > 0) {
                for (String id : slice) {
                    answered(id, sessionsOfNode.<Integer, Integer>resume(id, 2)); // makes it resident, untimed
                }
            }
            Connection connection = target.connect();
            PreparedStatement update = connection.prepareStatement(FLOOR_UPDATE);
            Random random = new Random(node);
            byte[] data = new byte[rowBytes];
            return new Node() {
                public void step(String id) {
                    answered(id, sessionsOfNode.<Integer, Integer>resume(id, 2));
                }

                public void floor(String id) throws SQLException {
                    random.nextBytes(data);
                    floorUpdate(target, connection, update, id, data);
                }

                public void close() throws SQLException {
                    store.close();
                    connection.close();
                }
            };
        };
    }

    /**
     * A node of a {@code history} run, on {@code target}'s store and {@code engine}: its step is
     * a step of a node that keeps history, its "floor" the next step of the same session on one
     * that does not.
     */
    private static NodePreparation historyNode(Target target, Engine engine) {
        return (node, slice) -> {
            SessionStore store = target.store();
            Sessions keeping = Sessions.builder(store).engine(engine).keepHistory(java.time.Duration.ofDays(1))
                    .nodeName("node-" + node).build();
            Sessions plain = Sessions.builder(store).engine(engine).build();
            return new Node() {
                public void step(String id) {
                    answered(id, keeping.<Integer, Integer>resume(id, 2));
                }

                public void floor(String id) {
                    answered(id, plain.<Integer, Integer>resume(id, 2));
                }

                public void close() {
                    store.close();
                }
            };
        };
    }

    /** Deletes {@code directory} and all it holds. */
    static void delete(Path directory) throws java.io.IOException {
        try (var files = Files.walk(directory)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** A store, and plain connections to its database with the same settings. */
    interface Target {
        SessionStore store();

        Connection connect() throws SQLException;

        void begin(Connection connection) throws SQLException;

        void commit(Connection connection) throws SQLException;
    }

    static Target sqlite(Path file) {
        return new Target() {
            public SessionStore store() {
                return SessionStore.sqlite(file);
            }

            public Connection connect() throws SQLException {
                Properties properties = new Properties();
                properties.setProperty("journal_mode", "WAL");
                properties.setProperty("synchronous", "FULL");
                properties.setProperty("busy_timeout", "60000");
                return DriverManager.getConnection("jdbc:sqlite:" + file, properties);
            }

            public void begin(Connection connection) throws SQLException {
                execute(connection, "BEGIN IMMEDIATE");
            }

            public void commit(Connection connection) throws SQLException {
                execute(connection, "COMMIT");
            }
        };
    }

    static Target postgres(String url) {
        return new Target() {
            public SessionStore store() {
                return SessionStore.postgres(url, "postgres", null);
            }

            public Connection connect() throws SQLException {
                return DriverManager.getConnection(url, "postgres", null);
            }

            public void begin(Connection connection) throws SQLException {
                connection.setAutoCommit(false);
            }

            public void commit(Connection connection) throws SQLException {
                connection.commit();
            }
        };
    }

    interface Work {
        long[] run(int node, List<String> slice) throws Exception;
    }

    interface Step {
        void run(String id) throws Exception;
    }

    /** A node's part, made ready on its thread before the clock starts. */
    interface Preparation {
        Timed prepare(int node, List<String> slice) throws Exception;
    }

    /** A node's timed part: the latency of each of its steps. */
    interface Timed {
        long[] run() throws Exception;
    }

    record Timing(long[] latencies, long wallNanos) {
    }

    /** Runs {@code work} on {@code nodes} threads, each with its share of {@code ids}. */
    static Timing timed(int nodes, List<String> ids, int rounds, Work work) throws Exception {
        return timed(nodes, ids, (node, slice) -> () -> work.run(node, slice));
    }

    /**
     * Prepares each of {@code nodes} threads with its share of {@code ids}, untimed, then starts
     * the clock and runs what each prepared.
     */
    static Timing timed(int nodes, List<String> ids, Preparation preparation) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(nodes);
        CountDownLatch prepared = new CountDownLatch(nodes);
        CountDownLatch started = new CountDownLatch(1);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                int node = n;
                List<String> slice = new ArrayList<>();
                for (int i = node; i < ids.size(); i += nodes) {
                    slice.add(ids.get(i));
                }
                results.add(threads.submit(() -> {
                    Timed timed;
                    try {
                        timed = preparation.prepare(node, slice);
                    } finally {
                        prepared.countDown();
                    }
                    started.await();
                    return timed.run();
                }));
            }
            prepared.await();
            long start = System.nanoTime();
            started.countDown();
            List<long[]> all = new ArrayList<>();
            for (Future<long[]> result : results) {
                all.add(result.get());
            }
            long wall = System.nanoTime() - start;
            return new Timing(all.stream().flatMapToLong(Arrays::stream).toArray(), wall);
        } finally {
            threads.shutdown();
        }
    }

    static long[] run(List<String> slice, int rounds, Step step) throws Exception {
        long[] latencies = new long[slice.size() * rounds];
        int k = 0;
        for (int round = 0; round < rounds; round++) {
            for (String id : slice) {
                long t0 = System.nanoTime();
                step.run(id);
                latencies[k++] = System.nanoTime() - t0;
            }
        }
        return latencies;
    }

    /** Checks that session {@code id} answered input 2 with 3, as {@link SessionWorkflow} does. */
    private static void answered(String id, SessionStep<Integer> step) {
        if (step.output() != 3 || step.finished()) {
            throw new IllegalStateException("session " + id + " answered 2 with " + step.output() + " at step "
                    + step.version() + (step.finished() ? " and finished" : ""));
        }
    }

    /** The floor's table: a row of {@code bytes} bytes per session. */
    static void floorTable(Target target, List<String> ids, int bytes) throws SQLException {
        try (Connection connection = target.connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE weft_floor (id VARCHAR(64) PRIMARY KEY, data "
                        + (connection.getMetaData().getDatabaseProductName().contains("SQLite") ? "BLOB" : "BYTEA")
                        + ")");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO weft_floor VALUES (?, ?)")) {
                for (String id : ids) {
                    insert.setString(1, id);
                    insert.setBytes(2, new byte[bytes]);
                    insert.executeUpdate();
                }
            }
        }
    }

    private static final String FLOOR_UPDATE = "UPDATE weft_floor SET data = ? WHERE id = ?";

    /** The floor: per step, one transaction that updates one row of {@code bytes} bytes. */
    static long[] floor(Target target, List<String> slice, int rounds, int bytes) throws Exception {
        try (Connection connection = target.connect()) {
            Random random = new Random(1);
            byte[] data = new byte[bytes];
            try (PreparedStatement update = connection.prepareStatement(FLOOR_UPDATE)) {
                return run(slice, rounds, id -> {
                    random.nextBytes(data);
                    floorUpdate(target, connection, update, id, data);
                });
            }
        }
    }

    /** One step of the floor: a transaction that updates row {@code id} to {@code data}. */
    private static void floorUpdate(Target target, Connection connection, PreparedStatement update, String id,
            byte[] data) throws SQLException {
        target.begin(connection);
        update.setBytes(1, data);
        update.setString(2, id);
        update.executeUpdate();
        target.commit(connection);
    }

    /** A node of the interleaved run: a step of a session, an update of the floor, each timed alone. */
    interface Node {
        void step(String id) throws Exception;

        void floor(String id) throws Exception;

        void close() throws Exception;
    }

    /** Makes a node ready on its thread, untimed, with its share of the sessions. */
    interface NodePreparation {
        Node prepare(int node, List<String> slice) throws Exception;
    }

    /**
     * Runs {@code rounds} rounds on {@code nodes} threads, each round a step of each session of
     * the node's share and then a floor update of each of their rows, so that both see the
     * machine as it is at that moment; each node first runs such rounds untimed for
     * {@code warmupNanos}. Returns the steps' timing and the floor's; the wall time of each is the
     * longest that a node spent on it.
     */
    static Timing[] interleaved(int nodes, List<String> ids, int rounds, long warmupNanos,
            NodePreparation preparation) throws Exception {
        Timing both = timed(nodes, ids, (index, slice) -> {
            Node node = preparation.prepare(index, slice);
            warmUp(node, slice, warmupNanos);
            return () -> {
                long[] latencies = new long[2 * slice.size() * rounds];
                int k = 0;
                try {
                    for (int round = 0; round < rounds; round++) {
                        for (String id : slice) {
                            long t0 = System.nanoTime();
                            node.step(id);
                            latencies[k++] = System.nanoTime() - t0;
                        }
                        for (String id : slice) {
                            long t0 = System.nanoTime();
                            node.floor(id);
                            latencies[k++] = System.nanoTime() - t0;
                        }
                    }
                } finally {
                    node.close();
                }
                return latencies;
            };
        });
        return split(both.latencies(), nodes, ids.size(), rounds);
    }

    /** Runs rounds of {@code node}'s steps and floor updates, untimed, until {@code nanos} have passed. */
    private static void warmUp(Node node, List<String> slice, long nanos) throws Exception {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            for (String id : slice) {
                node.step(id);
            }
            for (String id : slice) {
                node.floor(id);
            }
        }
    }

    /**
     * Splits the latencies of an interleaved run, node after node and in each node round after
     * round the steps and then the floor updates, into the steps' timing and the floor's.
     */
    static Timing[] split(long[] latencies, int nodes, int sessions, int rounds) {
        long[] steps = new long[latencies.length / 2];
        long[] floor = new long[latencies.length / 2];
        int from = 0;
        int s = 0;
        int f = 0;
        long stepsWall = 0;
        long floorWall = 0;
        for (int node = 0; node < nodes; node++) {
            int share = (sessions - node + nodes - 1) / nodes; // ids node, node + nodes, ...
            long stepsSpent = 0;
            long floorSpent = 0;
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < share; i++) {
                    stepsSpent += steps[s++] = latencies[from++];
                }
                for (int i = 0; i < share; i++) {
                    floorSpent += floor[f++] = latencies[from++];
                }
            }
            stepsWall = Math.max(stepsWall, stepsSpent);
            floorWall = Math.max(floorWall, floorSpent);
        }
        return new Timing[] {new Timing(steps, stepsWall), new Timing(floor, floorWall)};
    }

    /**
     * What a stored session's row holds besides its id, in bytes: every column a step writes
     * (the state, the last output, the build, its manifest where the row holds it, the point and its values, the
     * status) and the three 8-byte numbers (version, created, updated).
     */
    private static final String ROW_BYTES = "LENGTH(status) + LENGTH(state) + COALESCE(LENGTH(output), 0)"
            + " + COALESCE(LENGTH(build), 0) + COALESCE(LENGTH(manifest), 0) + COALESCE(LENGTH(point), 0)"
            + " + COALESCE(LENGTH(point_values), 0) + COALESCE(LENGTH(failure), 0) + 24";

    /** The average of {@code bytes}, an SQL expression, over the stored sessions. */
    private static int averageBytes(Target target, String bytes) throws SQLException {
        try (Connection connection = target.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT AVG(" + bytes + ") FROM weft_sessions")) {
            rows.next();
            return (int) Math.round(rows.getDouble(1));
        }
    }

    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    static void print(String prefix, Timing timing) {
        long[] sorted = timing.latencies().clone();
        Arrays.sort(sorted);
        System.out.println(prefix + "-steps=" + sorted.length);
        System.out.println(prefix + "-steps-per-second=" + sorted.length * 1e9 / timing.wallNanos());
        System.out.println(prefix + "-median-us=" + sorted[sorted.length / 2] / 1e3);
        System.out.println(prefix + "-p99-us=" + sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))] / 1e3);
    }
}
