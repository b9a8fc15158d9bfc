package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The worker-run steps' probe, at a tiny size: every step a worker runs is seen committed with
 * its answer, and the probe prints every number the section reads.
 */
class WorkerStepsProbeTest {

    @Test
    void onTheEmbeddedStore() throws Exception {
        check(ProbeOutput.of(WorkerStepsProbe::main, "sqlite", "3", "3", "2", "1", "NATIVE", "0.2"), 6);
    }

    @Test
    void onPostgresWithTwoNodes() throws Exception {
        check(ProbeOutput.of(WorkerStepsProbe::main, "postgres", "10", "3", "2", "2", "WOVEN"), 6);
    }

    private static void check(Map<String, String> values, int steps) throws Exception {
        assertEquals("" + steps, values.get("worker-steps"));
        assertEquals("" + steps, values.get("resume-steps"));
        for (String key : List.of("worker-steps-per-second", "worker-median-us", "worker-p99-us",
                "resume-steps-per-second", "resume-median-us", "resume-p99-us")) {
            assertTrue(ProbeRunner.number(values, key) > 0, key + "=" + values.get(key));
        }
    }
}
