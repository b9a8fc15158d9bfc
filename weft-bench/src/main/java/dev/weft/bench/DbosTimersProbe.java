package dev.weft.bench;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.workflow.Workflow;
import dev.weft.sessions.testing.PostgresServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * DBOS Transact's side of the timers, in a fresh JVM: {@code SESSIONS DUE WINDOW}. On a real
 * PostgreSQL server it starts (the same binaries and settings as {@link SessionsProbe}'s), one
 * DBOS instance starts {@code SESSIONS} workflows of {@link Sleeper}, each sleeping with DBOS's
 * durable {@code sleep}: {@code DUE} of them until due times of their own (whole milliseconds
 * spread evenly over {@code WINDOW} seconds that begin once all are started,
 * {@link TimersProbe#lead} from the time a start takes, measured first on a few workflows it
 * cancels), the others until a day later (cancelled at the end), then running one durable step
 * and returning. A timer fires when its workflow wakes; its lateness is measured
 * twice, against its due time: when the workflow's thread wakes from the sleep
 * ({@code started}) and when the step after it returns, its output recorded
 * ({@code committed}), as {@link TimersProbe} measures Weft's. Checks that each workflow fired
 * once, for its own due time, and that all of those ended as they should. Prints the same
 * {@code key=value} lines as {@link TimersProbe}, and how long starting them took.
 */
public final class DbosTimersProbe {

    private static final Duration DRAIN = Duration.ofMinutes(2);

    private DbosTimersProbe() {
    }

    /** A timer fired: the workflow, its due time, and when it woke and when its step returned. */
    record Fired(String id, long due, Instant startedAt, Instant committedAt) {
    }

    private static final Queue<Fired> FIRED = new ConcurrentLinkedQueue<>();

    /** The workflow's interface, through which DBOS's proxy runs it durably. */
    public interface Sleeper {
        /** Sleeps until {@code dueMillis} (epoch milliseconds), then runs one step; returns its due time. */
        long sleepUntil(long dueMillis);
    }

    /** The workflow, written the way DBOS documents: a durable sleep, then a durable step. */
    public static final class SleeperWorkflow implements Sleeper {
        private final DBOS dbos;

        public SleeperWorkflow(DBOS dbos) {
            this.dbos = dbos;
        }

        @Override
        @Workflow(name = "sleepUntil")
        public long sleepUntil(long dueMillis) {
            dbos.sleep(Duration.ofMillis(Math.max(0, dueMillis - System.currentTimeMillis())));
            Instant started = Instant.now();
            long due = dbos.runStep(() -> dueMillis, "woke");
            FIRED.add(new Fired(DBOS.workflowId(), due, started, Instant.now()));
            return due;
        }
    }


    public static void main(String[] args) throws Exception {
        int sessions = Integer.parseInt(args[0]);
        int due = Integer.parseInt(args[1]);
        Duration window = Duration.ofMillis((long) (Double.parseDouble(args[2]) * 1000));
        FIRED.clear();
        String url = PostgresServer.shared().newDatabase("dbos");
        Map<String, Instant> dues = new HashMap<>();
        int lateStored = 0;
        try (DBOS dbos = new DBOS(DbosProbe.config(url))) {
            Sleeper sleeper = dbos.registerProxy(Sleeper.class, new SleeperWorkflow(dbos));
            dbos.launch();
            Duration perStart = warmUp(dbos, sleeper, TimersProbe.warmUpStarts(sessions));
            Instant first = Instant.ofEpochMilli(Instant.now().plus(TimersProbe.lead(perStart, sessions))
                    .toEpochMilli());
            System.out.println("start-us=" + perStart.toNanos() / 1e3);
            long startedAt = System.nanoTime();
            List<String> sleepers = new ArrayList<>();
            long later = first.plus(Duration.ofDays(1)).toEpochMilli();
            for (int i = 0; i < sessions - due; i++) {
                sleepers.add("sleeper-" + i);
                dbos.startWorkflow(() -> sleeper.sleepUntil(later), new StartWorkflowOptions("sleeper-" + i));
            }
            for (int i = 0; i < due; i++) {
                String id = "timer-" + i;
                Instant at = TimersProbe.due(first, window, i, due);
                dbos.startWorkflow(() -> sleeper.sleepUntil(at.toEpochMilli()), new StartWorkflowOptions(id));
                dues.put(id, at);
                if (Instant.now().isAfter(at)) {
                    lateStored++;
                }
            }
            System.out.println("start-seconds=" + (System.nanoTime() - startedAt) / 1e9);
            awaitAll(due, first.plus(window).plus(DRAIN));
            check(dues);
            dbos.cancelWorkflows(sleepers);
        }
        checkEnded(url, due);
        print(dues, lateStored);
    }

    /**
     * Starts {@code count} workflows that sleep a day, and cancels them: DBOS's start run, and its
     * time measured, the last half's average.
     */
    private static Duration warmUp(DBOS dbos, Sleeper sleeper, int count) {
        long later = Instant.now().plus(Duration.ofDays(1)).toEpochMilli();
        long timed = 0;
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            dbos.startWorkflow(() -> sleeper.sleepUntil(later), new StartWorkflowOptions("warm-up-" + i));
            timed += i < count / 2 ? 0 : System.nanoTime() - t0;
        }
        for (int i = 0; i < count; i++) {
            dbos.cancelWorkflow("warm-up-" + i);
        }
        return Duration.ofNanos(timed / (count - count / 2));
    }

    private static void awaitAll(int count, Instant deadline) throws InterruptedException {
        while (FIRED.size() < count) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("only " + FIRED.size() + " of " + count + " timers fired by " + deadline);
            }
            Thread.sleep(50);
        }
    }

    /** Every workflow fired once, for its own due time. */
    private static void check(Map<String, Instant> dues) {
        Map<String, Integer> times = new HashMap<>();
        for (Fired fired : FIRED) {
            times.merge(fired.id(), 1, Integer::sum);
            if (dues.get(fired.id()).toEpochMilli() != fired.due()) {
                throw new IllegalStateException("timer " + fired.id() + " due at " + dues.get(fired.id())
                        + " fired for " + Instant.ofEpochMilli(fired.due()));
            }
        }
        times.forEach((id, count) -> {
            if (count != 1) {
                throw new IllegalStateException("timer " + id + " fired " + count + " times");
            }
        });
        if (times.size() != dues.size()) {
            throw new IllegalStateException(times.size() + " of " + dues.size() + " timers fired");
        }
    }

    /** Every workflow is recorded as ended successfully in DBOS's own tables. */
    private static void checkEnded(String url, int sessions) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "postgres", null);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM dbos.workflow_status"
                        + " WHERE status = 'SUCCESS' AND workflow_uuid LIKE 'timer-%'")) {
            rows.next();
            if (rows.getLong(1) != sessions) {
                throw new IllegalStateException(rows.getLong(1) + " of " + sessions + " workflows ended successfully");
            }
        }
    }

    private static void print(Map<String, Instant> dues, int lateStored) {
        TimersProbe.printFired(lateStored,
                FIRED.stream().mapToDouble(f -> TimersProbe.millisLate(dues.get(f.id()), f.startedAt())).toArray(),
                FIRED.stream().mapToDouble(f -> TimersProbe.millisLate(dues.get(f.id()), f.committedAt())).toArray());
    }
}
