package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProbeRunnerTest {

    @Test
    void keepsKeyValueLinesAndIgnoresTheRest() {
        Map<String, String> values = ProbeRunner.parse(List.of(
                "WARNING: something the JVM says",
                "before-rss=51793920",
                "switches-per-second=5653096.72",
                "Some=Thing that is not a key",
                "count=100"));
        assertEquals(Map.of("before-rss", "51793920", "switches-per-second", "5653096.72", "count", "100"), values);
    }

    @Test
    void numbersAreCheckedByKey() throws ProbeRunner.ProbeFailure {
        Map<String, String> values = Map.of("count", "100", "rate", "fast");
        assertEquals(100.0, ProbeRunner.number(values, "count"));
        assertThrows(ProbeRunner.ProbeFailure.class, () -> ProbeRunner.number(values, "rate"));
        assertThrows(ProbeRunner.ProbeFailure.class, () -> ProbeRunner.number(values, "missing"));
    }
}
