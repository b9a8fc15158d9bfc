package dev.weft.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The results of the peers outside this JVM (Go, Ruby, Python, Kotlin, Kilim...), as the
 * script {@code weft-bench/peers/run-peers.sh [--quick] OUTDIR} leaves them in
 * {@code OUTDIR/peers.tsv}: a header line, then one tab-separated row per measurement,
 *
 * <pre>peer  workload  parameter  metric  value  unit  note</pre>
 *
 * where a peer that could not run has a row whose metric is {@code unavailable} and whose note
 * says why. When the script is missing or fails, {@link #notRun()} says why and there are no rows.
 */
final class PeerResults {

    static final String HEADER = "peer\tworkload\tparameter\tmetric\tvalue\tunit\tnote";
    static final String UNAVAILABLE = "unavailable";

    /**
     * The one "peer" that is Weft itself: JRuby running the peers' Ruby program on Weft's fibers
     * ({@code weft-jruby}). Its rows are Weft's, never a competitor a target holds Weft against.
     */
    static final String JRUBY_WEFT = "jruby-weft";
    /** How the report names {@link #JRUBY_WEFT}'s rows. */
    static final String JRUBY_WEFT_LABEL = "JRuby with Weft fibers";

    /**
     * One row of the file, or the median of rows that repeat one measurement. {@code value} is
     * NaN for an unavailable peer; {@code noise} is the repeats' median absolute deviation from
     * their median, 0 for a row measured once.
     */
    record Row(String peer, String workload, String parameter, String metric, double value, String unit, String note,
            double noise) {

        /** A row measured once. */
        Row(String peer, String workload, String parameter, String metric, double value, String unit, String note) {
            this(peer, workload, parameter, metric, value, unit, note, 0);
        }

        /**
         * Whether the repeats disagree by as much as the value, by the rule Weft's own memory
         * figures are held to ({@link ResidentGrowth#NOISE_FACTOR}): such a value says nothing
         * about the peer, and a target does not compare it.
         */
        boolean withinNoise() {
            return Math.abs(value) < ResidentGrowth.NOISE_FACTOR * noise;
        }

        boolean unavailable() {
            return UNAVAILABLE.equals(metric);
        }

        /** Whether this row is about {@code name}, or, for an unavailable peer, about every workload. */
        boolean concerns(String name) {
            return workload.equals(name) || unavailable() && (workload.isEmpty() || workload.equals("*") || workload.equals("all"));
        }
    }

    private final List<Row> rows;
    private final List<String> problems;
    private final String notRun;

    private PeerResults(List<Row> rows, List<String> problems, String notRun) {
        this.rows = List.copyOf(rows);
        this.problems = List.copyOf(problems);
        this.notRun = notRun;
    }

    /** No peer results, for {@code reason}. */
    static PeerResults notRun(String reason) {
        return new PeerResults(List.of(), List.of(), reason);
    }

    /**
     * Parses the file's lines. Lines that do not fit (wrong column count, a value that is not a
     * number) are skipped and reported by {@link #problems()}, never fatal.
     */
    static PeerResults parse(List<String> lines) {
        List<Row> rows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).stripTrailing();
            if (line.isBlank() || line.startsWith("#") || i == 0 && line.startsWith("peer\t")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length < 6 || f.length > 7) {
                problems.add("line " + (i + 1) + ": " + f.length + " columns, expected 7");
                continue;
            }
            String metric = f[3].strip();
            double value;
            try {
                value = metric.equals(UNAVAILABLE) || f[4].isBlank() ? Double.NaN : Double.parseDouble(f[4].strip());
            } catch (NumberFormatException e) {
                problems.add("line " + (i + 1) + ": value '" + f[4] + "' is not a number");
                continue;
            }
            rows.add(new Row(f[0].strip(), f[1].strip(), f[2].strip(), metric, value, f[5].strip(),
                    f.length == 7 ? f[6].strip() : ""));
        }
        return new PeerResults(mergeRepeats(rows), problems, null);
    }

    /**
     * Rows that repeat one measurement (the same peer, workload, parameter and metric: a workload
     * {@code run-peers.sh} runs in several fresh processes) become one row, in the place of the
     * first, whose value is their median and whose note ends with every value.
     */
    private static List<Row> mergeRepeats(List<Row> rows) {
        java.util.Map<String, List<Row>> groups = new java.util.LinkedHashMap<>();
        for (Row r : rows) {
            String key = r.unavailable() ? "unavailable\t" + groups.size() : String.join("\t", r.peer(), r.workload(),
                    r.parameter().replace(",", "").replace("_", ""), r.metric());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        List<Row> merged = new ArrayList<>();
        for (List<Row> group : groups.values()) {
            merged.add(group.size() == 1 ? group.get(0) : median(group));
        }
        return merged;
    }

    private static Row median(List<Row> repeats) {
        double[] values = repeats.stream().mapToDouble(Row::value).sorted().toArray();
        int n = values.length;
        double median = middle(values);
        Row first = repeats.get(0);
        String all = String.join(", ", repeats.stream().map(r -> Format.number(r.value())).toList());
        String note = (first.note().isEmpty() ? "" : first.note() + "; ") + "median of " + n + " runs: " + all;
        double[] deviations = Arrays.stream(values).map(v -> Math.abs(v - median)).sorted().toArray();
        return new Row(first.peer(), first.workload(), first.parameter(), first.metric(), median, first.unit(), note,
                middle(deviations));
    }

    /** The median of {@code sorted}, which is not empty. */
    private static double middle(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * Runs the script, if it exists, and reads what it wrote. Never throws: a missing script, a
     * failure, a time-out or a missing file becomes {@link #notRun()}, with paths relative to
     * {@code root}. The script's output goes to {@code log}.
     */
    static PeerResults run(Path root, Path script, boolean quick, Path outDir, Path log, Duration timeout) {
        String shown = root.relativize(script).toString();
        if (!Files.isRegularFile(script)) {
            return notRun(shown + " does not exist");
        }
        String logShown = " (log: " + root.relativize(log) + ")";
        try {
            Process process = start(script, quick, outDir, log);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(process);
                return notRun(shown + " did not finish within " + timeout.toSeconds() + " s" + logShown);
            }
            Path tsv = outDir.resolve("peers.tsv");
            if (!Files.isRegularFile(tsv)) {
                return notRun(shown + (process.exitValue() != 0 ? " exited with " + process.exitValue() + logShown
                        : " wrote no " + root.relativize(tsv)));
            }
            PeerResults results = parse(Files.readAllLines(tsv, StandardCharsets.UTF_8));
            return process.exitValue() == 0 ? results
                    : results.withProblem(shown + " exited with " + process.exitValue() + logShown);
        } catch (IOException e) {
            return notRun("could not run " + shown + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return notRun("interrupted while running " + shown);
        }
    }

    /** Starts {@code script [--quick] OUTDIR} in its own folder, its output to {@code log}. */
    private static Process start(Path script, boolean quick, Path outDir, Path log) throws IOException {
        Files.createDirectories(outDir);
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        if (quick) {
            command.add("--quick");
        }
        command.add(outDir.toAbsolutePath().toString());
        return new ProcessBuilder(command).directory(script.getParent().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private PeerResults withProblem(String problem) {
        List<String> more = new ArrayList<>(problems);
        more.add(problem);
        return new PeerResults(rows, more, null);
    }

    /**
     * Stops the script and everything it started: politely first (an installer in the middle of
     * its work should get to clean up), by force what is still there after a few seconds.
     */
    private static void stop(Process process) throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (tree.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    List<Row> rows() {
        return rows;
    }

    List<String> problems() {
        return problems;
    }

    /** Why the peers were not run at all, or null if they were. */
    String notRun() {
        return notRun;
    }

    /** The peers, in the order of their first row. */
    List<String> peers() {
        Set<String> names = new LinkedHashSet<>();
        rows.forEach(r -> names.add(r.peer()));
        return List.copyOf(names);
    }

    /** The peers that have any row concerning {@code workload}, in order. */
    List<String> peersOf(String workload) {
        Set<String> names = new LinkedHashSet<>();
        rows.stream().filter(r -> r.concerns(workload)).forEach(r -> names.add(r.peer()));
        return List.copyOf(names);
    }

    /** {@code peer}'s value of {@code metric} for {@code workload} at {@code parameter}, or null. */
    Row value(String peer, String workload, String metric, String parameter) {
        for (Row r : rows) {
            if (r.peer().equals(peer) && r.workload().equals(workload) && r.metric().equals(metric)
                    && sameParameter(r.parameter(), parameter)) {
                return r;
            }
        }
        return null;
    }

    /** Why {@code peer} has no results for {@code workload}, or null if it has not said it cannot run. */
    String unavailable(String peer, String workload) {
        for (Row r : rows) {
            if (r.peer().equals(peer) && r.unavailable() && r.concerns(workload)) {
                return r.note().isEmpty() ? "unavailable" : r.note();
            }
        }
        return null;
    }

    /** Whether {@code peer}'s rows are Weft's own ({@link #JRUBY_WEFT}) rather than a competitor's. */
    static boolean isWeft(String peer) {
        return peer.equals(JRUBY_WEFT);
    }

    /** The name of {@code peer}'s row in a table: {@code go-goroutines (peer)}, or Weft's own label. */
    static String rowLabel(String peer) {
        return isWeft(peer) ? JRUBY_WEFT_LABEL : peer + " (peer)";
    }

    /** {@code peer}'s value at {@code parameter} divided by {@code scale}, or why it has none, for a table cell. */
    String cell(String peer, String workload, String metric, int parameter, double scale) {
        Row r = value(peer, workload, metric, "" + parameter);
        if (r != null) {
            return Format.number(r.value() / scale);
        }
        String why = unavailable(peer, workload);
        return why != null ? "unavailable: " + why : Format.NONE;
    }

    /** A parameter as a count ({@code 5000}, {@code 5,000}, {@code 5_000}), or -1 if it is none. */
    static int count(String parameter) {
        try {
            return (int) Double.parseDouble(parameter.replace(",", "").replace("_", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Parameters compare as numbers when both are numbers ({@code 5000} and {@code 5,000}). */
    private static boolean sameParameter(String a, String b) {
        String x = a.replace(",", "").replace("_", "").toLowerCase(Locale.ROOT);
        String y = b.replace(",", "").replace("_", "").toLowerCase(Locale.ROOT);
        try {
            return Double.parseDouble(x) == Double.parseDouble(y);
        } catch (NumberFormatException e) {
            return x.equals(y);
        }
    }
}
