package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Every recorded median as tab-separated rows, for comparing runs without parsing markdown. */
final class ResultsFile {

    static final String HEADER = "workload\tvariant\tparameter\tmedian\tunit\tsamples\tfailure";

    private ResultsFile() {
    }

    static void write(Path file, List<Bench.Recorded> recorded) throws IOException {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        for (Bench.Recorded r : recorded) {
            Outcome o = r.outcome();
            lines.add(String.join("\t", r.workload(), r.variant(), r.parameter(),
                    o.ok() ? String.format(Locale.ROOT, "%.6g", o.value()) : "", o.unit(), "" + o.samples(),
                    o.ok() ? "" : o.failure().replace('\t', ' ')));
        }
        Files.write(file, lines);
    }
}
