package dev.weft.bench;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.workflow.Queue;
import dev.weft.sessions.testing.PostgresServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * DBOS Transact's side of the worker-run steps, in a fresh JVM: {@code SESSIONS ROUNDS NODES
 * [WARMUP]}. On a real PostgreSQL server it starts (the same binaries and settings as
 * {@link SessionsProbe}'s), {@code NODES} DBOS instances, each with an executor id of its own
 * (a node, as separate processes would be), share a DBOS queue, which each polls every 50 ms
 * and from which each runs at most its share of the workflows at once
 * ({@code workerConcurrency}): DBOS's documented means of running workflows on a pool of
 * workers. {@code SESSIONS} workflows of {@link DbosProbe.Conversation} are enqueued on it; each
 * waits for an input with {@code recv}, answers it with the input plus one in a durable step and
 * publishes the answer with {@code setEvent}, {@code WARMUP} (default 3) plus {@code ROUNDS}
 * times. Then one thread per node takes turns over its share of the workflows, round by round
 * as {@link WorkerStepsProbe} does: one step is a {@code send} of the input, timed from the call
 * to the moment {@code setEvent} returns in the workflow's thread (the answer durable and
 * published), whichever node runs it; the first {@code WARMUP} rounds are not timed. Every
 * answer is checked, and every workflow's count of answers at the end. Prints {@code key=value}
 * lines: steps per second (the count over the longest time a node spent on its steps), median
 * and 99th-percentile latency, and how many nodes ran workflows.
 */
public final class DbosWorkersProbe {

    private static final Duration WAIT = Duration.ofMinutes(1);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final String INPUT = "input";
    private static final int DEFAULT_WARMUP = 3;

    /** The answers a node waits for, by workflow: completed in the workflow's thread. */
    private static final Map<String, CompletableFuture<Answer>> EXPECTED = new ConcurrentHashMap<>();

    /** An answer as the workflow published it, and when {@code setEvent} returned. */
    private record Answer(int value, long nanos) {
    }

    private DbosWorkersProbe() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int nodes = Integer.parseInt(args[2]);
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : DEFAULT_WARMUP;
        String url = PostgresServer.shared().newDatabase("dbos");
        Queue queue = new Queue("conversations").withWorkerConcurrency((sessions + nodes - 1) / nodes)
                .withPollingInterval(POLL);
        List<DBOS> instances = new ArrayList<>();
        List<DbosProbe.Conversation> proxies = new ArrayList<>();
        try {
            for (int node = 0; node < nodes; node++) {
                DBOS dbos = new DBOS(DbosProbe.config(url).withExecutorId("node-" + node));
                proxies.add(dbos.registerProxy(DbosProbe.Conversation.class,
                        new DbosProbe.ConversationWorkflow(dbos, DbosWorkersProbe::answered)));
                dbos.registerQueue(queue);
                dbos.launch();
                instances.add(dbos);
            }
            List<String> ids = enqueue(instances.get(0), proxies.get(0), queue, sessions, warmup + rounds);
            SessionsProbe.Timing steps = SessionsProbe.timed(nodes, ids, (node, slice) -> {
                DBOS dbos = instances.get(node);
                Map<String, Integer> inputs = new HashMap<>();
                for (int round = 0; round < warmup; round++) {
                    round(dbos, slice, inputs);
                }
                return () -> timedRounds(dbos, slice, rounds, inputs);
            });
            checkCounts(instances.get(0), ids, warmup + rounds);
            SessionsProbe.print("dbos", wallOfLongestNode(steps, nodes, sessions, rounds));
            System.out.println("dbos-nodes-running=" + nodesRunning(instances.get(0), ids));
        } finally {
            instances.forEach(DBOS::close);
        }
    }

    /** Enqueues the workflows, each to answer {@code steps} inputs; their ids. */
    private static List<String> enqueue(DBOS dbos, DbosProbe.Conversation conversation, Queue queue, int sessions,
            int steps) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            String id = "conversation-" + i;
            dbos.startWorkflow(() -> conversation.converse(steps), new StartWorkflowOptions(id).withQueue(queue));
            ids.add(id);
        }
        return ids;
    }

    private static void answered(String id, int answer) {
        long nanos = System.nanoTime();
        CompletableFuture<Answer> waiting = EXPECTED.remove(id);
        if (waiting != null) {
            waiting.complete(new Answer(answer, nanos));
        }
    }

    private static long[] timedRounds(DBOS dbos, List<String> slice, int rounds, Map<String, Integer> inputs)
            throws Exception {
        List<Long> latencies = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            latencies.addAll(round(dbos, slice, inputs));
        }
        return latencies.stream().mapToLong(Long::longValue).toArray();
    }

    /** A step of each workflow of {@code slice}, one at a time: their latencies. */
    private static List<Long> round(DBOS dbos, List<String> slice, Map<String, Integer> inputs) throws Exception {
        List<Long> latencies = new ArrayList<>();
        for (String id : slice) {
            int input = inputs.merge(id, 1, Integer::sum);
            CompletableFuture<Answer> answer = new CompletableFuture<>();
            EXPECTED.put(id, answer);
            long t0 = System.nanoTime();
            dbos.send(id, input, INPUT);
            Answer got = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            latencies.add(got.nanos() - t0);
            if (got.value() != input + 1) {
                throw new IllegalStateException("workflow " + id + " answered " + got.value() + " to " + input);
            }
        }
        return latencies;
    }

    /** Each workflow answered {@code steps} inputs and returned. */
    private static void checkCounts(DBOS dbos, List<String> ids, int steps) {
        for (String id : ids) {
            int answered = dbos.<Integer, RuntimeException>retrieveWorkflow(id).getResult();
            if (answered != steps) {
                throw new IllegalStateException("workflow " + id + " answered " + answered + " inputs, not " + steps);
            }
        }
    }

    /** How many nodes' executors ran the workflows. */
    private static int nodesRunning(DBOS dbos, List<String> ids) {
        Set<String> executors = new TreeSet<>();
        for (String id : ids) {
            dbos.getWorkflowStatus(id).ifPresent(status -> executors.add(status.executorId()));
        }
        return executors.size();
    }

    /**
     * The steps' timing with the wall time of the node that spent longest on them, as
     * {@link SessionsProbe#split} counts it: the latencies are node after node.
     */
    private static SessionsProbe.Timing wallOfLongestNode(SessionsProbe.Timing steps, int nodes, int sessions,
            int rounds) {
        long[] latencies = steps.latencies();
        long longest = 0;
        int from = 0;
        for (int node = 0; node < nodes; node++) {
            int count = (sessions - node + nodes - 1) / nodes * rounds;
            long spent = 0;
            for (int i = 0; i < count; i++) {
                spent += latencies[from++];
            }
            longest = Math.max(longest, spent);
        }
        return new SessionsProbe.Timing(latencies, longest);
    }
}
