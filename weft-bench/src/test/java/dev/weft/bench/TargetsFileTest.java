package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The targets by section, kept for section-only runs. */
class TargetsFileTest {

    @Test
    void targetsAreReadBackBySectionInOrder(@TempDir Path dir) throws Exception {
        Map<String, List<Target>> targets = new LinkedHashMap<>();
        targets.put("switch", List.of(Target.of("fast", "1.1x", true), Target.notMeasured("faster", "not run")));
        targets.put("sessions", List.of(Target.of("durable", "2x", false).explainedIfMissed("the claim")));
        Path file = dir.resolve("targets.tsv");
        TargetsFile.write(file, targets);
        assertEquals(targets, TargetsFile.read(file));
    }

    @Test
    void tabsAndLineBreaksInATextBecomeSpaces(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("targets.tsv");
        TargetsFile.write(file, Map.of("s", List.of(Target.of("a\tgoal", "two\nlines", true))));
        assertEquals(Target.of("a goal", "two lines", true), TargetsFile.read(file).get("s").get(0));
    }
}
