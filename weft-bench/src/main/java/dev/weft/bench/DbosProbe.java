package dev.weft.bench;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.workflow.Workflow;
import dev.weft.sessions.testing.PostgresServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * DBOS Transact for Java running {@code SessionWorkflow}'s job, in a fresh JVM:
 * {@code SESSIONS ROUNDS FLOOR_BYTES}. On a real PostgreSQL server it starts (the same binaries
 * and settings as {@link SessionsProbe}'s), it starts {@code SESSIONS} workflows of
 * {@link Conversation}; each waits for an input from outside with DBOS's {@code recv}, answers
 * it with the input plus one in a durable step, and publishes the answer with {@code setEvent},
 * step after step, its running count carried in a local variable (which DBOS rebuilds by replay
 * after a crash). From outside, one step is a {@code send} of the input and a {@code getEvent}
 * of the answer; each workflow is stepped three times untimed, then {@code ROUNDS} times timed,
 * round by round as {@link SessionsProbe} does. Then the floor on the same server: one
 * transaction updating one row of {@code FLOOR_BYTES} bytes per step. Every answer is checked.
 * Prints {@code key=value} lines: steps per second and median and 99th-percentile latency of
 * DBOS and of the floor.
 *
 * <p>Single-threaded driver: steps are sent one at a time; each workflow runs on DBOS's own
 * (virtual) thread.
 */
public final class DbosProbe {

    private static final int WARM_UP = 3;
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String INPUT = "input";

    private DbosProbe() {
    }

    /** The workflow's interface, through which DBOS's proxy runs it durably. */
    public interface Conversation {
        /** Answers {@code steps} inputs, each with the input plus one; returns how many it answered. */
        int converse(int steps);
    }

    /**
     * The workflow, written the way DBOS documents: messages in, durable steps, events out. Each
     * answer, once published, is also told to {@code onAnswer} (workflow id and answer), in the
     * workflow's thread.
     */
    public static final class ConversationWorkflow implements Conversation {
        private final DBOS dbos;
        private final BiConsumer<String, Integer> onAnswer;

        public ConversationWorkflow(DBOS dbos) {
            this(dbos, (id, answer) -> { });
        }

        public ConversationWorkflow(DBOS dbos, BiConsumer<String, Integer> onAnswer) {
            this.dbos = dbos;
            this.onAnswer = onAnswer;
        }

        @Override
        @Workflow(name = "converse")
        public int converse(int steps) {
            int answered = 0;
            for (int step = 0; step < steps; step++) {
                Optional<Object> message = dbos.recv(INPUT, WAIT);
                int input = ((Number) message.orElseThrow(() -> new IllegalStateException(
                        "workflow " + DBOS.workflowId() + ": no input within " + WAIT))).intValue();
                int answer = dbos.runStep(() -> input + 1, "answer");
                dbos.setEvent(outputKey(step), answer);
                onAnswer.accept(DBOS.workflowId(), answer);
                answered++;
            }
            return answered;
        }
    }

    private static String outputKey(int step) {
        return "output-" + step;
    }

    public static void main(String[] args) throws Exception {
        int sessions = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int floorBytes = Integer.parseInt(args[2]);
        String url = PostgresServer.shared().newDatabase("dbos");
        List<String> ids = new ArrayList<>();
        int[] stepOf = new int[sessions];
        SessionsProbe.Timing steps;
        try (DBOS dbos = new DBOS(config(url))) {
            Conversation conversation = dbos.registerProxy(Conversation.class, new ConversationWorkflow(dbos));
            dbos.launch();
            for (int i = 0; i < sessions; i++) {
                String id = "conversation-" + i;
                dbos.startWorkflow(() -> conversation.converse(WARM_UP + rounds), new StartWorkflowOptions(id));
                ids.add(id);
            }
            for (int round = 0; round < WARM_UP; round++) {
                for (int i = 0; i < sessions; i++) {
                    step(dbos, ids.get(i), stepOf[i]++, i + round);
                }
            }
            long start = System.nanoTime();
            long[] latencies = new long[sessions * rounds];
            int k = 0;
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < sessions; i++) {
                    long t0 = System.nanoTime();
                    step(dbos, ids.get(i), stepOf[i]++, i + round);
                    latencies[k++] = System.nanoTime() - t0;
                }
            }
            steps = new SessionsProbe.Timing(latencies, System.nanoTime() - start);
            for (String id : ids) {
                int answered = dbos.<Integer, RuntimeException>retrieveWorkflow(id).getResult();
                if (answered != WARM_UP + rounds) {
                    throw new IllegalStateException("workflow " + id + " answered " + answered + " inputs, not "
                            + (WARM_UP + rounds));
                }
            }
        }
        SessionsProbe.print("dbos", steps);
        SessionsProbe.Target target = SessionsProbe.postgres(url);
        SessionsProbe.floorTable(target, ids, floorBytes);
        SessionsProbe.Timing floor = SessionsProbe.timed(1, ids, rounds,
                (node, slice) -> SessionsProbe.floor(target, slice, rounds, floorBytes));
        SessionsProbe.print("floor", floor);
    }

    /** DBOS's settings for a node on the database at {@code url}: no admin server (DBOSConfig.defaults leaves it off). */
    static DBOSConfig config(String url) {
        return DBOSConfig.defaults("weft-bench").withDatabaseUrl(url).withDbUser("postgres").withDbPassword("");
    }

    /** One step from outside: sends {@code input} to workflow {@code id}, waits for its answer and checks it. */
    private static void step(DBOS dbos, String id, int step, int input) {
        dbos.send(id, input, INPUT);
        Optional<Object> answer = dbos.getEvent(id, outputKey(step), WAIT);
        Object value = answer.orElseThrow(() -> new IllegalStateException(
                "workflow " + id + ": no answer to step " + step + " within " + WAIT));
        if (((Number) value).intValue() != input + 1) {
            throw new IllegalStateException("workflow " + id + " answered " + value + " to " + input + " at step "
                    + step);
        }
    }
}
