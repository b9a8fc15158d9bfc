package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DBOS Transact's worker-run steps at a tiny size on a real PostgreSQL server: two nodes share
 * the queue's workflows, every answer is checked, and it prints what the section reads.
 */
class DbosWorkersProbeTest {

    @Test
    void twoNodesShareTheQueueAndAnswerEveryStep() throws Exception {
        Map<String, String> values = ProbeOutput.of(DbosWorkersProbe::main, "4", "2", "2", "1");
        assertEquals("8", values.get("dbos-steps"));
        assertEquals("2", values.get("dbos-nodes-running"), values.toString());
        for (String key : List.of("dbos-steps-per-second", "dbos-median-us", "dbos-p99-us")) {
            assertTrue(ProbeRunner.number(values, key) > 0, key + "=" + values.get(key));
        }
    }
}
