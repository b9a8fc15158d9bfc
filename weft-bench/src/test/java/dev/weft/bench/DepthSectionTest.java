package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DepthSectionTest {

    private static final List<Integer> DEPTHS = List.of(0, 10, 50, 200);

    /**
     * Parked flat at every depth; the round trip costing {@code wovenBase + wovenPerFrame * depth}
     * woven, {@code 88 + 2.5 * depth} raw, and {@code 0.5 + depth} for the calls alone.
     */
    private static DepthSection measured(double wovenBase, double wovenPerFrame) {
        return measured(wovenBase, wovenPerFrame, true);
    }

    /** As {@link #measured(double, double)}, the calls alone measured only if {@code withCallsAlone}. */
    private static DepthSection measured(double wovenBase, double wovenPerFrame, boolean withCallsAlone) {
        DepthSection section = new DepthSection();
        for (int depth : DEPTHS) {
            section.add(depth, "wovenParked", Outcome.measured(36, "ns/op", 10));
            section.add(depth, "nativeParked", Outcome.measured(100, "ns/op", 10));
            section.add(depth, "rawParked", Outcome.measured(90, "ns/op", 10));
            section.add(depth, "wovenRoundTrip", Outcome.measured(wovenBase + wovenPerFrame * depth, "ns/op", 10));
            section.add(depth, "nativeRoundTrip", Outcome.measured(100 + 3 * depth, "ns/op", 10));
            section.add(depth, "rawRoundTrip", Outcome.measured(88 + 2.5 * depth, "ns/op", 10));
            if (withCallsAlone) {
                section.add(depth, "plainRoundTrip", Outcome.measured(0.5 + depth, "ns/op", 10));
            }
        }
        return section;
    }

    private static Target roundTrip(DepthSection section) {
        return section.targets(PeerResults.notRun("none")).get(1);
    }

    @Test
    void aRoundTripBehindTheRawContinuationIsExplainedWithEachSidesCostPerFrameUpToTheDeepestDepthItLoses() {
        Target t = roundTrip(measured(36, 12));
        assertEquals(Target.Status.MISSED, t.status(), t.measured());
        assertTrue(t.ifMissed().contains(Format.number(12) + " ns per frame from depth 0 to 200"), t.ifMissed());
        assertTrue(t.ifMissed().contains("pays " + Format.number(2.5) + " ns per frame, and the calls alone "
                + Format.number(1) + "."), t.ifMissed());
        assertTrue(t.ifMissed().contains("perfasm at depth 50"), t.ifMissed());
    }

    @Test
    void theExplanationStopsAtTheDeepestDepthWhereTheWovenEngineIsBehind() {
        DepthSection section = measured(36, 12);
        section.add(1_000, "wovenParked", Outcome.measured(36, "ns/op", 10));
        section.add(1_000, "nativeParked", Outcome.measured(100, "ns/op", 10));
        section.add(1_000, "rawParked", Outcome.measured(90, "ns/op", 10));
        section.add(1_000, "wovenRoundTrip", Outcome.measured(12_000, "ns/op", 10));
        section.add(1_000, "nativeRoundTrip", Outcome.measured(40_000, "ns/op", 10));
        section.add(1_000, "rawRoundTrip", Outcome.measured(47_000, "ns/op", 10));
        assertTrue(roundTrip(section).ifMissed().contains("from depth 0 to 200,"), roundTrip(section).ifMissed());
    }

    @Test
    void withoutTheCallsAloneTheExplanationGivesTheEnginesCostsPerFrame() {
        String why = roundTrip(measured(36, 12, false)).ifMissed();
        assertTrue(why.contains("pays " + Format.number(2.5) + " ns per frame. perfasm"), why);
    }

    @Test
    void theRoundTripTableHasTheCallsAloneBesideTheEngines(@TempDir Path dir) {
        Page page = new Page(dir, dir, Settings.quickRun(), PeerResults.notRun("none"));
        measured(36, 12).write(page);
        String text = page.text();
        assertTrue(text.contains("calls alone (ns)"), text);
        assertTrue(text.contains(" " + Format.number(50.5) + " | "), text);
    }

    @Test
    void aRoundTripBelowTheRawContinuationAtEveryDepthMeetsTheGoalAndSaysNothingMore() {
        Target t = roundTrip(measured(30, 2));
        assertEquals(Target.Status.MET, t.status(), t.measured());
    }

    @Test
    void theParkedSwitchFlatAndBelowRawMeetsItsGoal() {
        assertEquals(Target.Status.MET, measured(36, 12).targets(PeerResults.notRun("none")).get(0).status());
    }
}
