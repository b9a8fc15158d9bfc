package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResidentGrowthTest {

    /** A memory probe's output, as MemoryProbe prints it, from its growths in bytes. */
    static Map<String, String> output(long heapGrowth, long rssGrowth, long committedGrowth) {
        long heap = 50_000_000;
        long rss = 400_000_000;
        long committed = 268_435_456;
        return Map.of("before-heap-used", "" + heap, "after-heap-used", "" + (heap + heapGrowth),
                "before-rss", "" + rss, "after-rss", "" + (rss + rssGrowth),
                "before-heap-committed", "" + committed, "after-heap-committed", "" + (committed + committedGrowth),
                "count", "1000");
    }

    @SafeVarargs
    private static ResidentGrowth growth(int count, Map<String, String>... outputs) throws ProbeRunner.ProbeFailure {
        List<ResidentGrowth.Probe> probes = new java.util.ArrayList<>();
        for (Map<String, String> o : outputs) {
            probes.add(ResidentGrowth.Probe.of(o));
        }
        return new ResidentGrowth(count, probes);
    }

    @Test
    void residentIsLiveHeapPlusTheResidentSetGrowthOutsideTheCommittedHeap() throws Exception {
        ResidentGrowth.Probe p = ResidentGrowth.Probe.of(output(218_000, 5_000_000, 4_194_304));
        assertEquals(5_000_000 - 4_194_304, p.nativeBytes());
        assertEquals(218_000 + 5_000_000 - 4_194_304, p.residentBytes());
    }

    @Test
    void withAFixedHeapTheWholeResidentSetGrowthIsNative() throws Exception {
        ResidentGrowth g = growth(1_000, output(218_000, 100_000, 0));
        assertEquals(100.0, g.nativeMemory().median());
        assertEquals(318.0, g.resident().median());
        assertEquals(218.0, g.heap().median());
        assertEquals(100.0, g.rss().median());
    }

    @Test
    void theFigureIsTheMedianOfTheRepeatsWithTheirRange() throws Exception {
        ResidentGrowth g = growth(1_000, output(2_000_000, 6_000_000, 0), output(2_000_000, 100_000, 0),
                output(2_000_000, 300_000, 0));
        ResidentGrowth.Spread r = g.resident();
        assertEquals(2_300.0, r.median());
        assertEquals(2_100.0, r.min());
        assertEquals(8_000.0, r.max());
        assertEquals(3, r.repeats());
        assertEquals("2,300 (2,100–8,000)", r.text());
    }

    @Test
    void oneOutlierAmongThreeRepeatsLeavesTheFigureAboveTheNoise() throws Exception {
        // deviations from the median 2,300: 5,700, 200, 0: the median absolute deviation is 200
        ResidentGrowth.Spread r = growth(1_000, output(2_000_000, 6_000_000, 0), output(2_000_000, 100_000, 0),
                output(2_000_000, 300_000, 0)).resident();
        assertEquals(200.0, r.noise());
        assertFalse(r.withinNoise());
    }

    @Test
    void repeatsThatDisagreeByMoreThanTheFigureAreWithinNoise() throws Exception {
        // per coroutine: 200 + (-5,000), 200 + 900, 200 + 2,000: median 1,100, deviations 6,100, 0, 1,100
        ResidentGrowth.Spread r = growth(1_000, output(200_000, -5_000_000, 0), output(200_000, 900_000, 0),
                output(200_000, 2_000_000, 0)).resident();
        assertEquals(1_100.0, r.median());
        assertEquals(1_100.0, r.noise());
        assertTrue(r.withinNoise());
    }

    @Test
    void theNoiseRuleIsThreeTimesTheMedianAbsoluteDeviation() {
        assertFalse(ResidentGrowth.Spread.of(new double[] {101, 150, 199}).withinNoise()); // 150 against 3 x 49
        assertTrue(ResidentGrowth.Spread.of(new double[] {99, 150, 201}).withinNoise()); // 150 against 3 x 51
        assertTrue(ResidentGrowth.Spread.of(new double[] {-99, -150, -201}).withinNoise()); // the size, not the sign
        assertFalse(ResidentGrowth.Spread.of(new double[] {-101, -150, -199}).withinNoise());
    }

    @Test
    void oneRepeatHasNoSpread() throws Exception {
        ResidentGrowth.Spread r = growth(10, output(2_000, 0, 0)).resident();
        assertEquals(200.0, r.median());
        assertEquals(0.0, r.noise());
        assertFalse(r.withinNoise());
        assertEquals("200", r.text());
    }

    @Test
    void aProbeThatPrintedTooLittleIsRefusedByName() {
        ProbeRunner.ProbeFailure e = assertThrows(ProbeRunner.ProbeFailure.class,
                () -> ResidentGrowth.Probe.of(Map.of("before-heap-used", "1", "after-heap-used", "2")));
        assertEquals("the probe printed no after-rss", e.getMessage());
    }

    @Test
    void aCountOrRepeatsThatCannotBeDividedByAreRefused() {
        assertEquals("count must be positive: 0",
                assertThrows(IllegalArgumentException.class, () -> new ResidentGrowth(0, List.of())).getMessage());
        assertEquals("no probe for count 5",
                assertThrows(IllegalArgumentException.class, () -> new ResidentGrowth(5, List.of())).getMessage());
    }

    @Test
    void theFixedHeapGrowsWithTheCountAboveItsFloor() {
        assertEquals(List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch"), ProcessMemory.fixedHeapOptions(1));
        assertEquals(256, ProcessMemory.fixedHeapMebibytes(50_000));
        assertEquals(128 + 196, ProcessMemory.fixedHeapMebibytes(100_000)); // 195.3 MiB rounded up
        assertEquals(2_082, ProcessMemory.fixedHeapMebibytes(1_000_000));
    }
}
