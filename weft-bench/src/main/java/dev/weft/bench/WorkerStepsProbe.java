package dev.weft.bench;

import dev.weft.Engine;
import dev.weft.bench.woven.WaitingWorkflow;
import dev.weft.sessions.SessionStep;
import dev.weft.sessions.SessionStore;
import dev.weft.sessions.Sessions;
import dev.weft.sessions.testing.PostgresServer;

import java.nio.file.Files;
import java.sql.Connection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Steps run by workers against steps run by a caller, in a fresh JVM:
 * {@code STORE FRAMES SESSIONS ROUNDS NODES [ENGINE [WARMUP]]}. It starts {@code SESSIONS}
 * sessions of {@link WaitingWorkflow} that wait for messages, and as many twins of them that
 * wait for a caller's input, {@code FRAMES} frames deep, in the store ({@code sqlite}: a file in
 * a temporary directory; {@code postgres}: a real server it starts). Then {@code NODES} threads,
 * each a node with a {@link Sessions} and store of its own and one worker
 * ({@link Sessions.Builder#workers}), take turns over their share of the sessions,
 * {@code ROUNDS} rounds: in each, a worker-run step of each session of the share, one at a time
 * (a {@link Sessions#send} of the input, whose step a worker of any node claims and runs,
 * timed from the call to {@code send} to the moment the step's {@code COMMIT} returns on the
 * worker's thread, which {@link StepWatch} sees through {@link WatchedJdbc}), then a
 * {@link Sessions#resume} of each twin with the same kind of input, timed from the call to its
 * return. Before the clock starts, each node runs such rounds untimed for {@code WARMUP}
 * seconds (default 0). Every answer is checked (the input plus one), and every session's
 * version at the end (one step per input). Prints {@code key=value} lines: steps per second
 * (each kind's count over the longest time a node spent on it), median and 99th-percentile
 * latency of the worker-run steps ({@code worker-}) and of the resumed ones ({@code resume-}),
 * and the medians of their parts: the send's call ({@code worker-send}), the time from the call
 * (of {@code send} or {@code resume}) to the moment the body began ({@code -before-body}:
 * {@link StepWatch#ran}), and from there to the commit ({@code -after-body}).
 *
 * <p>Then {@code ROUNDS} drains, untimed for {@code WARMUP} seconds first: in each, every node
 * stores a message to each session of its share in one transaction of its own but the last,
 * which it sends with {@link Sessions#send(String, Object)} (which wakes its workers; on
 * PostgreSQL the commit wakes every node's), and waits until the workers of any node have run
 * all those steps, timed from the commit to the last step's; then resumes each twin of its share
 * back to back, timed from the first call to the last return. Prints the steps per second of
 * both ({@code drain-worker-steps-per-second}, {@code drain-resume-steps-per-second}: each
 * kind's count over the longest time a node spent on it), what a step costs when workers run
 * a backlog of them against a caller's resumes one after another, the sends left out.
 */
public final class WorkerStepsProbe {

    private static final Duration WAIT = Duration.ofMinutes(1);
    private static final int WORKERS_PER_NODE = 1;
    private static final String TWIN = "-twin";

    /** The steps a node waits for, by session: completed by {@link StepWatch} on the worker's thread. */
    private static final Map<String, CompletableFuture<StepWatch.Seen>> EXPECTED = new ConcurrentHashMap<>();

    private WorkerStepsProbe() {
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int frames = Integer.parseInt(args[1]);
        int sessions = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        int nodes = Integer.parseInt(args[4]);
        Engine engine = args.length > 5 ? Engine.valueOf(args[5]) : Engine.defaultEngine();
        long warmupNanos = args.length > 6 ? (long) (Double.parseDouble(args[6]) * 1e9) : 0;
        Path directory = Files.createTempDirectory("weft-workers-bench");
        try {
            SessionsProbe.Target target = watched(kind, directory);
            List<String> ids = start(target, engine, frames, sessions);
            StepWatch.listen(WorkerStepsProbe::seen);
            CountDownLatch done = new CountDownLatch(nodes);
            Parts parts = new Parts();
            SessionsProbe.Timing both = SessionsProbe.timed(nodes, ids, (index, slice) -> {
                Node node = new Node(target, engine);
                node.warmUp(slice, warmupNanos);
                return () -> node.timed(slice, rounds, done, parts);
            });
            SessionsProbe.Timing[] timings = SessionsProbe.split(both.latencies(), nodes, sessions, rounds);
            SessionsProbe.print("worker", timings[0]);
            SessionsProbe.print("resume", timings[1]);
            parts.print();
            Drains drains = new Drains();
            SessionsProbe.timed(nodes, ids, (index, slice) -> {
                Node node = new Node(target, engine);
                node.countFromStoredVersions(slice);
                node.drainWarmUp(slice, warmupNanos);
                return () -> node.drains(slice, rounds, drains);
            });
            drains.print(sessions * rounds);
            System.out.println("engine=" + engine);
            System.out.println("workers-per-node=" + WORKERS_PER_NODE);
        } finally {
            SessionsProbe.delete(directory);
        }
    }

    /** The store of {@code kind} in {@code directory}, its connections watched for commits. */
    static SessionsProbe.Target watched(String kind, Path directory) throws java.sql.SQLException {
        if (kind.equals("sqlite")) {
            Path file = directory.resolve("sessions.db").toAbsolutePath();
            WatchedJdbc.watch("jdbc:sqlite:" + file);
            return SessionsProbe.sqlite(file);
        }
        String url = PostgresServer.shared().newDatabase("bench");
        WatchedJdbc.watch(url);
        return SessionsProbe.postgres(url);
    }

    /** Starts the sessions that wait for messages, and their twins; returns the former's ids. */
    private static List<String> start(SessionsProbe.Target target, Engine engine, int frames, int sessions) {
        List<String> ids = new ArrayList<>();
        try (SessionStore store = target.store()) {
            Sessions starter = Sessions.builder(store).engine(engine).build();
            for (int i = 0; i < sessions; i++) {
                String id = "session-" + i;
                starter.start(id, new WaitingWorkflow(frames, true), 0);
                starter.start(id + TWIN, new WaitingWorkflow(frames, false), 0);
                ids.add(id);
            }
        }
        return ids;
    }

    /**
     * Where the timed steps' time goes, by median: a worker-run step's send (its call), the time
     * from the call to the body's start, and from there to the commit; a resumed step's time
     * from the call to the body's start, and from there to the commit.
     */
    private static final class Parts {
        private final Queue<Long> send = new ConcurrentLinkedQueue<>();
        private final Queue<Long> workerBeforeBody = new ConcurrentLinkedQueue<>();
        private final Queue<Long> workerAfterBody = new ConcurrentLinkedQueue<>();
        private final Queue<Long> resumeBeforeBody = new ConcurrentLinkedQueue<>();
        private final Queue<Long> resumeAfterBody = new ConcurrentLinkedQueue<>();

        void print() {
            print("worker-send", send);
            print("worker-before-body", workerBeforeBody);
            print("worker-after-body", workerAfterBody);
            print("resume-before-body", resumeBeforeBody);
            print("resume-after-body", resumeAfterBody);
        }

        private static void print(String prefix, Queue<Long> nanos) {
            long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.println(prefix + "-median-us=" + (sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2] / 1e3));
        }
    }

    /** The time each node spent on its drains and on its back-to-back resumes, for the steps per second of each. */
    private static final class Drains {
        private final Queue<Long> workerNanos = new ConcurrentLinkedQueue<>();
        private final Queue<Long> resumeNanos = new ConcurrentLinkedQueue<>();

        void print(int steps) {
            System.out.println("drain-steps=" + steps);
            System.out.println("drain-worker-steps-per-second=" + steps * 1e9 / longest(workerNanos));
            System.out.println("drain-resume-steps-per-second=" + steps * 1e9 / longest(resumeNanos));
        }

        private static long longest(Queue<Long> nanos) {
            return nanos.stream().mapToLong(Long::longValue).max().orElseThrow();
        }
    }

    private static void seen(StepWatch.Seen seen) {
        CompletableFuture<StepWatch.Seen> waiting = EXPECTED.remove(seen.id());
        if (waiting != null) {
            waiting.complete(seen);
        }
    }

    /** A node: its sessions, its worker, and the steps it made of each session, for the check at the end. */
    private static final class Node {
        private final SessionsProbe.Target target;
        private final SessionStore store;
        private final Sessions sessions;
        private final Map<String, Integer> steps = new HashMap<>();
        private int input;
        /** Where the steps' parts go while the clock runs; null before. */
        private Parts parts;

        Node(SessionsProbe.Target target, Engine engine) {
            this.target = target;
            store = target.store();
            sessions = Sessions.builder(store).engine(engine).workers(WORKERS_PER_NODE).build();
        }

        /** Counts the steps of {@code slice}'s sessions and twins from the versions stored now, for the check at the end. */
        void countFromStoredVersions(List<String> slice) {
            for (String id : slice) {
                for (String session : List.of(id, id + TWIN)) {
                    steps.put(session, (int) sessions.status(session).orElseThrow().version() - 1);
                }
            }
        }

        /** Runs drains and back-to-back resumes over {@code slice}, untimed, until {@code nanos} have passed. */
        void drainWarmUp(List<String> slice, long nanos) throws Exception {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() - end < 0) {
                drain(slice);
                resumeAll(slice);
            }
        }

        /**
         * {@code rounds} timed drains and back-to-back resumes of {@code slice}, their times
         * added to {@code drains}; then the check of every session's version, and the node is
         * closed. Returns no latencies.
         */
        long[] drains(List<String> slice, int rounds, Drains drains) throws Exception {
            try {
                long drained = 0;
                long resumed = 0;
                for (int round = 0; round < rounds; round++) {
                    drained += drain(slice);
                    resumed += resumeAll(slice);
                }
                drains.workerNanos.add(drained);
                drains.resumeNanos.add(resumed);
                checkVersions(slice);
                return new long[0];
            } finally {
                sessions.close();
                store.close();
            }
        }

        /**
         * A message to each session of {@code slice}, all but the last stored in one transaction,
         * the last sent alone (which wakes this node's workers), and the steps the workers run:
         * the time from the transaction's commit to the last step's commit.
         */
        private long drain(List<String> slice) throws Exception {
            Map<String, CompletableFuture<StepWatch.Seen>> seen = new HashMap<>();
            Map<String, Integer> sent = new HashMap<>();
            for (String id : slice) {
                seen.put(id, expect(id));
                sent.put(id, ++input);
            }
            String last = slice.get(slice.size() - 1);
            long committed;
            try (Connection connection = target.connect()) {
                target.begin(connection);
                for (String id : slice) {
                    if (!id.equals(last)) {
                        sessions.send(connection, id, sent.get(id));
                    }
                }
                target.commit(connection);
                committed = System.nanoTime();
            }
            sessions.send(last, sent.get(last));
            long end = committed;
            for (String id : slice) {
                StepWatch.Seen step = seen.get(id).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                answered(id, step.answer(), sent.get(id));
                end = Math.max(end, step.committedNanos());
            }
            return end - committed;
        }

        /** A resume of each twin of {@code slice}, one after another: from the first call to the last return. */
        private long resumeAll(List<String> slice) {
            long start = System.nanoTime();
            for (String id : slice) {
                byResume(id + TWIN);
            }
            return System.nanoTime() - start;
        }

        /** Runs rounds over {@code slice}, untimed, until {@code nanos} have passed. */
        void warmUp(List<String> slice, long nanos) throws Exception {
            long end = System.nanoTime() + nanos;
            List<Long> ignored = new ArrayList<>();
            while (System.nanoTime() - end < 0) {
                round(slice, ignored);
            }
        }

        /**
         * The timed rounds; then, once every node has run its own ({@code done}), the check of
         * every session's version, and the node is closed.
         */
        long[] timed(List<String> slice, int rounds, CountDownLatch done, Parts parts) throws Exception {
            this.parts = parts;
            try {
                List<Long> latencies = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    round(slice, latencies);
                }
                done.countDown();
                if (!done.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("another node did not finish its rounds within " + WAIT);
                }
                checkVersions(slice);
                return latencies.stream().mapToLong(Long::longValue).toArray();
            } finally {
                sessions.close();
                store.close();
            }
        }

        /** A round: a worker-run step of each session of {@code slice}, then a resume of each twin. */
        private void round(List<String> slice, List<Long> latencies) throws Exception {
            for (String id : slice) {
                latencies.add(byWorker(id));
            }
            for (String id : slice) {
                latencies.add(byResume(id + TWIN));
            }
        }

        /** A step of {@code id} run by a worker: from the send to the commit. */
        private long byWorker(String id) throws Exception {
            int sent = ++input;
            CompletableFuture<StepWatch.Seen> seen = expect(id);
            long t0 = System.nanoTime();
            sessions.send(id, sent);
            long sentAt = System.nanoTime();
            StepWatch.Seen step = seen.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            long latency = step.committedNanos() - t0;
            answered(id, step.answer(), sent);
            if (parts != null) {
                parts.send.add(sentAt - t0);
                parts.workerBeforeBody.add(step.startedNanos() - t0);
                parts.workerAfterBody.add(step.committedNanos() - step.startedNanos());
            }
            return latency;
        }

        /** A step of {@code id} run by this node's thread: the resume's call. */
        private long byResume(String id) {
            int sent = ++input;
            CompletableFuture<StepWatch.Seen> seen = expect(id);
            long t0 = System.nanoTime();
            SessionStep<Integer> step = sessions.resume(id, sent);
            long latency = System.nanoTime() - t0;
            answered(id, step.output(), sent);
            StepWatch.Seen ran = seen.getNow(null);
            if (ran == null) {
                throw new IllegalStateException("session " + id + ": its resumed step's commit was not seen");
            }
            if (parts != null) {
                parts.resumeBeforeBody.add(ran.startedNanos() - t0);
                parts.resumeAfterBody.add(t0 + latency - ran.startedNanos());
            }
            return latency;
        }

        private static CompletableFuture<StepWatch.Seen> expect(String id) {
            CompletableFuture<StepWatch.Seen> seen = new CompletableFuture<>();
            EXPECTED.put(id, seen);
            return seen;
        }

        private void answered(String id, Object answer, int input) {
            if (!(answer instanceof Integer value) || value != input + 1) {
                throw new IllegalStateException("session " + id + " answered " + input + " with " + answer);
            }
            steps.merge(id, 1, Integer::sum);
        }

        /** Checks the version of each session of {@code slice} and of its twin against the steps this node made of it. */
        private void checkVersions(List<String> slice) {
            for (String id : slice) {
                checkVersion(id);
                checkVersion(id + TWIN);
            }
        }

        private void checkVersion(String id) {
            long version = sessions.status(id).orElseThrow().version();
            long expected = 1 + steps.getOrDefault(id, 0);
            if (version != expected) {
                throw new IllegalStateException("session " + id + " is at version " + version + " after "
                        + (expected - 1) + " steps and its start");
            }
        }
    }
}
