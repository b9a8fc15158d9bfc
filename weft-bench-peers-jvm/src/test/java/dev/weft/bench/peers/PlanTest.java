package dev.weft.bench.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanTest {

    /** The leaves of a tree, left to right, by plain recursion. */
    static void fringe(Tree t, List<Integer> out) {
        if (t.isLeaf()) {
            out.add(t.leaf);
        } else {
            fringe(t.left, out);
            fringe(t.right, out);
        }
    }

    static int depth(Tree t) {
        return t.isLeaf() ? 0 : 1 + Math.max(depth(t.left), depth(t.right));
    }

    @Test
    void theTwoShapesHaveTheSameFringeButNotTheSameShape() {
        for (int n : new int[] {1, 2, 3, 1000, 100000}) {
            List<Integer> balanced = new ArrayList<>();
            List<Integer> lopsided = new ArrayList<>();
            fringe(Tree.balanced(n), balanced);
            fringe(Tree.lopsided(n), lopsided);
            assertEquals(n, balanced.size());
            assertEquals(balanced, lopsided);
            for (int i = 0; i < n; i++) {
                assertEquals(i, balanced.get(i));
            }
        }
        assertNotEquals(depth(Tree.balanced(1000)), depth(Tree.lopsided(1000)));
        assertTrue(depth(Tree.lopsided(100000)) < 40, "the walkers recurse shallowly");
        List<Integer> changed = new ArrayList<>();
        fringe(Tree.lopsidedDifferentLast(1000), changed);
        assertEquals(-1, changed.get(999));
    }

    @Test
    void measureCalibratesWarmsUpAndTimesTheRepetitions() {
        Plan plan = new Plan(true); // target 40 ms, warm-up 150 ms, 3 repetitions
        Plan.Measure m = plan.measure(2.0, 1, 1);
        List<Long> counts = new ArrayList<>();
        while (m.more()) {
            long count = m.count();
            counts.add(count);
            m.record(count * 1000); // 1 µs a count: 500 ns a unit
        }
        // 1 (the untimed first run), 1, 4, ..., 4096 (4.1 ms, under an eighth of the target),
        // 16384 (16 ms, enough), then 40,000 counts: four warm-up runs of 40 ms, three timed ones.
        assertEquals(List.of(1L, 1L, 4L, 16L, 64L, 256L, 1024L, 4096L, 16384L,
                40000L, 40000L, 40000L, 40000L, 40000L, 40000L, 40000L), counts);
        assertArrayEquals(new double[] {500, 500, 500}, m.results());
    }

    @Test
    void aSlowPeerDoesFewerRepetitionsAndNoWarmUp() {
        Plan plan = new Plan(true); // at most 1.5 s a row
        Plan.Measure m = plan.measure(1.0, 10, 1000);
        List<Long> counts = new ArrayList<>();
        while (m.more()) {
            counts.add(m.count());
            m.record(600_000_000L); // every run takes 0.6 s whatever its count
        }
        // The first calibration run is already long: the count drops only to firstCount, warm-up
        // is skipped, and two runs of 0.6 s fit in 1.5 s.
        assertEquals(List.of(10L, 10L, 10L, 10L), counts);
        assertEquals(2, m.results().length);
    }

    @Test
    void countsBecomeMultiplesOfTheGranule() {
        Plan plan = new Plan(true);
        Plan.Measure m = plan.measure(1.0, 1, 1000);
        long last = 0;
        while (m.more()) {
            last = m.count();
            m.record(last * 7); // 7 ns a unit: 40 ms is 5,714,285 units
        }
        assertEquals(5_714_000L, last);
    }

    @Test
    void argsParse() {
        Plan.Args a = Plan.Args.parse(new String[] {"switch", "100", "--quick", "1000"});
        assertEquals("switch", a.mode());
        assertTrue(a.quick());
        assertArrayEquals(new int[] {100, 1000}, a.counts());
    }

    @Test
    void theResidentFigureIsLiveHeapPlusNativeGrowthPerCoroutine() {
        Plan.MemoryReading before = new Plan.MemoryReading(400_000_000L, 50_000_000L, 268_435_456L);
        // fixed heap: nothing committed, 1,000 coroutines of 500 B heap and 100 B native each
        Plan.MemoryReading fixed = new Plan.MemoryReading(400_100_000L, 50_500_000L, 268_435_456L);
        assertEquals(600.0, fixed.residentPerCoroutine(before, 1_000));
        // a growing heap: the 4 MiB committed more are heap, not native, and are not counted twice
        Plan.MemoryReading grown = new Plan.MemoryReading(404_294_304L, 50_500_000L, 272_629_760L);
        assertEquals(600.0, grown.residentPerCoroutine(before, 1_000));
    }

    private static final String IDLE_QUEUE = "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n";

    @Test
    void theCompilersAreIdleOnlyWithNothingCompilingAndEveryQueueEmpty() {
        assertTrue(Plan.compilerIdle(IDLE_QUEUE));
        assertFalse(Plan.compilerIdle(IDLE_QUEUE.replace("Current compiles: \n",
                "Current compiles: \nC2 CompilerThread0  1985 %     4       Q::run @ 4 (40 bytes)\n")));
        String task = "1799       4       java.lang.String::substring (10 bytes)\n";
        assertFalse(Plan.compilerIdle(IDLE_QUEUE.replace("C1 compile queue:\nEmpty\n", "C1 compile queue:\n" + task)));
        assertFalse(Plan.compilerIdle(IDLE_QUEUE.replace("C2 compile queue:\nEmpty\n", "C2 compile queue:\n" + task)));
    }

    /** A reading runs the JDK's compile queue and native-heap trim commands; both exist on this JDK. */
    @Test
    void aMemoryReadingWaitsForTheCompilersAndTrimsOnThisJdk() {
        Plan.MemoryReading.warmUp();
        Plan.MemoryReading r = Plan.MemoryReading.settled();
        assertTrue(r.rss > 0, "VmRSS " + r.rss);
        assertTrue(r.heapUsed > 0 && r.heapUsed <= r.heapCommitted, r.heapUsed + " of " + r.heapCommitted);
    }
}
