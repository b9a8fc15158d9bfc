package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The durable sessions probe, at a tiny size on the embedded store: it prints every number the section reads. */
class SessionsProbeTest {

    @Test
    void printsStepsLatenciesAndTheFloor() throws Exception {
        checkProbe("0", "NATIVE");
    }

    @Test
    void printsTheSameWithResidentSessions() throws Exception {
        checkProbe("3", "NATIVE");
    }

    @Test
    void printsTheSameOnTheWovenEngine() throws Exception {
        checkProbe("0", "WOVEN");
        checkProbe("3", "WOVEN");
    }

    @Test
    void printsTheSameAfterAWarmUp() throws Exception {
        checkProbe("3", "WOVEN", "0.2");
    }

    @Test
    void printsStepsWithHistoryAgainstTheSameStepsWithout() throws Exception {
        Map<String, String> values = probe("sqlite", "10", "3", "2", "2", "0", "NATIVE", "0", "history");
        assertEquals("6", values.get("sessions-steps"));
        assertEquals("6", values.get("plain-steps"), "the same sessions, stepped without history");
        for (String key : List.of("sessions-median-us", "plain-steps-per-second", "plain-median-us", "plain-p99-us")) {
            assertTrue(ProbeRunner.number(values, key) > 0, key + "=" + values.get(key));
        }
    }

    @Test
    void anInterleavedRunIsSplitIntoItsStepsAndItsFloorNodeByNode() {
        // 3 sessions on 2 nodes (node 0 has two, node 1 one), 2 rounds: steps below 100, floor updates above
        long[] latencies = {1, 2, 101, 102, 3, 4, 103, 104, 5, 105, 6, 106};
        SessionsProbe.Timing[] timings = SessionsProbe.split(latencies, 2, 3, 2);
        assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6}, timings[0].latencies());
        assertArrayEquals(new long[] {101, 102, 103, 104, 105, 106}, timings[1].latencies());
        assertEquals(11, timings[0].wallNanos(), "node 1 spent 5 + 6 on steps, more than node 0 (1 + 2 + 3 + 4)");
        assertEquals(410, timings[1].wallNanos());
    }

    /** Runs the probe on {@code engine} with {@code resident} sessions kept resident, and checks what it prints. */
    private static void checkProbe(String resident, String engine, String... warmup) throws Exception {
        List<String> args = new ArrayList<>(List.of("sqlite", "10", "3", "2", "2", resident, engine));
        args.addAll(List.of(warmup));
        Map<String, String> values = probe(args.toArray(String[]::new));
        assertEquals(engine, values.get("engine"));
        assertEquals("6", values.get("sessions-steps"));
        assertEquals("6", values.get("floor-steps"));
        for (String key : List.of("sessions-steps-per-second", "sessions-median-us", "sessions-p99-us",
                "floor-steps-per-second", "floor-median-us", "floor-p99-us", "state-bytes")) {
            assertTrue(ProbeRunner.number(values, key) > 0, key + "=" + values.get(key));
        }
        assertTrue(ProbeRunner.number(values, "row-bytes") > ProbeRunner.number(values, "state-bytes") + 24,
                "the floor's row holds the state and the rest of the session's row: " + values);
    }

    /** What the probe prints with {@code args}. */
    private static Map<String, String> probe(String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            SessionsProbe.main(args);
        } finally {
            System.setOut(original);
        }
        return ProbeRunner.parse(List.of(bytes.toString(StandardCharsets.UTF_8).split("\n")));
    }
}
