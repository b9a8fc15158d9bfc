package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The blocks of BENCHMARKS.md that a section-only run ({@code ./bench --only=NAME}) replaces:
 * each section's text, the targets and the list of section-only runs, each between two HTML
 * comments that a full run writes around it ({@code <!-- weft-bench NAME -->} and
 * {@code <!-- /weft-bench NAME -->}), invisible once rendered. Stateless.
 */
final class PageBlocks {

    /** The block of the targets table and what it says of missed goals. */
    static final String TARGETS = "targets";
    /** The block, under the page's first line, that lists the sections re-measured alone since the full run. */
    static final String ONLY_RUNS = "section-only-runs";

    private PageBlocks() {
    }

    static String begin(String block) {
        return "<!-- weft-bench " + block + " -->";
    }

    static String end(String block) {
        return "<!-- /weft-bench " + block + " -->";
    }

    /** What {@code page} holds between the markers of {@code block}, if it has them both, in order. */
    static Optional<String> content(String page, String block) {
        int from = page.indexOf(begin(block) + "\n");
        int to = page.indexOf(end(block));
        if (from < 0 || to < from) {
            return Optional.empty();
        }
        return Optional.of(page.substring(from + begin(block).length() + 1, to));
    }

    /** {@code page} with the content of {@code block} replaced by {@code content}. */
    static String replace(String page, String block, String content) {
        if (content(page, block).isEmpty()) {
            throw new IllegalArgumentException("the page has no block " + block);
        }
        int from = page.indexOf(begin(block) + "\n") + begin(block).length() + 1;
        return page.substring(0, from) + content + page.substring(page.indexOf(end(block)));
    }

    /** {@code page} with an empty block {@code block} after the block {@code previous}, which it must have. */
    static String insertAfter(String page, String previous, String block) {
        if (content(page, previous).isEmpty()) {
            throw new IllegalArgumentException("the page has no block " + previous);
        }
        int at = page.indexOf(end(previous)) + end(previous).length();
        return page.substring(0, at) + "\n\n" + begin(block) + "\n" + end(block) + page.substring(at);
    }

    /**
     * A section's text with {@code note} as a paragraph under its heading (the first line that
     * starts with {@code #}).
     */
    static String noted(String sectionText, String note) {
        int heading = sectionText.startsWith("#") ? 0 : sectionText.indexOf("\n#") + 1;
        int after = sectionText.indexOf("\n\n", heading);
        if (heading < 0 || after < 0) {
            return note + "\n\n" + sectionText;
        }
        return sectionText.substring(0, after + 2) + note + "\n\n" + sectionText.substring(after + 2);
    }

    /**
     * The list of section-only runs with a line for section {@code id} (its {@code title}, and
     * {@code run}: which run, in words), in place of the line an earlier run of it left.
     */
    static String withRun(String runs, String id, String title, String run) {
        String named = " (`" + id + "`): ";
        List<String> lines = new ArrayList<>();
        for (String old : runs.split("\n")) {
            if (old.startsWith("- ") && !old.contains(named)) {
                lines.add(old);
            }
        }
        lines.add("- " + title + named + run + ".");
        return "Sections re-measured alone since the full run (the rest of the page is as that run wrote it):\n\n"
                + String.join("\n", lines) + "\n\n";
    }
}
