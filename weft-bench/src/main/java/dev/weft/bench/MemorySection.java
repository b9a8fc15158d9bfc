package dev.weft.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/** Workload 3: memory per suspended coroutine, each count in a fresh JVM (thesis section 6.1). */
final class MemorySection extends Section {

    private static final String WORKLOAD = "memory";
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private static final Map<String, String> KINDS = kinds();

    private static Map<String, String> kinds() {
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("weft-symmetric", "Weft `Coroutine`");
        kinds.put("weft-asymmetric", "Weft `AsymCoroutine`");
        kinds.put("woven-symmetric", "Weft `Coroutine`, woven");
        kinds.put("woven-asymmetric", "Weft `AsymCoroutine`, woven");
        kinds.put("raw-continuation", "raw `Continuation`");
        kinds.put("virtual-thread", "virtual thread");
        kinds.put("platform-thread", "platform thread");
        return kinds;
    }

    /**
     * Resident-set growth below this, in all, is not shown per coroutine: the collector's
     * sizing, the JIT's code cache and page granularity move the resident set by that much.
     */
    static final double RSS_NOISE_BYTES = 8 * 1024 * 1024;

    /**
     * Bytes per coroutine of one probe: live heap growth, resident-set growth, and the part of
     * it not in the heap; and the resident-set growth in all.
     */
    private record PerCoroutine(Outcome heap, Outcome rss, Outcome nonHeap, double rssGrowth) {
        static PerCoroutine failed(String why) {
            Outcome f = Outcome.failed(why);
            return new PerCoroutine(f, f, f, Double.NaN);
        }

        boolean rssBelowNoise() {
            return Math.abs(rssGrowth) < RSS_NOISE_BYTES;
        }
    }

    /** kind -> count -> bytes per coroutine */
    private final Map<String, Map<Integer, PerCoroutine>> results = new LinkedHashMap<>();
    private final int platformCap;

    /** Platform threads are made up to {@code platformCap}, and never more than 10,000. */
    MemorySection(int platformCap) {
        this.platformCap = Math.min(10_000, platformCap);
    }

    @Override
    String title() {
        return "3. Memory per suspended coroutine (thesis section 6.1)";
    }

    /** The counts of section 3, and those of section 8 (whose per-coroutine table comes from here). */
    private List<Integer> counts(Settings s, String kind) {
        return Stream.concat(s.memoryCounts().stream(), s.ringCounts().stream()).distinct().sorted()
                .filter(c -> !kind.equals("platform-thread") || c <= platformCap).toList();
    }

    /**
     * The resident-set growth per suspended coroutine of {@code kind} at {@code count}, for
     * section 8: null if not measured, a failure if below the noise or failed.
     */
    Outcome residentPerCoroutine(String kind, int count) {
        PerCoroutine p = results.getOrDefault(kind, Map.of()).get(count);
        if (p == null) {
            return null;
        }
        return p.rssBelowNoise() && p.rss().ok() ? Outcome.failed("below noise") : p.rss();
    }

    int platformCap() {
        return platformCap;
    }

    @Override
    int plannedSteps(Settings s) {
        return KINDS.keySet().stream().mapToInt(k -> counts(s, k).size()).sum();
    }

    @Override
    double estimatedSeconds(Settings s) {
        double seconds = 0;
        for (String k : KINDS.keySet()) {
            for (int c : counts(s, k)) {
                seconds += 1.0 + c * (k.endsWith("thread") ? 2e-5 : 1e-5);
            }
        }
        return seconds;
    }

    @Override
    void measure(Bench bench) {
        for (String kind : KINDS.keySet()) {
            Map<Integer, PerCoroutine> byCount = new LinkedHashMap<>();
            for (int count : counts(bench.settings(), kind)) {
                PerCoroutine p = probe(bench, kind, count);
                bench.record(WORKLOAD, kind + " heap", "" + count, p.heap());
                bench.record(WORKLOAD, kind + " rss", "" + count, p.rss());
                byCount.put(count, p);
            }
            results.put(kind, byCount);
        }
    }

    private static PerCoroutine probe(Bench bench, String kind, int count) {
        String label = WORKLOAD + ": " + kind + " count=" + count;
        try {
            Map<String, String> v = bench.probe(label, MemoryProbe.class, List.of(kind, "" + count), List.of(), TIMEOUT);
            double heap = ProbeRunner.number(v, "after-heap-used") - ProbeRunner.number(v, "before-heap-used");
            double rss = ProbeRunner.number(v, "after-rss") - ProbeRunner.number(v, "before-rss");
            double committed = ProbeRunner.number(v, "after-heap-committed") - ProbeRunner.number(v, "before-heap-committed");
            bench.probed(label, "heap " + Format.number(heap / count) + " B, resident set " + Format.number(rss / count)
                    + " B per coroutine");
            return new PerCoroutine(Outcome.measured(heap / count, "B", 1), Outcome.measured(rss / count, "B", 1),
                    Outcome.measured((rss - committed) / count, "B", 1), rss);
        } catch (ProbeRunner.ProbeFailure e) {
            return PerCoroutine.failed(e.getMessage());
        }
    }

    private static final String DESCRIPTION = """
            Each kind and count runs in a fresh JVM (default heap settings, G1). The probe first makes one \
            of the kind (so that loading the classes is not counted), collects garbage until the heap \
            stops shrinking, and reads the live heap (`MemoryMXBean`) and the resident set \
            (`VmRSS` in `/proc/self/status`); it then makes `count` coroutines suspended directly in their \
            body (or threads blocked in `SynchronousQueue.take()`), collects again and reads again. The \
            tables give the growth divided by the count, in bytes per coroutine. The resident set counts \
            heap and native memory alike, but also heap the collector keeps committed and free, so it is \
            noisy at small counts; the heap column is the precise one for coroutines, whose frames live \
            in heap stack chunks; a woven coroutine has none, only the live values its frames saved. \
            Platform threads are capped at %s (this machine's `pid_max` shares \
            thread ids among all processes).""";

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph(DESCRIPTION.formatted(Format.count(platformCap)));
        page.paragraph("**Live heap growth per coroutine (bytes)**");
        page.table(table(PerCoroutine::heap, false));
        page.paragraph("**Resident-set growth per coroutine (bytes)** (\"below noise\": the whole growth was under "
                + Format.mebibytes(RSS_NOISE_BYTES) + " MiB, within what the collector and the JIT move it by)");
        page.table(table(PerCoroutine::rss, true));
        page.paragraph("**Resident-set growth outside the heap's committed size, per coroutine (bytes)** "
                + "(thread stacks and other native memory; negative where the heap committed more than it touched)");
        page.table(table(PerCoroutine::nonHeap, true));
        page.plot(figure("live heap", PerCoroutine::heap, false), "memory-heap.png",
                "Live heap per suspended coroutine against count");
        page.plot(figure("resident set", PerCoroutine::rss, true), "memory-rss.png",
                "Resident set per suspended coroutine against count");
    }

    /** One column of the results against the count, a series per kind; resident-set values under the noise are left out. */
    private LinePlot figure(String what, Function<PerCoroutine, Outcome> column, boolean residentSet) {
        LinePlot plot = new LinePlot("Memory per suspended coroutine: " + what, "coroutines (or blocked threads)",
                "bytes per coroutine", true, true);
        results.forEach((kind, byCount) -> {
            List<LinePlot.Point> points = new ArrayList<>();
            byCount.forEach((count, p) -> {
                if (!residentSet || !p.rssBelowNoise()) {
                    points.add(new LinePlot.Point(count, column.apply(p).value()));
                }
            });
            plot.series(KINDS.get(kind).replace("`", ""), points);
        });
        return plot;
    }

    /** A table of one column of the results; resident-set values under the noise are not shown. */
    private Table table(Function<PerCoroutine, Outcome> column, boolean residentSet) {
        List<String> header = new ArrayList<>(List.of("count"));
        KINDS.values().forEach(header::add);
        header.add("Weft sym / raw");
        header.add("Weft asym / raw");
        Table t = new Table(header.toArray(String[]::new));
        List<Integer> counts = results.values().stream().flatMap(m -> m.keySet().stream()).distinct().sorted().toList();
        for (int count : counts) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            for (String kind : KINDS.keySet()) {
                PerCoroutine p = results.get(kind).get(count);
                row.add(p == null ? "not run (cap)" : residentSet && p.rssBelowNoise() ? "below noise" : Format.outcome(column.apply(p)));
            }
            Outcome raw = valueAt("raw-continuation", count, column, residentSet);
            row.add(Format.ratio(valueAt("weft-symmetric", count, column, residentSet).ratioTo(raw)));
            row.add(Format.ratio(valueAt("weft-asymmetric", count, column, residentSet).ratioTo(raw)));
            t.row(row);
        }
        return t;
    }

    private Outcome valueAt(String kind, int count, Function<PerCoroutine, Outcome> column, boolean residentSet) {
        PerCoroutine p = results.getOrDefault(kind, Map.of()).get(count);
        return p == null || residentSet && p.rssBelowNoise() ? Outcome.failed("not shown") : column.apply(p);
    }

    /** The kinds that are Weft's coroutines. */
    private static final List<String> WEFT_KINDS = List.of("weft-symmetric", "weft-asymmetric", "woven-symmetric",
            "woven-asymmetric");

    private static final AheadOfPeers AHEAD = new AheadOfPeers(
            "memory: Weft's best suspended coroutine below every peer's resident set per coroutine, at every count",
            "memory", "rss-bytes-per-coroutine", true, "B");

    @Override
    List<Target> targets(PeerResults peers) {
        return List.of(underOneKilobyte(), wovenUnder200Bytes(), AHEAD.judge(bestResident(), peers));
    }

    /** Per count, the smallest resident growth per coroutine of Weft's kinds (above the noise). */
    private Map<Integer, Double> bestResident() {
        Map<Integer, Double> best = new java.util.TreeMap<>();
        for (String kind : WEFT_KINDS) {
            results.getOrDefault(kind, Map.of()).keySet().forEach(count -> {
                Outcome o = residentPerCoroutine(kind, count);
                if (o != null && o.ok()) {
                    best.merge(count, o.value(), Math::min);
                }
            });
        }
        return best;
    }

    /** Issue 12's aim: a suspended woven coroutine holds only its saved frames. */
    private Target wovenUnder200Bytes() {
        String goal = "1,000,000 suspended woven coroutines under 200 B each (heap + native)";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (String kind : List.of("woven-symmetric", "woven-asymmetric")) {
            PerCoroutine p = results.getOrDefault(kind, Map.of()).get(1_000_000);
            if (p == null || !p.heap().ok()) {
                return Target.notMeasured(goal, kind + " at 1,000,000 not measured");
            }
            double total = p.heap().value() + Math.max(0, p.nonHeap().ok() ? p.nonHeap().value() : 0);
            met &= total < 200;
            measured.add(KINDS.get(kind) + " " + Format.number(total) + " B (heap " + Format.number(p.heap().value()) + ")");
        }
        return Target.of(goal, String.join("; ", measured), met);
    }

    private Target underOneKilobyte() {
        String goal = "1,000,000 suspended coroutines under 1 KB each (heap + native)";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (String kind : List.of("weft-symmetric", "weft-asymmetric", "woven-symmetric", "woven-asymmetric")) {
            PerCoroutine p = results.getOrDefault(kind, Map.of()).get(1_000_000);
            if (p == null || !p.heap().ok() || !p.rss().ok()) {
                return Target.notMeasured(goal, "1,000,000 not measured"
                        + (p == null ? "" : ": " + p.heap().failure()));
            }
            double total = p.heap().value() + Math.max(0, p.nonHeap().value());
            met &= total < 1024;
            measured.add(KINDS.get(kind) + " " + Format.number(total) + " B (heap " + Format.number(p.heap().value())
                    + " + native " + Format.number(Math.max(0, p.nonHeap().value())) + "; resident set "
                    + Format.number(p.rss().value()) + ")");
        }
        return Target.of(goal, String.join("; ", measured), met);
    }
}
