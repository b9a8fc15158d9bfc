package dev.weft.bench;

import dev.weft.Engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Workload 9: durable sessions (weft-sessions, issue 13). Each store, depth and engine runs in a
 * fresh JVM ({@link SessionsProbe}): steps per second and latency per step, against the floor of the
 * same store doing one {@code UPDATE} of a row of the same size per step; then DBOS Transact
 * running the same workflow on PostgreSQL in a fresh JVM of its own ({@link DbosProbe}), with
 * its own floor; then throughput on PostgreSQL with 1, 2 and 4 nodes; then a step that writes
 * its entry in the step history against the same step without (issue 35); then sessions run by
 * workers and their timers, Weft's and DBOS's ({@link WorkersAndTimers}).
 */
final class SessionsSection extends Section {

    private static final String WORKLOAD = "sessions";
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final List<Integer> FRAMES = List.of(1, 10, 100);
    private static final List<Integer> NODES = List.of(1, 2, 4);
    private static final List<Engine> ENGINES = List.of(Engine.NATIVE, Engine.WOVEN);
    private static final String DBOS = "DBOS Transact 1.1.0-m6";
    /** The floor's row size for DBOS's run when no Weft run on PostgreSQL said its state's size. */
    private static final int DEFAULT_FLOOR_BYTES = 1_000;
    private static final double GOAL = 1.3;
    /** Issue 35's goal for the step history: a step that writes its entry within this of one that does not. */
    private static final double HISTORY_GOAL = 1.1;
    /** The depth of the sessions of the history runs. */
    private static final int HISTORY_FRAMES = 10;
    /** Seconds of untimed rounds on each node before a probe's clock starts (none in a quick run). */
    private static final int WARMUP_SECONDS = 5;

    /** One probe's numbers, or why there are none. */
    record Run(Map<String, String> values, String failure) {
        String get(String key) {
            return values == null ? Format.NONE : Format.number(Double.parseDouble(values.getOrDefault(key, "NaN")));
        }

        double number(String key) {
            return values == null ? Double.NaN : Double.parseDouble(values.getOrDefault(key, "NaN"));
        }
    }

    private final Map<String, Run> depthRuns = new LinkedHashMap<>();
    private final Map<String, Run> residentRuns = new LinkedHashMap<>();
    private final Map<Integer, Run> nodeRuns = new LinkedHashMap<>();
    /** Steps with history against steps without, by store, frames and engine. */
    private final Map<String, Run> historyRuns = new LinkedHashMap<>();
    private Run dbosRun;
    private final WorkersAndTimers workers = new WorkersAndTimers();
    private int sessions;
    private int rounds;
    private int warmupSeconds;

    @Override
    String title() {
        return "9. Durable sessions: a step stored per input (weft-sessions)";
    }

    /** The depths measured: all three, or in a quick run only 10 (each PostgreSQL probe starts a server). */
    private static List<Integer> frames(Settings settings) {
        return settings.quick() ? List.of(10) : FRAMES;
    }

    /** The node counts measured: none in a quick run. */
    private static List<Integer> nodes(Settings settings) {
        return settings.quick() ? List.of() : NODES;
    }

    @Override
    int plannedSteps(Settings settings) {
        return 2 * 2 * ENGINES.size() * frames(settings).size() + 1 + nodes(settings).size() + 2 * ENGINES.size()
                + WorkersAndTimers.plannedSteps(settings);
    }

    @Override
    double estimatedSeconds(Settings settings) {
        int steps = plannedSteps(settings) - WorkersAndTimers.plannedSteps(settings);
        return steps * (settings.quick() ? 8 : 25 + WARMUP_SECONDS) + WorkersAndTimers.estimatedSeconds(settings);
    }

    @Override
    void measure(Bench bench) {
        Settings settings = bench.settings();
        sessions = settings.quick() ? 5 : 100;
        rounds = settings.quick() ? 2 : 20;
        warmupSeconds = settings.quick() ? 0 : WARMUP_SECONDS;
        for (String store : List.of("sqlite", "postgres")) {
            for (int frames : frames(settings)) {
                for (Engine engine : ENGINES) {
                    addDepth(store, frames, engine, probe(bench, store, frames, 1, 0, engine));
                    addResident(store, frames, engine, probe(bench, store, frames, 1, sessions, engine));
                }
            }
        }
        addDbos(dbosProbe(bench, floorBytes()));
        for (int nodes : nodes(settings)) {
            nodeRuns.put(nodes, probe(bench, "postgres", 10, nodes, 0, Engine.NATIVE));
        }
        for (String store : List.of("sqlite", "postgres")) {
            for (Engine engine : ENGINES) {
                addHistory(store, HISTORY_FRAMES, engine, historyProbe(bench, store, engine));
            }
        }
        workers.measure(bench);
    }

    /** Records Weft's run on {@code store} at {@code frames} frames on {@code engine}. */
    void addDepth(String store, int frames, Engine engine, Run run) {
        depthRuns.put(key(store, frames, engine), run);
    }

    /** Records Weft's run on {@code store} at {@code frames} frames on {@code engine}, the sessions kept resident. */
    void addResident(String store, int frames, Engine engine, Run run) {
        residentRuns.put(key(store, frames, engine), run);
    }

    /**
     * Records Weft's run of steps with history against the same steps without, on {@code store}
     * at {@code frames} frames on {@code engine}.
     */
    void addHistory(String store, int frames, Engine engine, Run run) {
        historyRuns.put(key(store, frames, engine), run);
    }

    /** A run's key: store, frames and engine, separated by spaces. */
    private static String key(String store, int frames, Engine engine) {
        return store + " " + frames + " " + engine;
    }

    /** The store and frames of a run's key: what the targets compare, whichever engine ran it. */
    private static String storeAndFrames(String key) {
        return key.substring(0, key.lastIndexOf(' '));
    }

    private static Engine engineOf(String key) {
        return Engine.valueOf(key.substring(key.lastIndexOf(' ') + 1));
    }

    private static String engineLabel(Engine engine) {
        return engine == Engine.WOVEN ? "woven engine" : "native engine";
    }

    /** Records DBOS Transact's run. */
    void addDbos(Run run) {
        dbosRun = run;
    }

    /** The row size of the shallowest Weft session measured on PostgreSQL: DBOS's floor row. */
    private int floorBytes() {
        return depthRuns.entrySet().stream().filter(e -> e.getKey().startsWith("postgres ")).map(Map.Entry::getValue)
                .mapToDouble(run -> run.number("row-bytes")).filter(bytes -> !Double.isNaN(bytes))
                .mapToInt(bytes -> (int) bytes).findFirst().orElse(DEFAULT_FLOOR_BYTES);
    }

    private Run dbosProbe(Bench bench, int floorBytes) {
        String label = WORKLOAD + ": " + DBOS + " on postgres";
        try {
            Map<String, String> values = bench.probe(label, DbosProbe.class, List.of("" + sessions, "" + rounds,
                    "" + floorBytes), List.of("--enable-native-access=ALL-UNNAMED"), TIMEOUT);
            double median = ProbeRunner.number(values, "dbos-median-us");
            double floor = ProbeRunner.number(values, "floor-median-us");
            bench.record(WORKLOAD, "dbos postgres", "median step",
                    Outcome.measured(median, "us", (int) ProbeRunner.number(values, "dbos-steps")));
            bench.probed(label, Format.number(median) + " us a step, floor " + Format.number(floor) + " us");
            return new Run(values, null);
        } catch (ProbeRunner.ProbeFailure e) {
            bench.record(WORKLOAD, "dbos postgres", "median step", Outcome.failed(e.getMessage()));
            return new Run(null, e.getMessage());
        }
    }

    /** Weft's probe; {@code resident} sessions kept in memory per node (0: every step reads the store). */
    private Run probe(Bench bench, String store, int frames, int nodes, int resident, Engine engine) {
        String variant = store + " frames=" + frames + " nodes=" + nodes + (resident > 0 ? " resident" : "")
                + " engine=" + engine;
        String label = WORKLOAD + ": " + variant;
        try {
            Map<String, String> values = bench.probe(label, SessionsProbe.class, List.of(store, "" + frames,
                    "" + sessions, "" + rounds, "" + nodes, "" + resident, engine.name(), "" + warmupSeconds),
                    List.of("--enable-native-access=ALL-UNNAMED"), TIMEOUT);
            double median = ProbeRunner.number(values, "sessions-median-us");
            double floor = ProbeRunner.number(values, "floor-median-us");
            bench.record(WORKLOAD, variant, "median step",
                    Outcome.measured(median, "us", (int) ProbeRunner.number(values, "sessions-steps")));
            bench.probed(label, Format.number(median) + " us a step, floor " + Format.number(floor) + " us");
            return new Run(values, null);
        } catch (ProbeRunner.ProbeFailure e) {
            bench.record(WORKLOAD, variant, "median step", Outcome.failed(e.getMessage()));
            return new Run(null, e.getMessage());
        }
    }

    /** Weft's probe of a step with history against the same step without, on {@code store} and {@code engine}. */
    private Run historyProbe(Bench bench, String store, Engine engine) {
        String variant = store + " frames=" + HISTORY_FRAMES + " nodes=1 history engine=" + engine;
        String label = WORKLOAD + ": " + variant;
        try {
            Map<String, String> values = bench.probe(label, SessionsProbe.class, List.of(store, "" + HISTORY_FRAMES,
                    "" + sessions, "" + rounds, "1", "0", engine.name(), "" + warmupSeconds, "history"),
                    List.of("--enable-native-access=ALL-UNNAMED"), TIMEOUT);
            double median = ProbeRunner.number(values, "sessions-median-us");
            double plain = ProbeRunner.number(values, "plain-median-us");
            bench.record(WORKLOAD, variant, "median step",
                    Outcome.measured(median, "us", (int) ProbeRunner.number(values, "sessions-steps")));
            bench.probed(label, Format.number(median) + " us a step with history, " + Format.number(plain)
                    + " us without");
            return new Run(values, null);
        } catch (ProbeRunner.ProbeFailure e) {
            bench.record(WORKLOAD, variant, "median step", Outcome.failed(e.getMessage()));
            return new Run(null, e.getMessage());
        }
    }

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph("""
                A session of `SessionWorkflow` suspended 1, 10 or 100 woven frames deep is resumed with an \
                input and stored again, one transaction per step, by `Sessions.resume`; %d sessions, %d steps \
                each, timed one by one, after three untimed steps each and %d s of untimed rounds on each \
                node (a step's code runs once per step: a few thousand steps leave it in the JIT's \
                profiling tier). A step reads its row (`SELECT ... FOR \
                UPDATE` on PostgreSQL), restores the coroutine, runs it to its next `ret`, captures and \
                writes its frames, and `UPDATE`s the row in the same transaction (on PostgreSQL the \
                `UPDATE` and the `COMMIT` go in one round trip, the body writing nothing of its own: two \
                round trips a step, as the floor's). The floor is the same \
                store, in the same run and on the same threads, interleaved with the steps (after each \
                round of steps, as many floor updates): per step one transaction that `UPDATE`s one row \
                of as many bytes as a session's row holds after a step (row bytes: the state, the last \
                output, the build's fingerprint, the point and its values, the status and three numbers; \
                each build's manifest is stored once, apart) through a statement prepared once, and \
                commits it (SQLite: write-ahead log, `synchronous=FULL`; PostgreSQL 17 \
                from Maven Central's binaries, default settings, on this machine). The goal is a median \
                step within 1.3x of the floor. The resident rows keep every session's coroutine in memory \
                between steps (`Sessions.Builder.keepResident`, each node stepping its sessions once, \
                untimed, first): a step then reads no state and takes no row lock, and stores its new \
                state only over the version the node stored: one `UPDATE` and the commit (on PostgreSQL in \
                one round trip, against the floor's two), \
                besides running the body and capturing and writing its frames. Each kind runs on both \
                engines (`Sessions.Builder.engine`): the same woven classes, their frames frozen and thawed \
                by HotSpot on the native engine, saved in the coroutine's fiber on the woven one (which \
                reads them without resuming anything). The goal is judged on the faster engine of each \
                store and depth.\
                """.formatted(sessions, rounds, warmupSeconds));
        page.paragraph("""
                The %s row runs the same workflow on PostgreSQL with DBOS's documented means, in a fresh \
                JVM of its own that starts the same PostgreSQL build with the same settings (`DbosProbe`): \
                each workflow waits for its input with `recv`, answers it (the input plus one) in a durable \
                step (`runStep`) and publishes the answer with `setEvent`; one step from outside is a `send` \
                of the input and a `getEvent` of the answer, timed the same way, every answer checked. DBOS \
                keeps no stack: its workflow waits on a thread, and a restarted node rebuilds it by replaying \
                the recorded steps. Its floor is measured on the same server, after it, with a row of the \
                shallowest Weft session's row size.\
                """.formatted(DBOS));
        Table depths = new Table("system", "store", "frames", "state bytes", "row bytes", "steps/s", "median µs",
                "p99 µs", "floor steps/s", "floor median µs", "floor p99 µs", "median / floor");
        depthRuns.forEach((key, run) -> weftRow(depths, "Weft, " + engineLabel(engineOf(key)), key, run));
        residentRuns.forEach((key, run) -> weftRow(depths, "Weft, " + engineLabel(engineOf(key)) + ", resident", key,
                run));
        if (dbosRun != null) {
            depths.row(DBOS, "postgres", Format.NONE, Format.NONE, Format.NONE,
                    dbosRun.get("dbos-steps-per-second"), dbosRun.get("dbos-median-us"), dbosRun.get("dbos-p99-us"),
                    dbosRun.get("floor-steps-per-second"), dbosRun.get("floor-median-us"), dbosRun.get("floor-p99-us"),
                    Format.number(dbosRun.number("dbos-median-us") / dbosRun.number("floor-median-us")));
        }
        page.table(depths);
        if (!nodeRuns.isEmpty()) {
            page.paragraph("""
                    Throughput on PostgreSQL with 1, 2 and 4 nodes: each node a thread with its own \
                    `Sessions` and connections, resuming its share of the sessions (10 frames deep, native \
                    engine) and \
                    doing the floor's single-row updates between its rounds; steps per second are each \
                    kind's count over the longest time a node spent on it.\
                    """);
            Table nodes = new Table("nodes", "steps/s", "median µs", "p99 µs", "floor steps/s", "floor median µs");
            nodeRuns.forEach((count, run) -> nodes.row("" + count, run.get("sessions-steps-per-second"),
                    run.get("sessions-median-us"), run.get("sessions-p99-us"), run.get("floor-steps-per-second"),
                    run.get("floor-median-us")));
            page.table(nodes);
        }
        writeHistory(page);
        List<String> failures = new ArrayList<>();
        depthRuns.forEach((key, run) -> {
            if (run.failure() != null) {
                failures.add(key + ": " + run.failure());
            }
        });
        residentRuns.forEach((key, run) -> {
            if (run.failure() != null) {
                failures.add(key + " resident: " + run.failure());
            }
        });
        nodeRuns.forEach((count, run) -> {
            if (run.failure() != null) {
                failures.add("postgres nodes=" + count + ": " + run.failure());
            }
        });
        historyRuns.forEach((key, run) -> {
            if (run.failure() != null) {
                failures.add(key + " history: " + run.failure());
            }
        });
        if (dbosRun != null && dbosRun.failure() != null) {
            failures.add(DBOS + ": " + dbosRun.failure());
        }
        if (!failures.isEmpty()) {
            page.paragraph("Not measured:");
            page.bullets(failures);
        }
        workers.write(page);
    }

    /** The table of steps with history against steps without. */
    private void writeHistory(Page page) {
        if (historyRuns.isEmpty()) {
            return;
        }
        page.paragraph("""
                The step history (`Sessions.Builder.keepHistory`, issue 35): a step that also writes its \
                entry in table `weft_history` (version, start, node, duration, engine, status, wait, \
                failure; two indexes) in its own transaction (on PostgreSQL in the statement that \
                updates the session's row, a data-modifying `WITH`, so in the same round trip; on \
                SQLite an `INSERT` after it), against the same step without. Each node has two \
                `Sessions` on its store, one keeping history and one not, and each round steps every \
                session, %d frames deep, with the first and then with the second, timing each step: \
                the same sessions, rows and moment; %d sessions, %d rounds, after %d s of untimed \
                rounds. The goal is a median step with history within %sx of one without, on every \
                store and engine.\
                """.formatted(HISTORY_FRAMES, sessions, rounds, warmupSeconds, HISTORY_GOAL));
        Table table = new Table("store", "frames", "engine", "steps/s", "median µs", "p99 µs", "without: steps/s",
                "without: median µs", "without: p99 µs", "median / without");
        historyRuns.forEach((key, run) -> {
            String[] parts = key.split(" ");
            table.row(parts[0], parts[1], engineLabel(engineOf(key)), run.get("sessions-steps-per-second"),
                    run.get("sessions-median-us"), run.get("sessions-p99-us"), run.get("plain-steps-per-second"),
                    run.get("plain-median-us"), run.get("plain-p99-us"), Format.number(historyRatio(run)));
        });
        page.table(table);
    }

    private static double historyRatio(Run run) {
        return run.number("sessions-median-us") / run.number("plain-median-us");
    }

    private static void weftRow(Table depths, String system, String key, Run run) {
        String[] parts = key.split(" ");
        depths.row(system, parts[0], parts[1], run.get("state-bytes"), run.get("row-bytes"),
                run.get("sessions-steps-per-second"), run.get("sessions-median-us"), run.get("sessions-p99-us"),
                run.get("floor-steps-per-second"),
                run.get("floor-median-us"), run.get("floor-p99-us"),
                Format.number(run.number("sessions-median-us") / run.number("floor-median-us")));
    }

    @Override
    List<Target> targets(PeerResults peers) {
        List<Target> targets = new ArrayList<>(List.of(withinFloor("", depthRuns).explainedIfMissed(readAndRestore()),
                besideDbos(), withinFloor(", sessions kept resident", residentRuns), historyWithinPlain()));
        targets.addAll(workers.targets());
        return targets;
    }

    /**
     * What reading a session's row and restoring its coroutine add to a step: the median stored
     * step less the median resident one, at each store, depth and engine that ran both.
     */
    private String readAndRestore() {
        List<String> added = new ArrayList<>();
        depthRuns.forEach((key, stored) -> {
            Run resident = residentRuns.get(key);
            if (resident == null || stored.failure() != null || resident.failure() != null) {
                return;
            }
            double extra = stored.number("sessions-median-us") - resident.number("sessions-median-us");
            added.add(storeAndFrames(key) + " frames, " + engineLabel(engineOf(key)) + ": " + Format.number(extra)
                    + " µs (" + Format.number(extra / stored.number("floor-median-us")) + "x the floor)");
        });
        if (added.isEmpty()) {
            return "";
        }
        return "a stored step does all that a resident one does (runs the body, captures and writes its frames, "
                + "updates its row and commits) and before that reads its row (`SELECT ... FOR UPDATE` on PostgreSQL, a "
                + "round trip) and restores the coroutine from it, its bytes validated; the resident rows skip both. "
                + "The median stored step less the median resident one: " + String.join("; ", added) + ".";
    }

    /**
     * Issue 13's goal: a median step within 1.3x of the same store's single-row update, judged on
     * the faster engine at each store and depth.
     */
    private static Target withinFloor(String how, Map<String, Run> runs) {
        String goal = "Durable sessions" + how + ": a median step within " + GOAL
                + "x of one single-row UPDATE on the same store, on the faster engine (issue 13)";
        Map<String, List<Map.Entry<String, Run>>> byDepth = new LinkedHashMap<>();
        for (Map.Entry<String, Run> entry : runs.entrySet()) {
            byDepth.computeIfAbsent(storeAndFrames(entry.getKey()), k -> new ArrayList<>()).add(entry);
        }
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (Map.Entry<String, List<Map.Entry<String, Run>>> depth : byDepth.entrySet()) {
            Map<String, Double> ratios = new LinkedHashMap<>();
            for (Map.Entry<String, Run> entry : depth.getValue()) {
                double ratio = ratio(entry.getValue());
                if (Double.isNaN(ratio)) {
                    return Target.notMeasured(goal, entry.getKey() + " frames failed");
                }
                ratios.put(engineLabel(engineOf(entry.getKey())), ratio);
            }
            String best = Collections.min(ratios.entrySet(), Map.Entry.comparingByValue()).getKey();
            List<String> others = new ArrayList<>();
            ratios.forEach((engine, ratio) -> {
                if (!engine.equals(best)) {
                    others.add(engine + " " + Format.number(ratio) + "x");
                }
            });
            measured.add(depth.getKey() + " frames " + Format.number(ratios.get(best)) + "x (" + best
                    + (others.isEmpty() ? "" : "; " + String.join(", ", others)) + ")");
            met &= ratios.get(best) <= GOAL;
        }
        if (measured.isEmpty()) {
            return Target.notMeasured(goal, "not run");
        }
        return Target.of(goal, String.join(", ", measured), met);
    }

    /** Issue 35's goal: a step with history within 1.1x of the same step without, on every store and engine. */
    private Target historyWithinPlain() {
        String goal = "Step history: a median step that writes its history entry within " + HISTORY_GOAL
                + "x of the same step without, on every store and engine (issue 35)";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (Map.Entry<String, Run> entry : historyRuns.entrySet()) {
            double ratio = historyRatio(entry.getValue());
            if (Double.isNaN(ratio)) {
                return Target.notMeasured(goal, entry.getKey() + " frames failed");
            }
            measured.add(storeAndFrames(entry.getKey()) + " frames, " + engineLabel(engineOf(entry.getKey())) + " "
                    + Format.number(ratio) + "x");
            met &= ratio <= HISTORY_GOAL;
        }
        if (measured.isEmpty()) {
            return Target.notMeasured(goal, "not run");
        }
        return Target.of(goal, String.join(", ", measured), met);
    }

    private static double ratio(Run run) {
        return run.number("sessions-median-us") / run.number("floor-median-us");
    }

    /** Issue 13's comparison: Weft's step on PostgreSQL against DBOS Transact's on the same workflow. */
    private Target besideDbos() {
        String goal = "Durable sessions on PostgreSQL: a median step below " + DBOS + "'s on the same workflow"
                + " (issue 13)";
        if (dbosRun == null || dbosRun.failure() != null) {
            return Target.notMeasured(goal, dbosRun == null ? "not run" : DBOS + " failed: " + dbosRun.failure());
        }
        double dbos = dbosRun.number("dbos-median-us");
        Map<String, Double> fastest = new LinkedHashMap<>();
        for (Map.Entry<String, Run> entry : depthRuns.entrySet()) {
            if (!entry.getKey().startsWith("postgres ")) {
                continue;
            }
            double weft = entry.getValue().number("sessions-median-us");
            if (Double.isNaN(weft)) {
                return Target.notMeasured(goal, "Weft's " + entry.getKey() + " frames failed");
            }
            fastest.merge(storeAndFrames(entry.getKey()).substring("postgres ".length()), weft, Math::min);
        }
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (Map.Entry<String, Double> depth : fastest.entrySet()) {
            double weft = depth.getValue();
            measured.add(depth.getKey() + " frames " + Format.number(weft) + " µs (DBOS / Weft "
                    + Format.number(dbos / weft) + "x)");
            met &= weft < dbos;
        }
        if (measured.isEmpty()) {
            return Target.notMeasured(goal, "Weft not run on PostgreSQL");
        }
        return Target.of(goal, DBOS + " " + Format.number(dbos) + " µs; Weft " + String.join(", ", measured), met);
    }
}
