package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The timers' probes, Weft's and DBOS's, at a tiny size: every timer due fires once, the others
 * sleep on, and they print what the section reads.
 */
class TimersProbeTest {

    @Test
    void dueTimesAreWholeMillisecondsSpreadOverTheWindow() {
        Instant first = Instant.ofEpochMilli(1_000);
        assertEquals(first, TimersProbe.due(first, Duration.ofSeconds(1), 0, 4));
        assertEquals(Instant.ofEpochMilli(1_750), TimersProbe.due(first, Duration.ofSeconds(1), 3, 4));
        assertEquals(Instant.ofEpochMilli(1_333), TimersProbe.due(first, Duration.ofSeconds(1), 1, 3));
    }

    @Test
    void onTheEmbeddedStore() throws Exception {
        check(ProbeOutput.of(TimersProbe::main, "sqlite", "60", "40", "0.5", "1", "2", "NATIVE"), 40);
    }

    @Test
    void onPostgresWithTwoNodes() throws Exception {
        check(ProbeOutput.of(TimersProbe::main, "postgres", "60", "40", "0.5", "2", "1", "WOVEN"), 40);
    }

    @Test
    void onDbos() throws Exception {
        check(ProbeOutput.of(DbosTimersProbe::main, "60", "40", "0.5"), 40);
    }

    private static void check(Map<String, String> values, int timers) throws Exception {
        assertEquals("" + timers, values.get("fired"));
        for (String key : List.of("started-median-ms", "started-p99-ms", "committed-median-ms", "committed-p99-ms",
                "committed-max-ms")) {
            assertTrue(ProbeRunner.number(values, key) > -1, key + "=" + values.get(key));
        }
        assertTrue(ProbeRunner.number(values, "committed-p99-ms") >= ProbeRunner.number(values, "started-median-ms"),
                values.toString());
        assertTrue(ProbeRunner.number(values, "late-stored") >= 0, values.toString());
    }
}
