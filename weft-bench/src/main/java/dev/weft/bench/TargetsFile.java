package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The targets of the page by section, as tab-separated rows ({@code bench-results/targets.tsv}):
 * what a section-only run needs to write the page's targets again with its own section's
 * replaced. Tabs and line breaks in the texts are written as spaces.
 */
final class TargetsFile {

    static final String HEADER = "section\tgoal\tmeasured\tstatus\tif missed";

    private TargetsFile() {
    }

    static void write(Path file, Map<String, List<Target>> bySection) throws IOException {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        bySection.forEach((section, targets) -> targets.forEach(t -> lines.add(String.join("\t", section,
                clean(t.goal()), clean(t.measured()), t.status().name(), clean(t.ifMissed())))));
        Files.write(file, lines);
    }

    /** The targets by section, in the file's order. */
    static Map<String, List<Target>> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IOException(file + " is not a targets file: its first line is not " + HEADER);
        }
        Map<String, List<Target>> bySection = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split("\t", -1);
            if (cells.length != 5) {
                throw new IOException(file + ": not five cells: " + line);
            }
            bySection.computeIfAbsent(cells[0], s -> new ArrayList<>())
                    .add(new Target(cells[1], cells[2], Target.Status.valueOf(cells[3]), cells[4]));
        }
        return bySection;
    }

    private static String clean(String text) {
        return text.replace('\t', ' ').replace('\r', ' ').replace('\n', ' ');
    }
}
