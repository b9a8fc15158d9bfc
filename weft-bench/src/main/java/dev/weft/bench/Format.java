package dev.weft.bench;

import java.util.Locale;

/** How numbers are written in the report: three significant digits, thousands separated. */
final class Format {

    /** What a table cell shows for a value that was not measured. */
    static final String NONE = "—";

    private Format() {
    }

    /** A number with three significant digits ({@code 1,234}, {@code 56.7}, {@code 0.123}). */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return NONE;
        }
        double magnitude = Math.abs(v);
        if (magnitude >= 100 || magnitude == 0) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** A duration given in nanoseconds, in ns or µs as fits: {@code 850 ns}, {@code 12.3 µs}. */
    static String nanos(double ns) {
        if (Double.isNaN(ns) || Double.isInfinite(ns)) {
            return NONE;
        }
        return Math.abs(ns) >= 1_000 ? number(ns / 1_000) + " µs" : number(ns) + " ns";
    }

    /** A ratio, {@code 1.23×}; one just above 1, such as {@code 1.001×}, never rounds to {@code 1.00×}. */
    static String ratio(double r) {
        if (Double.isNaN(r) || Double.isInfinite(r)) {
            return NONE;
        }
        String pattern = r >= 10 ? "%.1f×" : r > 1 && r < 1.005 ? "%.3f×" : "%.2f×";
        return String.format(Locale.ROOT, pattern, r);
    }

    /** An outcome's value, or why it has none. */
    static String outcome(Outcome o) {
        if (o == null) {
            return NONE;
        }
        return o.ok() ? number(o.value()) : "failed: " + o.failure();
    }

    /** A whole count with separators: {@code 1,000,000}. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** Bytes as MiB with one decimal. */
    static String mebibytes(double bytes) {
        return Double.isNaN(bytes) ? NONE : String.format(Locale.ROOT, "%,.1f", bytes / (1024 * 1024));
    }

    /** A cell that is safe inside a markdown table: no pipes, no line breaks. */
    static String cell(String text) {
        return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ");
    }
}
