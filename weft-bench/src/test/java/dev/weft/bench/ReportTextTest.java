package dev.weft.bench;

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
    void serializationMissesSayByHowMuchAgainstEachPartOfTheGoal() {
        assertTrue(SerializationSection.byHowMuch(new double[] {3_000, 100}, 2_000, 200).startsWith(
                "fixed part " + Format.ratio(1.5) + " the goal, per frame " + Format.ratio(0.5) + " the goal."));
    }
}
