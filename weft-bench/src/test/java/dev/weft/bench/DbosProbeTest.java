package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DBOS Transact's side of section 9, at a tiny size on a real PostgreSQL server: its workflows
 * answer every input (the probe checks each answer and each workflow's count), and it prints
 * every number the section reads.
 */
class DbosProbeTest {

    @Test
    void runsTheWorkflowAndPrintsStepsLatenciesAndTheFloor() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            DbosProbe.main(new String[] {"3", "2", "100"});
        } finally {
            System.setOut(original);
        }
        Map<String, String> values = ProbeRunner.parse(List.of(bytes.toString(StandardCharsets.UTF_8).split("\n")));
        assertEquals("6", values.get("dbos-steps"));
        assertEquals("6", values.get("floor-steps"));
        for (String key : List.of("dbos-steps-per-second", "dbos-median-us", "dbos-p99-us", "floor-steps-per-second",
                "floor-median-us", "floor-p99-us")) {
            assertTrue(ProbeRunner.number(values, key) > 0, key + "=" + values.get(key));
        }
    }
}
