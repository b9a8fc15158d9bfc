package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import dev.weft.Engine;
import dev.weft.sessions.testing.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Exactly once across nodes, with nodes dying: several node JVMs ({@link StressNode}) on one
 * PostgreSQL server, many sessions of {@code STEPS} steps each ({@link dev.weft.sessions.flows.Ledger},
 * whose every step writes a ledger row in the step's transaction), each input sent to a random
 * node (one in ten sent to two nodes at once), and one node killed with SIGKILL
 * ({@code destroyForcibly}) and restarted after every {@code 1/KILLS} of the steps. A request
 * whose node died, or that was busy, is sent again, with the version it answers, to another
 * node. One session in three is a quiet ledger ({@link dev.weft.sessions.flows.Ledger#quiet}), which writes nothing of
 * its own, so that its steps store their state with their COMMIT in one round trip; its answers
 * carry the count its frame keeps, checked against the version of each step. Odd-numbered nodes keep the sessions they step resident ({@link Sessions.Builder#keepResident})
 * and run one worker thread, so that a session that comes back to one of them runs from the
 * coroutine kept in memory without a row lock, and often from one that another node has moved
 * on since. Nodes 2 and 3 (of each four) run their steps on the woven engine, the others on the
 * native one, so that sessions go back and forth between the engines at every step. In the end
 * every session has finished, and its
 * ledger holds each of its steps exactly once, in order: nothing was lost, nothing ran twice.
 *
 * <p>Sizes: {@code -Dweft.sessions.stress.nodes} (4), {@code .sessions} (2,000), {@code .steps}
 * (10), {@code .kills} (30: a kill every second or two on a two-core machine, where the 20,000
 * steps take about 45 s). Kills follow progress, not time, so the test does not depend on the
 * machine's speed.
 */
class PostgresNodesStressTest {

    /** How the ids of quiet ledgers start. */
    static final String QUIET = "quiet-";

    private static final int NODES = Integer.getInteger("weft.sessions.stress.nodes", 4);
    private static final int SESSIONS = Integer.getInteger("weft.sessions.stress.sessions", 2000);
    private static final int STEPS = Integer.getInteger("weft.sessions.stress.steps", 10);
    private static final int KILLS = Integer.getInteger("weft.sessions.stress.kills", 30);
    /** Requests in flight at once, over all nodes. */
    private static final int IN_FLIGHT = 4 * NODES;

    /** A reply, or a node's end (reply null). */
    private record Event(int node, long generation, String reply) {
    }

    /** One node process; generation tells a restarted node's replies from its predecessor's. */
    private final class Node {
        final int index;
        long generation;
        Process process;
        Writer input;
        final Map<Long, Integer> requests = new HashMap<>(); // request id -> session, in flight here

        Node(int index) {
            this.index = index;
        }

        void start() throws IOException, InterruptedException {
            generation++;
            requests.clear();
            List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-Xss4m",
                    "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), StressNode.class.getName(), url,
                    index % 2 == 1 ? "1" : "3", index % 2 == 1 ? "10000" : "0", engine().name()));
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            String ready = output.readLine();
            if (!"ready".equals(ready)) {
                throw new IOException("node " + index + " did not start: " + ready);
            }
            long mine = generation;
            Thread reader = new Thread(() -> {
                try {
                    for (String line = output.readLine(); line != null; line = output.readLine()) {
                        events.add(new Event(index, mine, line));
                    }
                } catch (IOException e) {
                    // the node died: its end follows
                }
                events.add(new Event(index, mine, null));
            }, "node-" + index + "-reader");
            reader.setDaemon(true);
            reader.start();
        }

        /** Nodes 0 and 1 of each four native, 2 and 3 woven: each engine with a resident node and another. */
        Engine engine() {
            return index / 2 % 2 == 0 ? Engine.NATIVE : Engine.WOVEN;
        }

        boolean send(long request, String line, int session) {
            try {
                input.write(request + " " + line + "\n");
                input.flush();
                requests.put(request, session);
                return true;
            } catch (IOException e) {
                return false; // it is dying: its end event is coming
            }
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(1, TimeUnit.MINUTES);
        }
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private String url;

    @Test
    void everyStepOfEverySessionRunsExactlyOnceInOrderWhileNodesAreKilled() throws Exception {
        url = PostgresServer.shared().newDatabase("stress");
        try (Connection connection = DriverManager.getConnection(url, "postgres", null);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE ledger (seq BIGSERIAL PRIMARY KEY, session VARCHAR(64), step INT,"
                    + " input VARCHAR(100))");
        }
        List<Node> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                Node node = new Node(i);
                node.start();
                nodes.add(node);
            }
            int kills = drive(nodes);
            assertTrue(kills >= Math.min(KILLS, 1), "nodes were killed: " + kills);
        } finally {
            for (Node node : nodes) {
                node.kill();
            }
        }
        checkLedger();
    }

    /** Drives every session to its end; returns how many nodes it killed. */
    private int drive(List<Node> nodes) throws Exception {
        Random random = new Random(13);
        int[] done = new int[SESSIONS];          // steps known to have run, per session
        int[] inFlight = new int[SESSIONS];      // requests out, per session
        boolean[] finished = new boolean[SESSIONS];
        int finishedCount = 0;
        int stepsDone = 0;
        int total = SESSIONS * STEPS;
        int nextKillAt = total / (KILLS + 1);
        int kills = 0;
        int outstanding = 0;
        long requestIds = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10 + SESSIONS / 100);
        int nextSession = 0;
        List<String> errors = new ArrayList<>();
        Map<Integer, List<String>> history = new HashMap<>();
        while (finishedCount < SESSIONS) {
            if (System.nanoTime() > deadline) {
                fail("the sessions did not finish in time: " + finishedCount + " of " + SESSIONS + " finished");
            }
            // 1. send requests for idle sessions, round robin, until enough are in flight
            for (int tries = 0; outstanding < IN_FLIGHT && tries < SESSIONS; tries++) {
                int s = nextSession;
                nextSession = (nextSession + 1) % SESSIONS;
                if (finished[s] || inFlight[s] > 0) {
                    continue;
                }
                int step = done[s] + 1;
                String line = step == 1 ? "start " + session(s) + " " + STEPS + " " + input(step)
                        : "resume " + session(s) + " " + done[s] + " " + input(step);
                int copies = random.nextInt(10) == 0 ? 2 : 1;
                int first = random.nextInt(nodes.size());
                for (int c = 0; c < copies; c++) {
                    Node node = nodes.get((first + c) % nodes.size());
                    history.computeIfAbsent(s, k -> new ArrayList<>()).add((requestIds + 1) + ">" + node.index
                            + "/" + node.generation + " " + line);
                    if (node.send(++requestIds, line, s)) {
                        inFlight[s]++;
                        outstanding++;
                    }
                }
            }
            // 2. take one event
            Event event = events.poll(1, TimeUnit.SECONDS);
            if (event == null) {
                continue;
            }
            Node node = nodes.get(event.node());
            if (event.generation() != node.generation) {
                continue; // a killed node's leftovers: its requests were counted lost already
            }
            if (event.reply() == null) {
                // the node ended without being killed by us
                errors.add("node " + node.index + " ended by itself, exit " + node.process.waitFor());
                for (int s : node.requests.values()) {
                    inFlight[s]--;
                    outstanding--;
                }
                node.start();
                continue;
            }
            String[] f = event.reply().split(" ", 5);
            Integer s = node.requests.remove(Long.parseLong(f[0]));
            if (s == null) {
                continue;
            }
            inFlight[s]--;
            outstanding--;
            history.get(s).add("<" + node.index + " " + event.reply());
            switch (f[1]) {
                case "ok" -> {
                    int version = Integer.parseInt(f[2]);
                    // its twin may have replied "conflict" first, once this one had committed
                    if (version < done[s] || version > done[s] + 1) {
                        errors.add(session(s) + ": ok at version " + version + " after " + done[s] + " "
                                + history.get(s));
                    }
                    String expected = version == STEPS ? "done after " + STEPS : "after step " + version;
                    if (!expected.equals(f[4]) || Boolean.parseBoolean(f[3]) != (version == STEPS)) {
                        errors.add(session(s) + ": step " + version + " replied " + event.reply());
                    }
                    stepsDone += Math.max(0, version - done[s]);
                    done[s] = Math.max(done[s], version);
                }
                case "conflict" -> {
                    // the step was taken already: by a twin request, or before a node died
                    int version = Integer.parseInt(f[2]);
                    if (version < done[s]) {
                        errors.add(session(s) + ": went back to version " + version + " from " + done[s]);
                    }
                    stepsDone += Math.max(0, version - done[s]);
                    done[s] = Math.max(done[s], version);
                }
                case "busy" -> {
                    // another node holds the step: ask again later
                }
                default -> errors.add(session(s) + ": " + event.reply());
            }
            if (done[s] == STEPS && !finished[s]) {
                finished[s] = true;
                finishedCount++;
            }
            // 3. kill a node, on progress
            if (stepsDone >= nextKillAt && kills < KILLS) {
                Node victim = nodes.get(random.nextInt(nodes.size()));
                victim.kill();
                for (int lost : victim.requests.values()) {
                    history.get(lost).add("killed " + victim.index);
                    inFlight[lost]--;
                    outstanding--;
                }
                victim.start();
                kills++;
                nextKillAt += total / (KILLS + 1);
            }
        }
        assertEquals(List.of(), errors, "no node reported anything unexpected");
        return kills;
    }

    /** Every session's ledger: steps 1..STEPS, each once, committed in order, with its input. */
    private void checkLedger() throws SQLException {
        Map<String, List<String>> ledgers = new HashMap<>();
        try (Connection connection = DriverManager.getConnection(url, "postgres", null);
                Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT session, step, input FROM ledger ORDER BY seq")) {
                while (rows.next()) {
                    ledgers.computeIfAbsent(rows.getString(1), k -> new ArrayList<>())
                            .add(rows.getInt(2) + ":" + rows.getString(3));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT status, version, count(*) FROM weft_sessions"
                    + " GROUP BY status, version")) {
                assertTrue(rows.next(), "the sessions are kept when finished");
                assertEquals("FINISHED " + STEPS + " " + SESSIONS, rows.getString(1) + " " + rows.getInt(2) + " "
                        + rows.getInt(3));
                assertTrue(!rows.next(), "every session finished at version " + STEPS);
            }
        }
        List<String> expected = new ArrayList<>();
        for (int step = 1; step <= STEPS; step++) {
            expected.add(step + ":" + input(step));
        }
        for (int s = 0; s < SESSIONS; s++) {
            List<String> ledger = ledgers.remove(session(s));
            if (isQuiet(s)) {
                assertEquals(null, ledger, session(s) + " is quiet");
            } else {
                assertEquals(expected, ledger, session(s) + "'s steps, in commit order");
            }
        }
        assertEquals(Map.of(), ledgers, "no ledger of a session that was not started");
    }

    private static String session(int s) {
        return (isQuiet(s) ? QUIET : "session-") + s;
    }

    private static boolean isQuiet(int s) {
        return s % 3 == 2;
    }

    private static String input(int step) {
        return "input-" + step;
    }
}
