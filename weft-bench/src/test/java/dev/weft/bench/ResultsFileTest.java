package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The raw results: a section-only run replaces its sections' rows, where they were. */
class ResultsFileTest {

    private static Bench.Recorded row(String workload, String variant, double value, String section) {
        return new Bench.Recorded(workload, variant, "p", Outcome.measured(value, "us", 3), section);
    }

    @Test
    void aSectionsRowsAreReplacedInPlaceAndTheOthersKept(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.tsv");
        ResultsFile.write(file, List.of(row("switch", "a", 1, "switch"), row("sessions", "x", 2, "sessions"),
                row("sessions", "y", 3, "sessions"), row("switch", "ring", 4, "ring")));
        ResultsFile.merge(file, Set.of("sessions"), List.of(row("sessions", "z", 5, "sessions")));
        List<String> lines = Files.readAllLines(file);
        assertEquals(4, lines.size(), lines.toString());
        assertEquals(ResultsFile.HEADER, lines.get(0));
        assertEquals("switch\ta\tp\t1.00000\tus\t3\t\tswitch", lines.get(1));
        assertEquals("sessions\tz\tp\t5.00000\tus\t3\t\tsessions", lines.get(2));
        assertEquals("switch\tring\tp\t4.00000\tus\t3\t\tring", lines.get(3));
    }

    @Test
    void aFailureIsOneLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.tsv");
        ResultsFile.write(file, List.of(new Bench.Recorded("w", "v", "p", Outcome.failed("exit 1:\n\tboom"), "s")));
        assertEquals("w\tv\tp\t\t\t0\texit 1:  boom\ts", Files.readAllLines(file).get(1));
    }
}
