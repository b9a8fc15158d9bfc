package dev.weft.bench;

import dev.weft.Engine;
import dev.weft.bench.woven.SleepingWorkflow;
import dev.weft.sessions.SessionStore;
import dev.weft.sessions.Sessions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Timer lateness, in a fresh JVM: {@code STORE SESSIONS DUE WINDOW NODES WORKERS [ENGINE]}. In
 * the store ({@code sqlite}: a file in a temporary directory; {@code postgres}: a real server it
 * starts) it starts {@code SESSIONS} sessions of {@link SleepingWorkflow}, all sleeping:
 * {@code DUE} of them until due times of their own, whole milliseconds spread evenly over
 * {@code WINDOW} seconds that begin once all are stored ({@link #lead}, from the time a start
 * takes, measured first on a few sessions it removes), the others until a day after the first
 * (they sleep on through the run, in the store and its index of due times as the others are);
 * then it builds {@code NODES} nodes, each a {@link Sessions} and store of its own with
 * {@code WORKERS} workers, and waits for the {@code DUE} timers to fire. A timer fires when a worker runs the session's step for its sleep, which ends the
 * session; its lateness is measured twice, against its due time: when the body's step begins
 * ({@code started}) and when that step's {@code COMMIT} returns on the worker's thread
 * ({@code committed}, seen by {@link StepWatch} through {@link WatchedJdbc}). Checks that each
 * session due fired once, for its own due time and for its sleep, and that the store holds the
 * others only afterwards. Prints {@code key=value} lines: median, 99th percentile and maximum of both
 * latenesses in milliseconds, how many fired, how many fired before their time ({@code early}),
 * and how many were stored only after their due time ({@code late-stored}, their lateness counted
 * all the same), the time a start took in the warm-up ({@code start-us}) and storing them all
 * took ({@code start-seconds}).
 */
public final class TimersProbe {

    /** How long after the first due time the sessions not due in the window sleep. */
    private static final Duration LATER = Duration.ofDays(1);

    /** How long after the last due time the probe gives up waiting for the timers left. */
    private static final Duration DRAIN = Duration.ofMinutes(2);

    private TimersProbe() {
    }

    /**
     * How many sessions (or workflows) are started and removed before {@code sessions} others, to
     * warm up and time a start: a tenth of them, from 10 to 100.
     */
    static int warmUpStarts(int sessions) {
        return Math.min(100, Math.max(10, sessions / 10));
    }

    /**
     * How long before the first due time the probe starts storing {@code sessions} sessions, a
     * start taking {@code perStart}: a second and twice their time.
     */
    static Duration lead(Duration perStart, int sessions) {
        return Duration.ofSeconds(1).plus(perStart.multipliedBy(2L * sessions));
    }

    /** The due time of timer {@code i} of {@code sessions} over {@code window} from {@code first}. */
    static Instant due(Instant first, Duration window, int i, int sessions) {
        return first.plusMillis(window.toMillis() * i / sessions);
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int sessions = Integer.parseInt(args[1]);
        int due = Integer.parseInt(args[2]);
        Duration window = Duration.ofMillis((long) (Double.parseDouble(args[3]) * 1000));
        int nodes = Integer.parseInt(args[4]);
        int workers = Integer.parseInt(args[5]);
        Engine engine = args.length > 6 ? Engine.valueOf(args[6]) : Engine.defaultEngine();
        Path directory = Files.createTempDirectory("weft-timers-bench");
        try {
            SessionsProbe.Target target = WorkerStepsProbe.watched(kind, directory);
            Queue<StepWatch.Seen> fired = new ConcurrentLinkedQueue<>();
            StepWatch.listen(fired::add);
            Map<String, Instant> dues = new HashMap<>();
            int lateStored = start(target, engine, sessions, due, window, dues);
            List<SessionStore> stores = new ArrayList<>();
            List<Sessions> running = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                SessionStore store = target.store();
                stores.add(store);
                running.add(Sessions.builder(store).engine(engine).workers(workers).build());
            }
            try {
                awaitAll(fired, due, java.util.Collections.max(dues.values()).plus(DRAIN));
            } finally {
                running.forEach(Sessions::close);
                stores.forEach(SessionStore::close);
            }
            check(fired, dues);
            checkLeft(target, sessions - due);
            print(fired, dues, lateStored);
        } finally {
            SessionsProbe.delete(directory);
        }
    }

    /**
     * Stores the sleeping sessions, the first due time a {@link #lead} after a start's time is
     * known: first those that sleep on, then those due in the window, in the order they are due
     * ({@code dues}); returns how many of these were stored after their due time.
     */
    private static int start(SessionsProbe.Target target, Engine engine, int sessions, int due, Duration window,
            Map<String, Instant> dues) {
        int late = 0;
        try (SessionStore store = target.store()) {
            Sessions starter = Sessions.builder(store).engine(engine).build();
            Duration perStart = warmUp(starter, warmUpStarts(sessions));
            Instant first = Instant.ofEpochMilli(Instant.now().plus(lead(perStart, sessions)).toEpochMilli());
            System.out.println("start-us=" + perStart.toNanos() / 1e3);
            long storing = System.nanoTime();
            for (int i = 0; i < sessions - due; i++) {
                starter.start("sleeper-" + i, new SleepingWorkflow(), first.plus(LATER));
            }
            for (int i = 0; i < due; i++) {
                String id = "timer-" + i;
                Instant at = due(first, window, i, due);
                starter.start(id, new SleepingWorkflow(), at);
                dues.put(id, at);
                if (Instant.now().isAfter(at)) {
                    late++;
                }
            }
            System.out.println("start-seconds=" + (System.nanoTime() - storing) / 1e9);
        }
        return late;
    }

    /**
     * Starts {@code count} sessions that sleep a day and removes them: the start's code run (its
     * classes loaded, the build's manifest stored) and its time measured, the last half's average.
     */
    private static Duration warmUp(Sessions starter, int count) {
        long timed = 0;
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            starter.start("warm-up-" + i, new SleepingWorkflow(), Instant.now().plus(Duration.ofDays(1)));
            timed += i < count / 2 ? 0 : System.nanoTime() - t0;
        }
        for (int i = 0; i < count; i++) {
            starter.remove("warm-up-" + i);
        }
        return Duration.ofNanos(timed / (count - count / 2));
    }

    /** Waits until {@code count} timers have fired, or fails once {@code deadline} has passed. */
    private static void awaitAll(Queue<StepWatch.Seen> fired, int count, Instant deadline) throws InterruptedException {
        while (fired.size() < count) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("only " + fired.size() + " of " + count + " timers fired by "
                        + deadline);
            }
            Thread.sleep(50);
        }
    }

    /** Every session fired once, for its own due time. */
    private static void check(Queue<StepWatch.Seen> fired, Map<String, Instant> dues) {
        Map<String, Integer> times = new HashMap<>();
        for (StepWatch.Seen seen : fired) {
            times.merge(seen.id(), 1, Integer::sum);
            if (!dues.get(seen.id()).equals(seen.answer())) {
                throw new IllegalStateException("timer " + seen.id() + " due at " + dues.get(seen.id())
                        + " fired for " + seen.answer());
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

    /** The store holds the {@code count} sessions that sleep on, and none of the others: each ended with its timer. */
    private static void checkLeft(SessionsProbe.Target target, int count) throws SQLException {
        try (Connection connection = target.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*), COUNT(CASE WHEN id LIKE 'sleeper-%'"
                        + " AND status = 'SUSPENDED' THEN 1 END) FROM weft_sessions")) {
            rows.next();
            if (rows.getLong(1) != count || rows.getLong(2) != count) {
                throw new IllegalStateException(rows.getLong(1) + " sessions are left in the store, "
                        + rows.getLong(2) + " of them sleeping on, not " + count);
            }
        }
    }

    private static void print(Queue<StepWatch.Seen> fired, Map<String, Instant> dues, int lateStored) {
        printFired(lateStored, fired.stream().mapToDouble(s -> millisLate(dues.get(s.id()), s.startedAt())).toArray(),
                fired.stream().mapToDouble(s -> millisLate(dues.get(s.id()), s.committedAt())).toArray());
    }

    /** How late {@code at} is after {@code due}, in milliseconds. */
    static double millisLate(Instant due, Instant at) {
        return Duration.between(due, at).toNanos() / 1e6;
    }

    /** The lines of a timers probe, from each timer's lateness when its step began and when it committed. */
    static void printFired(int lateStored, double[] started, double[] committed) {
        System.out.println("fired=" + started.length);
        System.out.println("late-stored=" + lateStored);
        System.out.println("early=" + Arrays.stream(started).filter(ms -> ms < 0).count());
        printLateness("started", started);
        printLateness("committed", committed);
    }

    /** Median, 99th percentile and maximum of {@code values}, in milliseconds. */
    private static void printLateness(String prefix, double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        System.out.println(prefix + "-median-ms=" + sorted[sorted.length / 2]);
        System.out.println(prefix + "-p99-ms=" + sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))]);
        System.out.println(prefix + "-max-ms=" + sorted[sorted.length - 1]);
    }
}
