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

    /** What one kind measured at one count: its growth over the repeats, or why it has none. */
    private record Measured(ResidentGrowth growth, String failure) {
        boolean ok() {
            return growth != null;
        }
    }

    /** kind -> count -> what the probes measured */
    private final Map<String, Map<Integer, Measured>> results = new LinkedHashMap<>();
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

    /** Weft's kinds, whose best figure the memory target holds against the peers. */
    static final List<String> WEFT_KINDS = List.of("weft-symmetric", "weft-asymmetric", "woven-symmetric",
            "woven-asymmetric");

    /** The peers' metric of the same figure (live heap plus native growth): the JVM peers print it. */
    static final String PEER_RESIDENT_METRIC = "resident-bytes-per-coroutine";
    /** The peers' plain resident-set growth: all a native peer prints, and what the resident figure is for it. */
    static final String PEER_RSS_METRIC = "rss-bytes-per-coroutine";

    /**
     * Stores what the probes of {@code kind} printed at {@code count}, one output per repeat (as
     * {@link ProbeRunner#parse} reads them); a failure if one printed too little.
     */
    void recordProbes(String kind, int count, List<Map<String, String>> outputs) throws ProbeRunner.ProbeFailure {
        if (!KINDS.containsKey(kind)) {
            throw new IllegalArgumentException("unknown memory kind " + kind + " (kinds: " + KINDS.keySet() + ")");
        }
        List<ResidentGrowth.Probe> probes = new ArrayList<>();
        for (Map<String, String> output : outputs) {
            probes.add(ResidentGrowth.Probe.of(output));
        }
        results.computeIfAbsent(kind, k -> new LinkedHashMap<>()).put(count, new Measured(new ResidentGrowth(count, probes), null));
    }

    private void recordFailure(String kind, int count, String why) {
        results.computeIfAbsent(kind, k -> new LinkedHashMap<>()).put(count, new Measured(null, why));
    }

    /** A table cell of one figure of {@code kind} at {@code count}: median and range, "within noise", or why not. */
    String cell(String kind, int count, Function<ResidentGrowth, ResidentGrowth.Spread> figure) {
        Measured m = results.getOrDefault(kind, Map.of()).get(count);
        if (m == null) {
            return kind.equals("platform-thread") && count > platformCap ? "not run (cap)" : Format.NONE;
        }
        if (!m.ok()) {
            return "failed: " + m.failure();
        }
        ResidentGrowth.Spread s = figure.apply(m.growth());
        return s.withinNoise() ? "within noise: " + s.text() : s.text();
    }

    int platformCap() {
        return platformCap;
    }

    @Override
    int plannedSteps(Settings s) {
        return KINDS.keySet().stream().flatMap(k -> counts(s, k).stream()).mapToInt(s::memoryRepeats).sum();
    }

    @Override
    double estimatedSeconds(Settings s) {
        double seconds = 0;
        for (String k : KINDS.keySet()) {
            for (int c : counts(s, k)) {
                // start-up with the readings' warm-up and waits for the compilers, touching the fixed heap
                // (about 0.3 s per GiB here), then the coroutines
                double once = 1.7 + ProcessMemory.fixedHeapMebibytes(c) / 3400.0 + c * (k.endsWith("thread") ? 2e-5 : 1e-5);
                seconds += once * s.memoryRepeats(c);
            }
        }
        return seconds;
    }

    @Override
    void measure(Bench bench) {
        for (String kind : KINDS.keySet()) {
            for (int count : counts(bench.settings(), kind)) {
                try {
                    recordProbes(kind, count, probes(bench, kind, count));
                    ResidentGrowth g = results.get(kind).get(count).growth();
                    bench.record(WORKLOAD, kind + " heap", "" + count, g.heap().outcome());
                    bench.record(WORKLOAD, kind + " resident", "" + count, g.resident().outcome());
                    bench.record(WORKLOAD, kind + " rss", "" + count, g.rss().outcome());
                } catch (ProbeRunner.ProbeFailure e) {
                    recordFailure(kind, count, e.getMessage());
                    bench.record(WORKLOAD, kind + " resident", "" + count, Outcome.failed(e.getMessage()));
                }
            }
        }
    }

    /** The outputs of the repeats of one kind and count, each in a fresh JVM with a fixed, pre-touched heap. */
    private static List<Map<String, String>> probes(Bench bench, String kind, int count) throws ProbeRunner.ProbeFailure {
        List<Map<String, String>> outputs = new ArrayList<>();
        int repeats = bench.settings().memoryRepeats(count);
        for (int r = 1; r <= repeats; r++) {
            String label = WORKLOAD + ": " + kind + " count=" + count + " repeat " + r + "/" + repeats;
            Map<String, String> v = bench.probe(label, MemoryProbe.class, List.of(kind, "" + count, "" + r),
                    ProcessMemory.fixedHeapOptions(count), TIMEOUT);
            ResidentGrowth.Probe p = ResidentGrowth.Probe.of(v);
            bench.probed(label, "heap " + Format.number(p.heapUsed() / count) + " B + native "
                    + Format.number(p.nativeBytes() / count) + " B per coroutine");
            outputs.add(v);
        }
        return outputs;
    }

    private static final String DESCRIPTION = """
            Each kind and count runs in %d fresh JVMs (3 at 1,000,000, where the growth is hundreds of \
            MiB; G1), each with a fixed heap whose every page is \
            touched at start-up (`-Xms` = `-Xmx`, `-XX:+AlwaysPreTouch`; %d MiB, or 128 MiB + 2 KiB per \
            coroutine where that is more: 2,082 MiB at 1,000,000, so that the largest count fits). The \
            probe first makes %s of the kind, suspends and finishes them (so that the JIT's compiling \
            their code, megabytes of native memory a process pays once, is not counted; platform \
            threads excepted, since a finished thread's stack is cached by the C library and reused), \
            then makes one and keeps it (so that loading the classes is not counted), collects \
            garbage until the heap stops shrinking, waits until the JIT compilers are idle (nothing \
            compiling, every compile queue empty: `jcmd Compiler.queue`, at most %d s), returns the C \
            library's free memory to the system (`jcmd System.trim_native_heap`), and reads the live \
            heap (`MemoryMXBean`) and the resident set (`VmRSS` in `/proc/self/status`); it then makes \
            `count` coroutines suspended directly in their body (or threads blocked in \
            `SynchronousQueue.take()`), and does all of it again before the second reading. The tables give the growth divided by the count, in bytes per coroutine: \
            the median of the JVMs, and their range in brackets. \
            **What is counted.** With the heap resident from the start, the resident set's growth is \
            native memory only (thread stacks, code, malloc), and no longer moves by megabytes with the \
            collector's sizing of the heap, which hid the coroutines at small counts. A real process \
            with a default heap pays the heap pages its coroutines fill as well, so the figure \
            compared with the peers is the **resident** one: live heap growth after a full collection \
            plus native growth (the resident set's growth less the committed heap's, which is zero \
            here). The JVM peers (Kotlin, Kilim, JRuby's own fibers, JRuby with Weft fibers) are measured \
            the same way by `run-peers.sh`; the native peers (Go, MRI, Python) have no separate heap, and their resident-set growth is \
            their figure. The plain resident-set growth is the last table. \
            **Noise.** A figure is *within noise* when it is under %s times the median absolute \
            deviation of the JVMs' figures (the repeats disagree by as much as the figure itself); \
            such a cell shows the median all the same, and the target leaves it out, a peer's as \
            Weft's (a peer's by the spread of its runs, which `run-peers.sh` repeats as this does). The wait for \
            the compilers and the trim are there because, without them, the resident set moved by a \
            few to a hundred 4 KiB pages between the readings around a hundred coroutines that \
            allocate no native memory at all (Native Memory Tracking showed the compiler's arena, a \
            compile still running from the warm-up, and malloc kept by the C library); they run the \
            same way before both readings and in every JVM peer, and a compile that making the \
            coroutines causes still counts with the code it leaves (the compiler's arena, freed when \
            it is done, does not). On the native \
            engine and the raw continuation, the live heap itself varies between JVMs: a stack chunk \
            holds the frames as they were when the coroutine suspended, and frames of C2-compiled code \
            are much smaller than interpreted or C1 ones (the raw continuation at 10,000, seen here: \
            about 240 B against 730), so the figure depends on whether C2 had compiled the body by \
            then; the range shows it. A coroutine's \
            frames live in heap stack chunks (native engine) or in the saved values of its frames \
            (woven engine: no stack chunk). Platform threads are capped at %s (this machine's \
            `pid_max` shares thread ids among all processes).""";

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph(DESCRIPTION.formatted(page.settings().memoryRepeats(), ProcessMemory.FIXED_HEAP_BASE_MIB,
                Format.count(MemoryProbe.JIT_WARM_UP), ProcessMemory.JIT_QUIET_LIMIT.toSeconds(),
                Format.number(ResidentGrowth.NOISE_FACTOR), Format.count(platformCap)));
        page.paragraph("**Resident per coroutine: live heap + native growth (bytes)**");
        page.table(table(ResidentGrowth::resident));
        page.paragraph("**Live heap growth per coroutine, after a full collection (bytes)**");
        page.table(table(ResidentGrowth::heap));
        page.paragraph("**Resident-set growth per coroutine, plain `VmRSS` difference (bytes)** (the heap fixed and "
                + "pre-touched, so this is native memory: thread stacks, code, malloc; negative where the process "
                + "returned memory)");
        page.table(table(ResidentGrowth::rss));
        page.plot(figure("resident (live heap + native)", ResidentGrowth::resident), "memory-rss.png",
                "Resident memory per suspended coroutine against count");
        page.plot(figure("live heap", ResidentGrowth::heap), "memory-heap.png",
                "Live heap per suspended coroutine against count");
    }

    /** One figure against the count, a series per kind; figures within noise or at or below zero are left out. */
    private LinePlot figure(String what, Function<ResidentGrowth, ResidentGrowth.Spread> figure) {
        LinePlot plot = new LinePlot("Memory per suspended coroutine: " + what, "coroutines (or blocked threads)",
                "bytes per coroutine", true, true);
        results.forEach((kind, byCount) -> {
            List<LinePlot.Point> points = new ArrayList<>();
            byCount.forEach((count, m) -> {
                if (m.ok() && !figure.apply(m.growth()).withinNoise() && figure.apply(m.growth()).median() > 0) {
                    points.add(new LinePlot.Point(count, figure.apply(m.growth()).median()));
                }
            });
            plot.series(KINDS.get(kind).replace("`", ""), points);
        });
        return plot;
    }

    /** A table of one figure: the kinds, then Weft's native engine over the raw continuation. */
    private Table table(Function<ResidentGrowth, ResidentGrowth.Spread> figure) {
        List<String> header = new ArrayList<>(List.of("count"));
        KINDS.values().forEach(header::add);
        header.add("Weft sym / raw");
        header.add("Weft asym / raw");
        Table t = new Table(header.toArray(String[]::new));
        List<Integer> counts = results.values().stream().flatMap(m -> m.keySet().stream()).distinct().sorted().toList();
        for (int count : counts) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            KINDS.keySet().forEach(kind -> row.add(cell(kind, count, figure)));
            Outcome raw = shown("raw-continuation", count, figure);
            row.add(Format.ratio(shown("weft-symmetric", count, figure).ratioTo(raw)));
            row.add(Format.ratio(shown("weft-asymmetric", count, figure).ratioTo(raw)));
            t.row(row);
        }
        return t;
    }

    /** A figure as an outcome, failed where it was not measured or is within noise. */
    private Outcome shown(String kind, int count, Function<ResidentGrowth, ResidentGrowth.Spread> figure) {
        Measured m = results.getOrDefault(kind, Map.of()).get(count);
        if (m == null || !m.ok()) {
            return Outcome.failed("not measured");
        }
        ResidentGrowth.Spread s = figure.apply(m.growth());
        return s.withinNoise() ? Outcome.failed("within noise") : s.outcome();
    }

    private static final String BEHIND_PEERS = "a suspended coroutine's own cost is its live heap (the second table): "
            + "the woven engine's saved frames and nothing native. At a small count the resident figure is decided by "
            + "the resident set's growth, a few 4 KiB pages spread over the count, the JVM's housekeeping rather than "
            + "the coroutines' (the readings wait for the compilers and trim the C heap, which removes most of it, "
            + "not all); a Weft row within noise is left out, and the comparison at that count falls to Weft's next "
            + "row.";

    private static final AheadOfPeers AHEAD = new AheadOfPeers(
            "memory: Weft's best suspended coroutine below every peer's resident memory per coroutine (live heap + "
                    + "native for the JVMs), at every count",
            WORKLOAD, List.of(PEER_RESIDENT_METRIC, PEER_RSS_METRIC), true, "B");

    @Override
    List<Target> targets(PeerResults peers) {
        return List.of(underOneKilobyte(), wovenUnder200Bytes(), residentAheadOfPeers(peers));
    }

    /** Weft's best resident figure against each peer's at every count; counts where all of Weft's are within noise are said. */
    Target residentAheadOfPeers(PeerResults peers) {
        Map<Integer, Double> best = new java.util.TreeMap<>();
        java.util.Set<Integer> noisy = new java.util.TreeSet<>();
        for (String kind : WEFT_KINDS) {
            results.getOrDefault(kind, Map.of()).forEach((count, m) -> {
                if (!m.ok()) {
                    return;
                }
                ResidentGrowth.Spread s = m.growth().resident();
                if (s.withinNoise()) {
                    noisy.add(count);
                } else {
                    best.merge(count, s.median(), Math::min);
                }
            });
        }
        noisy.removeAll(best.keySet());
        Target judged = AHEAD.judge(best, peers).explainedIfMissed(BEHIND_PEERS);
        if (noisy.isEmpty()) {
            return judged;
        }
        return new Target(judged.goal(), judged.measured() + "; every Weft row within noise at "
                + String.join(", ", noisy.stream().map(Format::count).toList()), judged.status(), judged.ifMissed());
    }

    /** Issue 12's aim: a suspended woven coroutine holds only its saved frames. */
    private Target wovenUnder200Bytes() {
        return residentAtAMillionUnder("1,000,000 suspended woven coroutines under 200 B each (live heap + native)",
                List.of("woven-symmetric", "woven-asymmetric"), 200);
    }

    private Target underOneKilobyte() {
        return residentAtAMillionUnder("1,000,000 suspended coroutines under 1 KB each (live heap + native)", WEFT_KINDS,
                1024);
    }

    private Target residentAtAMillionUnder(String goal, List<String> kinds, double limit) {
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (String kind : kinds) {
            Measured m = results.getOrDefault(kind, Map.of()).get(1_000_000);
            if (m == null || !m.ok()) {
                return Target.notMeasured(goal, KINDS.get(kind) + " at 1,000,000 not measured"
                        + (m == null ? "" : ": " + m.failure()));
            }
            ResidentGrowth g = m.growth();
            met &= g.resident().median() < limit;
            measured.add(KINDS.get(kind) + " " + g.resident().text() + " B (heap " + Format.number(g.heap().median())
                    + " + native " + Format.number(g.nativeMemory().median()) + ")");
        }
        return Target.of(goal, String.join("; ", measured), met);
    }
}
