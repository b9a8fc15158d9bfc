package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTextTest {

    private static String targetsText(List<Target> targets) {
        Page page = new Page(Path.of("."), Path.of("bench-results"), Settings.quickRun(), PeerResults.notRun("none"));
        ReportText.targets(page, targets);
        return page.text();
    }

    @Test
    void aMissedGoalIsExplainedAndAMetOneIsNot() {
        String text = targetsText(List.of(
                Target.of("fast switch", "3×", false).explainedIfMissed("the freeze dominates"),
                Target.of("small memory", "400 B", true).explainedIfMissed("never shown")));
        assertTrue(text.contains("**fast switch**: the freeze dominates"), text);
        assertFalse(text.contains("never shown"), text);
    }

    @Test
    void withNothingMissedThereIsNoExplanationParagraph() {
        String text = targetsText(List.of(Target.of("small memory", "400 B", true)));
        assertFalse(text.contains("Where a goal is missed"), text);
    }

    @Test
    void aGoalOfAFixedAndAPerFrameCostHoldsAtEveryMeasuredCount() {
        List<LinePlot.Point> within = List.of(new LinePlot.Point(3, 2_000), new LinePlot.Point(1_000, 150_000));
        assertEquals(Target.Status.MET, SerializationSection.budget("g", within, 2_000, 200, "").status());
        List<LinePlot.Point> deepMiss = List.of(new LinePlot.Point(3, 2_000), new LinePlot.Point(1_000, 303_000));
        Target t = SerializationSection.budget("g", deepMiss, 2_000, 200, " why");
        assertEquals(Target.Status.MISSED, t.status());
        assertEquals(Format.ratio(1.5) + " the budget at 1,000 frames. why", t.ifMissed());
    }

    @Test
    void theFitWeighsSmallCountsAsMuchAsLargeOnes() {
        double[] fit = SerializationSection.line(List.of(new LinePlot.Point(3, 1_600), new LinePlot.Point(10, 3_000),
                new LinePlot.Point(100, 21_000), new LinePlot.Point(1_000, 201_000)));
        assertEquals(1_000, fit[0], 150, "fixed");
        assertEquals(200, fit[1], 5, "per frame");
    }
}
