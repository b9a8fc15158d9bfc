package dev.weft.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Workload 8: switches per second and resident memory with 100 ... 50,000 coroutines in a ring,
 * Weft against virtual and platform threads and the peers (tables 4.1 and 4.4 of the 004 thesis).
 */
final class RingSection extends Section {

    private static final String WORKLOAD = "switch";
    private static final String PEER_SWITCH_METRIC = "switches-per-second";
    private static final String PEER_MEMORY_WORKLOAD = "memory";

    private static final Map<String, String> KINDS = Map.of("weft", "Weft `Coroutine`", "woven", "Weft `Coroutine`, woven",
            "virtual-thread", "virtual threads", "platform-thread", "platform threads");
    private static final List<String> ORDER = List.of("weft", "woven", "virtual-thread", "platform-thread");

    /** What one probe measured. */
    private record Ring(Outcome switchesPerSecond, Outcome rssTotal) {
        static Ring failed(String why) {
            Outcome f = Outcome.failed(why);
            return new Ring(f, f);
        }
    }

    /** The memory kind of section 3 that each ring kind is. */
    private static final Map<String, String> MEMORY_KIND = Map.of("weft", "weft-symmetric", "woven", "woven-symmetric",
            "virtual-thread", "virtual-thread", "platform-thread", "platform-thread");

    /** kind -> count -> ring */
    private final Map<String, Map<Integer, Ring>> results = new LinkedHashMap<>();
    private final int platformCap;
    private final MemorySection memory;

    /**
     * Platform threads are made up to {@code platformCap}; the memory per coroutine comes from
     * {@code memory}'s probes, which measure suspended coroutines the way the peers do.
     */
    RingSection(int platformCap, MemorySection memory) {
        this.platformCap = platformCap;
        this.memory = memory;
    }

    @Override
    List<Section> dependsOn() {
        return List.of(memory);
    }

    @Override
    String title() {
        return "8. Switches per second and resident memory, 100 to 50,000 coroutines (004, tables 4.1 and 4.4)";
    }

    private List<Integer> counts(Settings s, String kind) {
        return s.ringCounts().stream().filter(c -> !kind.equals("platform-thread") || c <= platformCap).toList();
    }

    @Override
    int plannedSteps(Settings s) {
        return ORDER.stream().mapToInt(k -> counts(s, k).size()).sum();
    }

    @Override
    double estimatedSeconds(Settings s) {
        double seconds = plannedSteps(s) * (1.5 + (s.ringWarmup().toMillis() + s.ringMeasure().toMillis()) / 1000.0);
        for (int c : counts(s, "platform-thread")) {
            seconds += 6.5e-8 * c * (double) c; // HotSpot starts each platform thread in time linear in their number
        }
        return seconds;
    }

    @Override
    void measure(Bench bench) {
        Settings s = bench.settings();
        for (String kind : ORDER) {
            Map<Integer, Ring> byCount = new LinkedHashMap<>();
            for (int count : counts(s, kind)) {
                Ring r = probe(bench, kind, count);
                bench.record(WORKLOAD, kind, "" + count, r.switchesPerSecond());
                bench.record(WORKLOAD + "-rss", kind, "" + count, r.rssTotal());
                byCount.put(count, r);
            }
            results.put(kind, byCount);
        }
    }

    private static Ring probe(Bench bench, String kind, int count) {
        Settings s = bench.settings();
        String label = "ring: " + kind + " count=" + count;
        try {
            Map<String, String> v = bench.probe(label, RingProbe.class,
                    List.of(kind, "" + count, "" + s.ringWarmup().toMillis(), "" + s.ringMeasure().toMillis()),
                    List.of(), s.ringWarmup().plus(s.ringMeasure()).plus(Duration.ofMinutes(2)));
            double rate = ProbeRunner.number(v, "switches-per-second");
            double after = ProbeRunner.number(v, "rss-after");
            bench.probed(label, Format.number(rate / 1000) + " k switches/s, resident set " + Format.mebibytes(after) + " MiB");
            return new Ring(Outcome.measured(rate, "switches/s", 1), Outcome.measured(after, "B", 1));
        } catch (ProbeRunner.ProbeFailure e) {
            return Ring.failed(e.getMessage());
        }
    }

    private static final String DESCRIPTION = """
            One JVM per kind and count. One token goes round a ring of `count` members, each passing it \
            to the next; a switch is one member receiving it and passing it on. Weft: a ring of \
            `Coroutine`s looping on `Coroutine.yield()`, on the native engine and on the woven one \
            (`dev.weft.bench.woven.SwitchMembers.Yielder`). Threads: each parks (`LockSupport.park`) until \
            its token flag is set, then sets the next one's and unparks it. The rate is measured over \
            %d ms after %d ms of warm-up. Resident memory is `VmRSS` of the whole JVM (as in table 4.4), \
            read after the window and a full collection, with every member suspended or parked. The memory \
            per coroutine comes from the memory probes of section 3 at these counts (suspended coroutines \
            or blocked threads, after a full collection, in JVMs with a fixed, pre-touched heap), which is \
            how the JVM peers measure theirs. Platform \
            threads are capped at %s here and at %s in section 3 (this machine's `pid_max` is shared by \
            all processes' threads). Peers come from `weft-bench/peers/run-peers.sh`.""";

    @Override
    void write(Page page) {
        PeerResults peers = page.peers();
        page.heading(2, title());
        page.paragraph(DESCRIPTION.formatted(page.settings().ringMeasure().toMillis(),
                page.settings().ringWarmup().toMillis(), Format.count(platformCap), Format.count(memory.platformCap())));
        page.paragraph("**Switches per second, thousands (cf. table 4.1)**");
        page.table(rateTable(peers));
        notRunLine(page, peers);
        page.paragraph("**Resident memory of the whole JVM, MiB (cf. table 4.4)**");
        page.table(residentTable());
        page.paragraph("**Resident memory per suspended coroutine, bytes** (JVM kinds: section 3's resident figure, live "
                + "heap + native growth with a fixed, pre-touched heap, median of its JVMs with their range; the JVM peers "
                + "(Kotlin, Kilim, JRuby's own fibers, JRuby with Weft fibers): the same figure, `" + MemorySection.PEER_RESIDENT_METRIC + "`; the other peers: their "
                + "resident-set growth, `" + MemorySection.PEER_RSS_METRIC + "`; \"within noise\": see section 3)");
        page.table(perCoroutineTable(peers, ResidentGrowth::resident,
                List.of(MemorySection.PEER_RESIDENT_METRIC, MemorySection.PEER_RSS_METRIC)));
        page.paragraph("**Plain resident-set growth per suspended coroutine, bytes** (JVM kinds and the JVM peers, "
                + "JRuby's included: heap fixed and pre-touched, so native memory only; the other peers: all of it)");
        page.table(perCoroutineTable(peers, ResidentGrowth::rss, List.of(MemorySection.PEER_RSS_METRIC)));
        notRunLine(page, peers);
        page.plot(figure(peers), "ring-switches-per-second.png", "Switches per second in a ring of N");
    }

    /** Every count measured, of any kind. */
    private List<Integer> counts() {
        return results.values().stream().flatMap(m -> m.keySet().stream()).distinct().sorted().toList();
    }

    /** A header of {@code first}, the JVM kinds, then {@code more}. */
    private static String[] header(String first, List<String> more) {
        List<String> header = new ArrayList<>(List.of(first));
        ORDER.forEach(k -> header.add(KINDS.get(k)));
        header.addAll(more);
        return header.toArray(String[]::new);
    }

    /** Switches per second: the JVM kinds, Weft over virtual threads, then the peers. */
    private Table rateTable(PeerResults peers) {
        List<String> switchPeers = peers.peersOf(WORKLOAD);
        List<String> more = new ArrayList<>(List.of("Weft / virtual"));
        more.addAll(switchPeers);
        Table rate = new Table(header("count", more));
        for (int count : counts()) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            ORDER.forEach(k -> row.add(cell(k, count, r -> r.switchesPerSecond().map(x -> x / 1000, "k/s"))));
            row.add(Format.ratio(get("weft", count).switchesPerSecond().ratioTo(get("virtual-thread", count).switchesPerSecond())));
            switchPeers.forEach(p -> row.add(peers.cell(p, WORKLOAD, PEER_SWITCH_METRIC, count, 1000)));
            rate.row(row);
        }
        return rate;
    }

    /** The resident set of the whole JVM, by kind. */
    private Table residentTable() {
        Table total = new Table(header("count", List.of()));
        for (int count : counts()) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            ORDER.forEach(k -> row.add(residentCell(results.get(k).get(count))));
            total.row(row);
        }
        return total;
    }

    private static String residentCell(Ring r) {
        if (r == null) {
            return "not run (cap)";
        }
        return r.rssTotal().ok() ? Format.mebibytes(r.rssTotal().value()) : Format.outcome(r.rssTotal());
    }

    /**
     * A figure per suspended coroutine: section 3's for the JVM kinds, then each peer's first of
     * {@code peerMetrics} it printed, at every count either has.
     */
    private Table perCoroutineTable(PeerResults peers, Function<ResidentGrowth, ResidentGrowth.Spread> figure,
            List<String> peerMetrics) {
        List<String> memoryPeers = peers.peersOf(PEER_MEMORY_WORKLOAD);
        Table per = new Table(header("count", memoryPeers));
        for (int count : perCoroutineCounts(peers, memoryPeers)) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            ORDER.forEach(k -> row.add(memory.cell(MEMORY_KIND.get(k), count, figure)));
            memoryPeers.forEach(p -> row.add(peerCell(peers, p, count, peerMetrics)));
            per.row(row);
        }
        return per;
    }

    private static String peerCell(PeerResults peers, String peer, int count, List<String> metrics) {
        for (String metric : metrics) {
            if (peers.value(peer, PEER_MEMORY_WORKLOAD, metric, "" + count) != null) {
                return peers.cell(peer, PEER_MEMORY_WORKLOAD, metric, count, 1);
            }
        }
        return peers.cell(peer, PEER_MEMORY_WORKLOAD, metrics.get(metrics.size() - 1), count, 1);
    }

    private List<Integer> perCoroutineCounts(PeerResults peers, List<String> memoryPeers) {
        List<Integer> counts = new ArrayList<>(counts());
        peers.rows().stream()
                .filter(r -> memoryPeers.contains(r.peer()) && r.workload().equals(PEER_MEMORY_WORKLOAD) && !r.unavailable())
                .map(r -> PeerResults.count(r.parameter())).filter(c -> c > 0 && !counts.contains(c)).forEach(counts::add);
        counts.sort(null);
        return counts;
    }

    /** Switches per second against the ring's size: the JVM kinds, and the peers dashed. */
    private LinePlot figure(PeerResults peers) {
        LinePlot plot = new LinePlot("Ring of N: switches per second (cf. 004 table 4.1)", "coroutines in the ring",
                "switches per second (thousands)", true, true);
        for (String k : ORDER) {
            List<LinePlot.Point> pts = new ArrayList<>();
            results.get(k).forEach((c, r) -> pts.add(new LinePlot.Point(c, r.switchesPerSecond().value() / 1000)));
            plot.series(KINDS.get(k).replace("`", ""), pts);
        }
        for (String p : peers.peersOf(WORKLOAD)) {
            List<LinePlot.Point> pts = peers.rows().stream()
                    .filter(r -> r.peer().equals(p) && r.workload().equals(WORKLOAD) && r.metric().equals(PEER_SWITCH_METRIC))
                    .map(r -> new LinePlot.Point(PeerResults.count(r.parameter()), r.value() / 1000)).toList();
            plot.series(PeerResults.rowLabel(p), pts, true);
        }
        return plot;
    }

    private static void notRunLine(Page page, PeerResults peers) {
        if (peers.notRun() != null) {
            page.paragraph("*peers not run: " + peers.notRun() + "*");
        }
    }

    private Ring get(String kind, int count) {
        Ring r = results.getOrDefault(kind, Map.of()).get(count);
        return r == null ? Ring.failed("not run") : r;
    }

    private String cell(String kind, int count, Function<Ring, Outcome> column) {
        Map<Integer, Ring> byCount = results.getOrDefault(kind, Map.of());
        if (!byCount.containsKey(count)) {
            return kind.equals("platform-thread") && count > platformCap ? "not run (cap)" : Format.NONE;
        }
        return Format.outcome(column.apply(byCount.get(count)));
    }

    private static final AheadOfPeers AHEAD = new AheadOfPeers(
            "ring of N: Weft's best engine more switches per second than every peer (Kotlin and MRI included), at every count",
            WORKLOAD, PEER_SWITCH_METRIC, false, "switches/s");

    @Override
    List<Target> targets(PeerResults peers) {
        Map<Integer, Double> best = new java.util.TreeMap<>();
        for (String kind : List.of("weft", "woven")) {
            results.getOrDefault(kind, Map.of()).forEach((count, ring) -> {
                if (ring.switchesPerSecond().ok()) {
                    best.merge(count, ring.switchesPerSecond().value(), Math::max);
                }
            });
        }
        return List.of(AHEAD.judge(best, peers));
    }
}
