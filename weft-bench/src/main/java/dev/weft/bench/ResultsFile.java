package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Every recorded median as tab-separated rows, for comparing runs without parsing markdown. */
final class ResultsFile {

    static final String HEADER = "workload\tvariant\tparameter\tmedian\tunit\tsamples\tfailure\tsection";

    private ResultsFile() {
    }

    static void write(Path file, List<Bench.Recorded> recorded) throws IOException {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        recorded.forEach(r -> lines.add(line(r)));
        Files.write(file, lines);
    }

    /**
     * Replaces, in {@code file}, the rows of {@code sections} (named in the last column) by
     * {@code recorded}, where the first of the old ones was (at the end if there was none); the
     * other rows stay as they are. For a section-only run.
     */
    static void merge(Path file, Set<String> sections, List<Bench.Recorded> recorded) throws IOException {
        List<String> old = Files.readAllLines(file);
        if (old.isEmpty() || !old.get(0).equals(HEADER)) {
            throw new IOException(file + " is not a results file: its first line is not the header");
        }
        List<String> lines = new ArrayList<>(List.of(HEADER));
        int at = -1;
        for (String line : old.subList(1, old.size())) {
            if (sections.contains(line.substring(line.lastIndexOf('\t') + 1))) {
                at = at < 0 ? lines.size() : at;
            } else {
                lines.add(line);
            }
        }
        lines.addAll(at < 0 ? lines.size() : at, recorded.stream().map(ResultsFile::line).toList());
        Files.write(file, lines);
    }

    private static String line(Bench.Recorded r) {
        Outcome o = r.outcome();
        return String.join("\t", r.workload(), r.variant(), r.parameter(),
                o.ok() ? String.format(Locale.ROOT, "%.6g", o.value()) : "", o.unit(), "" + o.samples(),
                o.ok() ? "" : clean(o.failure()), r.section());
    }

    private static String clean(String text) {
        return text.replace('\t', ' ').replace('\r', ' ').replace('\n', ' ');
    }
}
