package dev.weft.bench;

import dev.weft.Engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Section 9's sessions that run by themselves (issue 32): steps run by workers against steps a
 * caller resumes ({@link WorkerStepsProbe}), timer lateness with many sleeping sessions
 * ({@link TimersProbe}), and DBOS Transact doing both on the same PostgreSQL build
 * ({@link DbosWorkersProbe}, {@link DbosTimersProbe}); each run in a fresh JVM. Measures, writes
 * its two tables and judges its three targets; {@link SessionsSection} calls it.
 */
final class WorkersAndTimers {

    private static final String WORKLOAD = "sessions";
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    /** A timers probe's: its lead grows with the time a start takes, which a loaded machine multiplies. */
    private static final Duration TIMERS_TIMEOUT = Duration.ofMinutes(10);
    private static final List<String> JVM_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED");
    private static final String DBOS = "DBOS Transact 1.1.0-m6";
    private static final double STEP_GOAL = 1.3;
    private static final double LATENESS_GOAL_MS = 100;
    /** The depth and engine of the worker-run sessions: those of the throughput table above. */
    private static final int FRAMES = 10;
    private static final Engine ENGINE = Engine.NATIVE;

    /** One measured configuration: a system on a store with so many nodes. */
    record Config(String system, String store, int nodes) {
        String label() {
            return store + " nodes=" + nodes;
        }
    }

    /** The sizes of a run. */
    record Sizes(int sessions, int rounds, int warmupSeconds, int dbosWarmupRounds, List<Config> stepConfigs,
            int timers, int timersDue, double windowSeconds, int timerWorkers, List<Config> timerConfigs) {

        static Sizes of(Settings settings) {
            if (settings.quick()) {
                return new Sizes(3, 2, 0, 1, List.of(weft("postgres", 1), dbos(1)), 50, 30, 1, 2,
                        List.of(weft("sqlite", 1), dbos(1)));
            }
            return new Sizes(100, 20, 5, 3, List.of(weft("postgres", 1), weft("postgres", 2), weft("postgres", 4),
                    weft("sqlite", 1), dbos(1), dbos(2), dbos(4)), 10_000, 3_000, 60, 2,
                    List.of(weft("postgres", 1), weft("postgres", 4), weft("sqlite", 1), dbos(1)));
        }

        private static Config weft(String store, int nodes) {
            return new Config("Weft", store, nodes);
        }

        private static Config dbos(int nodes) {
            return new Config(DBOS, "postgres", nodes);
        }

        int probes() {
            return stepConfigs.size() + timerConfigs.size();
        }
    }

    private final Map<Config, SessionsSection.Run> workerRuns = new LinkedHashMap<>();
    private final Map<Config, SessionsSection.Run> timerRuns = new LinkedHashMap<>();
    private Sizes sizes;

    WorkersAndTimers() {
    }

    /** Sized as {@code settings} would size its measurements, for writing what tests record. */
    WorkersAndTimers(Settings settings) {
        sizes = Sizes.of(settings);
    }

    static int plannedSteps(Settings settings) {
        return Sizes.of(settings).probes();
    }

    /**
     * Seconds: a worker probe about 30 (its steps one at a time, then its backlogs; 30 for DBOS, which starts its nodes), a timers probe its
     * lead (a start taking some 0.5 ms, DBOS's 1), window and 15.
     */
    static double estimatedSeconds(Settings settings) {
        Sizes sizes = Sizes.of(settings);
        double seconds = 0;
        for (Config config : sizes.stepConfigs()) {
            seconds += settings.quick() ? 8 : 30;
        }
        for (Config config : sizes.timerConfigs()) {
            Duration lead = TimersProbe.lead(Duration.ofMillis(1).dividedBy(isDbos(config) ? 1 : 2), sizes.timers());
            seconds += lead.toSeconds() + sizes.windowSeconds() + (settings.quick() ? 5 : 15);
        }
        return seconds;
    }

    void measure(Bench bench) {
        sizes = Sizes.of(bench.settings());
        for (Config config : sizes.stepConfigs()) {
            workerRuns.put(config, isDbos(config) ? dbosWorkers(bench, config) : weftWorkers(bench, config));
        }
        for (Config config : sizes.timerConfigs()) {
            timerRuns.put(config, isDbos(config) ? dbosTimers(bench, config) : weftTimers(bench, config));
        }
    }

    /** Records a run of worker-run steps, for the tests. */
    void addWorkers(Config config, SessionsSection.Run run) {
        workerRuns.put(config, run);
    }

    /** Records a run of timers, for the tests. */
    void addTimers(Config config, SessionsSection.Run run) {
        timerRuns.put(config, run);
    }

    private static boolean isDbos(Config config) {
        return config.system().equals(DBOS);
    }

    private SessionsSection.Run weftWorkers(Bench bench, Config config) {
        return probe(bench, "workers " + config.label(), WorkerStepsProbe.class, List.of(config.store(), "" + FRAMES,
                "" + sizes.sessions(), "" + sizes.rounds(), "" + config.nodes(), ENGINE.name(),
                "" + sizes.warmupSeconds()), TIMEOUT, (values, variant) -> {
                    recordStep(bench, variant, values, "worker", "median worker-run step");
                    recordStep(bench, variant, values, "resume", "median resumed step");
                });
    }

    private SessionsSection.Run dbosWorkers(Bench bench, Config config) {
        return probe(bench, "dbos workers " + config.label(), DbosWorkersProbe.class, List.of("" + sizes.sessions(),
                "" + sizes.rounds(), "" + config.nodes(), "" + sizes.dbosWarmupRounds()), TIMEOUT,
                (values, variant) -> recordStep(bench, variant, values, "dbos", "median worker-run step"));
    }

    private SessionsSection.Run weftTimers(Bench bench, Config config) {
        return probe(bench, "timers " + config.label(), TimersProbe.class, List.of(config.store(), "" + sizes.timers(),
                "" + sizes.timersDue(), "" + sizes.windowSeconds(), "" + config.nodes(), "" + sizes.timerWorkers(), ENGINE.name()),
                TIMERS_TIMEOUT, (values, variant) -> recordLateness(bench, variant, values));
    }

    private SessionsSection.Run dbosTimers(Bench bench, Config config) {
        return probe(bench, "dbos timers " + config.label(), DbosTimersProbe.class, List.of("" + sizes.timers(),
                "" + sizes.timersDue(), "" + sizes.windowSeconds()), TIMERS_TIMEOUT, (values, variant) -> recordLateness(bench, variant, values));
    }

    /** Runs a probe; on success {@code record} records what it found under its variant. */
    private static SessionsSection.Run probe(Bench bench, String variant, Class<?> probe, List<String> args,
            Duration timeout, BiConsumer<Map<String, String>, String> record) {
        String label = WORKLOAD + ": " + variant;
        try {
            Map<String, String> values = bench.probe(label, probe, args, JVM_OPTIONS, timeout);
            record.accept(values, variant);
            bench.probed(label, summary(values));
            return new SessionsSection.Run(values, null);
        } catch (ProbeRunner.ProbeFailure e) {
            bench.record(WORKLOAD, variant, "median", Outcome.failed(e.getMessage()));
            return new SessionsSection.Run(null, e.getMessage());
        }
    }

    private static String summary(Map<String, String> values) {
        if (values.containsKey("committed-p99-ms")) {
            return "lateness p99 " + values.get("committed-p99-ms") + " ms";
        }
        String prefix = values.containsKey("dbos-median-us") ? "dbos" : "worker";
        return values.get(prefix + "-median-us") + " us a worker-run step"
                + (values.containsKey("resume-median-us") ? ", resumed " + values.get("resume-median-us") + " us" : "");
    }

    private static void recordStep(Bench bench, String variant, Map<String, String> values, String prefix,
            String parameter) {
        bench.record(WORKLOAD, variant, parameter, Outcome.measured(Double.parseDouble(values.get(prefix + "-median-us")),
                "us", (int) Double.parseDouble(values.get(prefix + "-steps"))));
    }

    private static void recordLateness(Bench bench, String variant, Map<String, String> values) {
        bench.record(WORKLOAD, variant, "p99 lateness", Outcome.measured(
                Double.parseDouble(values.get("committed-p99-ms")), "ms", (int) Double.parseDouble(values.get("fired"))));
    }

    void write(Page page) {
        writeWorkers(page);
        writeTimers(page);
        List<String> failures = new ArrayList<>();
        workerRuns.forEach((config, run) -> failed(failures, "worker-run steps, " + config.system() + " "
                + config.label(), run));
        timerRuns.forEach((config, run) -> failed(failures, "timers, " + config.system() + " " + config.label(), run));
        if (!failures.isEmpty()) {
            page.paragraph("Not measured (sessions run by workers):");
            page.bullets(failures);
        }
    }

    private static void failed(List<String> failures, String what, SessionsSection.Run run) {
        if (run.failure() != null) {
            failures.add(what + ": " + run.failure());
        }
    }

    private void writeWorkers(Page page) {
        if (workerRuns.isEmpty()) {
            return;
        }
        page.paragraph("""
                Sessions that run by themselves (issue 32). Steps run by workers, against steps a caller \
                resumes, of the same session (`WorkerStepsProbe`): %d sessions of `WaitingWorkflow`, %d \
                frames deep on the %s engine, wait for a message (`StepContext.awaitMessage`), and as many \
                twins, the same body otherwise, wait for a caller's input. Each node is a thread with a \
                `Sessions` of its own: its own store and connections, one worker, and on PostgreSQL its own \
                `LISTEN` connection, all that a node in a process of its own would have, so that the database \
                sees the same sessions and transactions; the nodes share one JVM, as in the throughput table \
                above, since on two cores a JVM per node would add each JVM's JIT and collector threads to \
                the work measured. Each node takes turns over its share of the sessions, %d rounds (after %d s of untimed rounds): a \
                worker-run step of each, then a resumed step of each twin. A worker-run step is timed from \
                the call to `Sessions.send` (which stores the message in the session's inbox, in a \
                transaction of its own, and wakes the workers: this node's at once, the others' through \
                `LISTEN/NOTIFY`) to the moment the `COMMIT` of the step it makes due returns on the thread of \
                the worker that claimed and ran it, whichever node's (seen in the JVM through the probe's \
                JDBC driver, which watches every connection of the store alike, both kinds' included); a \
                resumed step from the call to `Sessions.resume` to its return. So a worker-run step counts \
                the send, the wake-up, the worker's look for due sessions, its claim (`FOR NO KEY UPDATE SKIP \
                LOCKED` on PostgreSQL), the step with the message taken from the inbox, and its commit; a \
                resumed step the step alone. Steps per second are each kind's count over the longest time a \
                node spent on it (one step in flight per node). Every answer is checked, and every session's \
                version at the end.\
                """.formatted(sizes.sessions(), FRAMES, ENGINE == Engine.NATIVE ? "native" : "woven",
                sizes.rounds(), sizes.warmupSeconds()));
        page.paragraph("""
                The %s rows run the same workflow as the table above (`recv`, a durable step, `setEvent`) in \
                a fresh JVM on the same PostgreSQL build (`DbosWorkersProbe`), its workflows enqueued on a DBOS \
                queue, DBOS's means of running workflows on workers: each node a DBOS instance with an \
                executor id of its own, polling the queue every 50 ms and running at most its share of the \
                workflows at once. A step is a `send`, timed to the moment `setEvent` returns in the \
                workflow's thread, whichever node runs it, after %d untimed rounds; every answer checked. \
                DBOS has no resumed step: a workflow runs on a thread from its start to its end, and `recv` \
                waits on it.\
                """.formatted(DBOS, sizes.dbosWarmupRounds()));
        Table table = new Table("system", "store", "nodes", "steps/s", "median µs", "p99 µs", "resumed steps/s",
                "resumed median µs", "resumed p99 µs", "median / resumed");
        workerRuns.forEach((config, run) -> table.row(workerRow(config, run)));
        page.table(table);
        page.paragraph("""
                Where a step's time goes, by median over the same steps: a worker-run step's `send` (the \
                call, its transaction committed), the time from the call to `send` until the step's body \
                began (after the wake-up, the worker's look for due sessions, its claim, the row read and \
                locked, the message taken and the coroutine restored), and from there to the commit (the \
                body run to its next `ret`, its frames captured and written, the row updated and the \
                transaction committed); a resumed step's time from the call until its body began (the row \
                read and locked, the coroutine restored) and from there until the call returned.\
                """);
        Table parts = new Table("store", "nodes", "send µs", "send to body µs", "body to commit µs",
                "resume to body µs", "body to return µs");
        workerRuns.forEach((config, run) -> {
            if (!isDbos(config)) {
                parts.row(config.store(), "" + config.nodes(), run.get("worker-send-median-us"),
                        run.get("worker-before-body-median-us"), run.get("worker-after-body-median-us"),
                        run.get("resume-before-body-median-us"), run.get("resume-after-body-median-us"));
            }
        });
        page.table(parts);
        writeBacklogs(page);
    }

    /** The steps per second of a backlog that the workers run, against the same steps resumed back to back. */
    private void writeBacklogs(Page page) {
        page.paragraph("""
                What a worker-run step costs, the send left out: %d rounds on the same nodes and sessions \
                (after %d s of untimed ones), in each of which every node stores a message to each session \
                of its share in one transaction (the last one sent alone with `Sessions.send`, which wakes \
                the node's own worker; on PostgreSQL the transaction's commit wakes every node's), and waits \
                until the workers, of any node, have run all those steps, timed from the transaction's commit to \
                the last step's; then resumes each of its twins one after another. Steps per second are each \
                kind's count over the longest time a node spent on it: as many workers as callers, each one \
                step at a time. The goal: worker-run steps within %sx of resumed ones, in steps per second.\
                """.formatted(sizes.rounds(), sizes.warmupSeconds(), "" + STEP_GOAL));
        Table table = new Table("store", "nodes", "workers' steps/s", "resumed steps/s", "resumed / workers'");
        workerRuns.forEach((config, run) -> {
            if (!isDbos(config)) {
                table.row(config.store(), "" + config.nodes(), run.get("drain-worker-steps-per-second"),
                        run.get("drain-resume-steps-per-second"), Format.number(backlogRatio(run)));
            }
        });
        page.table(table);
    }

    /** How many times as many steps a second a caller resumes as the workers run from a backlog: above 1, workers are slower. */
    private static double backlogRatio(SessionsSection.Run run) {
        return run.number("drain-resume-steps-per-second") / run.number("drain-worker-steps-per-second");
    }

    private static List<String> workerRow(Config config, SessionsSection.Run run) {
        String prefix = isDbos(config) ? "dbos" : "worker";
        String none = Format.NONE;
        boolean resumed = !isDbos(config);
        return List.of(config.system(), config.store(), "" + config.nodes(), run.get(prefix + "-steps-per-second"),
                run.get(prefix + "-median-us"), run.get(prefix + "-p99-us"),
                resumed ? run.get("resume-steps-per-second") : none, resumed ? run.get("resume-median-us") : none,
                resumed ? run.get("resume-p99-us") : none, resumed ? Format.number(ratio(run)) : none);
    }

    private static double ratio(SessionsSection.Run run) {
        return run.number("worker-median-us") / run.number("resume-median-us");
    }

    private void writeTimers(Page page) {
        if (timerRuns.isEmpty()) {
            return;
        }
        page.paragraph("""
                Timer lateness (`TimersProbe`): %s sessions of `SleepingWorkflow` sleep \
                (`StepContext.sleepUntil`), %s of them until due times of their own, whole milliseconds spread \
                evenly over %s s (%s a second), the others until a day after (they sleep on through the run, \
                in the store and its index of due times as the others do). The first due time is set once %s \
                starts of sessions it then removes have warmed up and timed the start: a second and twice the \
                time the starts will take ahead, so that all are stored before it. Then the nodes are built, \
                each a `Sessions` of its own with %d workers (nodes as above), and each timer fires when a \
                worker runs the step its sleep made due, which ends the session. Its lateness is measured \
                against its due time twice: when that step's body begins (started), and when the step's \
                `COMMIT` returns on the worker's thread (committed: the fire time, as a user of the session \
                sees it). Every timer due is checked to fire once, for its own due time, and the store to hold \
                only the sessions that sleep on at the end. The %s row (`DbosTimersProbe`) starts as many \
                workflows the same way (its start timed on as many workflows it then cancels), each sleeping with \
                DBOS's durable `sleep` on the thread DBOS runs it on, then running one durable step (started: \
                when the thread wakes; committed: when that step returns). Stored late counts timers whose \
                session (workflow) was stored only after its due time; early, those that began before it \
                (DBOS's `sleep` sleeps the whole milliseconds left, truncated, so that a workflow may wake up \
                to a millisecond before its time). The goal: a committed lateness p99 under %s ms.\
                """.formatted(Format.count(sizes.timers()), Format.count(sizes.timersDue()),
                Format.number(sizes.windowSeconds()), Format.number(sizes.timersDue() / sizes.windowSeconds()),
                TimersProbe.warmUpStarts(sizes.timers()), sizes.timerWorkers(), DBOS,
                Format.number(LATENESS_GOAL_MS)));
        Table table = new Table("system", "store", "nodes", "workers a node", "started median ms", "started p99 ms",
                "committed median ms", "committed p99 ms", "committed max ms", "stored late", "early");
        timerRuns.forEach((config, run) -> table.row(config.system(), config.store(), "" + config.nodes(),
                isDbos(config) ? Format.NONE : "" + sizes.timerWorkers(), run.get("started-median-ms"),
                run.get("started-p99-ms"), run.get("committed-median-ms"), run.get("committed-p99-ms"),
                run.get("committed-max-ms"), count(run, "late-stored"), count(run, "early")));
        page.table(table);
    }

    private static String count(SessionsSection.Run run, String key) {
        double value = run.number(key);
        return Double.isNaN(value) ? Format.NONE : Format.count((long) value);
    }

    List<Target> targets() {
        return List.of(workersWithinResume().explainedIfMissed(whereTheTimeGoes()), latenessUnderGoal(),
                aheadOfDbos());
    }

    /** What a worker-run step does that a resumed one does not, with the medians of their parts. */
    private String whereTheTimeGoes() {
        List<String> rows = new ArrayList<>();
        workerRuns.forEach((config, run) -> {
            if (!isDbos(config) && run.failure() == null) {
                rows.add(config.label() + ": send " + run.get("worker-send-median-us") + " µs, then "
                        + run.get("worker-before-body-median-us") + " µs from the send's call to the body, "
                        + run.get("worker-after-body-median-us") + " µs from the body to the commit; resumed: "
                        + run.get("resume-before-body-median-us") + " µs to the body, "
                        + run.get("resume-after-body-median-us") + " µs from the body to the return");
            }
        });
        if (rows.isEmpty()) {
            return "";
        }
        return "a worker-run step is a `send` (a transaction of its own, which stores the message and notifies the"
                + " workers), then the worker's claim in the step's transaction (on PostgreSQL one statement that"
                + " locks the session's row, reads it and takes the message from the inbox; on SQLite a read of the"
                + " earliest due time first, without the write lock, then the claim, then the message's take), the"
                + " step itself and, since the session waits again, a notification to the other nodes' workers, sent"
                + " with the row's `UPDATE` and the `COMMIT`; a resumed step is the row read and locked, the step and"
                + " its commit. The medians of their parts: " + String.join("; ", rows) + ".";
    }

    /**
     * Issue 32's goal: worker-run steps within 1.3x of resumed ones of the same sessions, in steps
     * per second (a backlog run by the workers against resumes back to back), on every Weft row.
     */
    private Target workersWithinResume() {
        String goal = "Sessions run by workers: worker-run steps within " + STEP_GOAL + "x of resumed steps of the"
                + " same sessions, in steps per second (a backlog the workers run, against resumes one after another),"
                + " on every store and node count (issue 32)";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (Map.Entry<Config, SessionsSection.Run> entry : workerRuns.entrySet()) {
            if (isDbos(entry.getKey())) {
                continue;
            }
            double ratio = backlogRatio(entry.getValue());
            if (Double.isNaN(ratio)) {
                return Target.notMeasured(goal, entry.getKey().label() + " failed");
            }
            measured.add(entry.getKey().label() + " " + Format.number(ratio) + "x ("
                    + entry.getValue().get("drain-worker-steps-per-second") + " steps/s vs "
                    + entry.getValue().get("drain-resume-steps-per-second") + ")");
            met &= ratio <= STEP_GOAL;
        }
        return measured.isEmpty() ? Target.notMeasured(goal, "not run") : Target.of(goal, String.join(", ", measured), met);
    }

    /** Issue 32's goal: timer lateness p99 under 100 ms, on every Weft row. */
    private Target latenessUnderGoal() {
        String goal = "Timers: lateness p99 (due to the firing step's commit) under " + Format.number(LATENESS_GOAL_MS)
                + " ms with " + Format.count(sizes == null ? 10_000 : sizes.timers())
                + " sleeping sessions, on every store and node count (issue 32)";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (Map.Entry<Config, SessionsSection.Run> entry : timerRuns.entrySet()) {
            if (isDbos(entry.getKey())) {
                continue;
            }
            double p99 = entry.getValue().number("committed-p99-ms");
            if (Double.isNaN(p99)) {
                return Target.notMeasured(goal, entry.getKey().label() + " failed");
            }
            measured.add(entry.getKey().label() + " " + Format.number(p99) + " ms (median "
                    + entry.getValue().get("committed-median-ms") + ")");
            met &= p99 < LATENESS_GOAL_MS;
        }
        return measured.isEmpty() ? Target.notMeasured(goal, "not run") : Target.of(goal, String.join(", ", measured), met);
    }

    /**
     * Issue 32's comparison: on PostgreSQL, Weft's worker-run steps per second above DBOS's at
     * each node count both measured, and Weft's timer lateness p99 below DBOS's.
     */
    private Target aheadOfDbos() {
        String goal = "Sessions run by workers on PostgreSQL: ahead of " + DBOS + " on every row (worker-run steps"
                + " per second at each node count; timer lateness p99) (issue 32)";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (Map.Entry<Config, SessionsSection.Run> entry : workerRuns.entrySet()) {
            Config config = entry.getKey();
            SessionsSection.Run dbos = workerRuns.get(new Config(DBOS, "postgres", config.nodes()));
            if (isDbos(config) || !config.store().equals("postgres") || dbos == null) {
                continue;
            }
            double weft = entry.getValue().number("worker-steps-per-second");
            double theirs = dbos.number("dbos-steps-per-second");
            if (Double.isNaN(weft) || Double.isNaN(theirs)) {
                return Target.notMeasured(goal, config.label() + " failed (Weft's or DBOS's)");
            }
            measured.add(config.nodes() + " node" + (config.nodes() == 1 ? "" : "s") + " " + Format.number(weft)
                    + " steps/s vs " + Format.number(theirs));
            met &= weft > theirs;
        }
        SessionsSection.Run weftTimers = timerRuns.get(new Config("Weft", "postgres", 1));
        SessionsSection.Run dbosTimers = timerRuns.get(new Config(DBOS, "postgres", 1));
        if (weftTimers != null && dbosTimers != null) {
            double weft = weftTimers.number("committed-p99-ms");
            double theirs = dbosTimers.number("committed-p99-ms");
            if (Double.isNaN(weft) || Double.isNaN(theirs)) {
                return Target.notMeasured(goal, "timers failed (Weft's or DBOS's)");
            }
            measured.add("timers, 1 node: lateness p99 " + Format.number(weft) + " ms vs " + Format.number(theirs));
            met &= weft < theirs;
        }
        return measured.isEmpty() ? Target.notMeasured(goal, "no row measured on both")
                : Target.of(goal, String.join("; ", measured), met);
    }
}
