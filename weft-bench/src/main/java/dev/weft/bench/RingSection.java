package dev.weft.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Workload 8: switches per second and resident memory with 100 ... 50,000 coroutines in a ring,
 * Weft against virtual and platform threads and the peers (tables 4.1 and 4.4 of the 004 thesis).
 */
final class RingSection extends Section {

    private static final String WORKLOAD = "switch";
    private static final String PEER_SWITCH_METRIC = "switches-per-second";
    private static final String PEER_MEMORY_WORKLOAD = "memory";
    private static final String PEER_MEMORY_METRIC = "rss-bytes-per-coroutine";

    private static final Map<String, String> KINDS = Map.of(
            "weft", "Weft `Coroutine`", "virtual-thread", "virtual threads", "platform-thread", "platform threads");
    private static final List<String> ORDER = List.of("weft", "virtual-thread", "platform-thread");

    /** What one probe measured. */
    private record Ring(Outcome switchesPerSecond, Outcome rssTotal) {
        static Ring failed(String why) {
            Outcome f = Outcome.failed(why);
            return new Ring(f, f);
        }
    }

    /** The memory kind of section 3 that each ring kind is. */
    private static final Map<String, String> MEMORY_KIND = Map.of(
            "weft", "weft-symmetric", "virtual-thread", "virtual-thread", "platform-thread", "platform-thread");

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

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph("""
                One JVM per kind and count. One token goes round a ring of `count` members, each passing it \
                to the next; a switch is one member receiving it and passing it on. Weft: a ring of \
                `Coroutine`s looping on `Coroutine.yield()`. Threads: each parks (`LockSupport.park`) until \
                its token flag is set, then sets the next one's and unparks it. The rate is measured over \
                %d ms after %d ms of warm-up. Resident memory is `VmRSS` of the whole JVM (as in table 4.4), \
                read after the window and a full collection, with every member suspended or parked. The growth \
                per coroutine comes from the memory probes of section 3 at these counts (suspended coroutines \
                or blocked threads, after a full collection), which is how the peers measure theirs. Platform \
                threads are capped at %s here and at %s in section 3 (this machine's `pid_max` is shared by \
                all processes' threads). Peers come from `weft-bench/peers/run-peers.sh`."""
                .formatted(page.settings().ringMeasure().toMillis(), page.settings().ringWarmup().toMillis(),
                        Format.count(platformCap), Format.count(memory.platformCap())));
        PeerResults peers = page.peers();
        List<String> switchPeers = peers.peersOf(WORKLOAD);
        List<String> memoryPeers = peers.peersOf(PEER_MEMORY_WORKLOAD);
        List<Integer> counts = results.values().stream().flatMap(m -> m.keySet().stream()).distinct().sorted().toList();

        page.paragraph("**Switches per second, thousands (cf. table 4.1)**");
        List<String> header = new ArrayList<>(List.of("count"));
        ORDER.forEach(k -> header.add(KINDS.get(k)));
        header.add("Weft / virtual");
        header.addAll(switchPeers);
        Table rate = new Table(header.toArray(String[]::new));
        for (int count : counts) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            ORDER.forEach(k -> row.add(cell(k, count, r -> r.switchesPerSecond().map(x -> x / 1000, "k/s"))));
            row.add(Format.ratio(get("weft", count).switchesPerSecond().ratioTo(get("virtual-thread", count).switchesPerSecond())));
            switchPeers.forEach(p -> row.add(peerCell(peers, p, WORKLOAD, PEER_SWITCH_METRIC, count, 1000)));
            rate.row(row.toArray(String[]::new));
        }
        page.table(rate);
        notRunLine(page, peers);

        page.paragraph("**Resident memory of the whole JVM, MiB (cf. table 4.4)**");
        Table total = new Table("count", KINDS.get("weft"), KINDS.get("virtual-thread"), KINDS.get("platform-thread"));
        for (int count : counts) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            ORDER.forEach(k -> {
                Ring r = results.get(k).get(count);
                row.add(r == null ? "not run (cap)" : r.rssTotal().ok() ? Format.mebibytes(r.rssTotal().value())
                        : Format.outcome(r.rssTotal()));
            });
            total.row(row.toArray(String[]::new));
        }
        page.table(total);

        page.paragraph("**Resident-set growth per suspended coroutine, bytes** (JVM kinds: section 3's probes; peers: their `"
                + PEER_MEMORY_METRIC + "`; \"below noise\": the JVM grew by less than "
                + Format.mebibytes(MemorySection.RSS_NOISE_BYTES) + " MiB in all)");
        List<String> memHeader = new ArrayList<>(List.of("count"));
        ORDER.forEach(k -> memHeader.add(KINDS.get(k)));
        memHeader.addAll(memoryPeers);
        Table per = new Table(memHeader.toArray(String[]::new));
        List<Integer> memCounts = new ArrayList<>(counts);
        for (String p : memoryPeers) {
            peers.rows().stream().filter(r -> r.peer().equals(p) && r.workload().equals(PEER_MEMORY_WORKLOAD) && !r.unavailable())
                    .map(r -> parseCount(r.parameter())).filter(c -> c > 0 && !memCounts.contains(c)).forEach(memCounts::add);
        }
        memCounts.sort(null);
        for (int count : memCounts) {
            List<String> row = new ArrayList<>(List.of(Format.count(count)));
            ORDER.forEach(k -> {
                Outcome o = memory.residentPerCoroutine(MEMORY_KIND.get(k), count);
                row.add(o == null ? (k.equals("platform-thread") && count > memory.platformCap() ? "not run (cap)" : Format.NONE)
                        : o.ok() ? Format.number(o.value()) : o.failure().equals("below noise") ? "below noise" : Format.outcome(o));
            });
            memoryPeers.forEach(p -> row.add(peerCell(peers, p, PEER_MEMORY_WORKLOAD, PEER_MEMORY_METRIC, count, 1)));
            per.row(row.toArray(String[]::new));
        }
        page.table(per);
        notRunLine(page, peers);

        LinePlot plot = new LinePlot("Ring of N: switches per second (cf. 004 table 4.1)", "coroutines in the ring",
                "switches per second (thousands)", true, true);
        for (String k : ORDER) {
            List<LinePlot.Point> pts = new ArrayList<>();
            results.get(k).forEach((c, r) -> pts.add(new LinePlot.Point(c, r.switchesPerSecond().value() / 1000)));
            plot.series(KINDS.get(k).replace("`", ""), pts);
        }
        for (String p : switchPeers) {
            List<LinePlot.Point> pts = new ArrayList<>();
            peers.rows().stream().filter(r -> r.peer().equals(p) && r.workload().equals(WORKLOAD)
                            && r.metric().equals(PEER_SWITCH_METRIC))
                    .forEach(r -> pts.add(new LinePlot.Point(parseCount(r.parameter()), r.value() / 1000)));
            plot.series(p + " (peer)", pts, true);
        }
        page.plot(plot, "ring-switches-per-second.png", "Switches per second in a ring of N");
    }

    static void notRunLine(Page page, PeerResults peers) {
        if (peers.notRun() != null) {
            page.paragraph("*peers not run: " + peers.notRun() + "*");
        }
    }

    private Ring get(String kind, int count) {
        Ring r = results.getOrDefault(kind, Map.of()).get(count);
        return r == null ? Ring.failed("not run") : r;
    }

    private String cell(String kind, int count, java.util.function.Function<Ring, Outcome> column) {
        Map<Integer, Ring> byCount = results.getOrDefault(kind, Map.of());
        if (!byCount.containsKey(count)) {
            return kind.equals("platform-thread") && count > platformCap ? "not run (cap)" : Format.NONE;
        }
        return Format.outcome(column.apply(byCount.get(count)));
    }

    /** A peer's value divided by {@code scale}, or why it has none. */
    static String peerCell(PeerResults peers, String peer, String workload, String metric, int parameter, double scale) {
        PeerResults.Row r = peers.value(peer, workload, metric, "" + parameter);
        if (r != null) {
            return Format.number(r.value() / scale);
        }
        String why = peers.unavailable(peer, workload);
        return why != null ? "unavailable: " + why : Format.NONE;
    }

    static int parseCount(String parameter) {
        try {
            return (int) Double.parseDouble(parameter.replace(",", "").replace("_", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
