package dev.weft.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Workload 7: same-fringe (Mateu 1992, section 9), coroutine generators against flattening. */
final class SameFringeSection extends Section {

    private static final String WORKLOAD = "same-fringe";
    private static final String PEER_METRIC = "ns-per-leaf";

    private static final Map<String, String> VARIANTS = variants();

    private static Map<String, String> variants() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("weftGenerators", "Weft `AsymCoroutine` generators");
        v.put("rawGenerators", "raw Continuation generators (floor)");
        v.put("flattening", "flattening into lists");
        v.put("explicitStack", "hand-written iterators (explicit stack)");
        return v;
    }

    /** leaves -> method -> outcome */
    private final Map<Integer, Map<String, Outcome>> results = new LinkedHashMap<>();

    @Override
    String title() {
        return "7. Same-fringe (Mateu 1992, section 9)";
    }

    @Override
    int plannedSteps(Settings s) {
        return s.fringeLeaves().size() * VARIANTS.size();
    }

    @Override
    double estimatedSeconds(Settings s) {
        return plannedSteps(s) * s.averageTimeRunSeconds();
    }

    @Override
    void measure(Bench bench) {
        for (int leaves : bench.settings().fringeLeaves()) {
            Map<String, Outcome> row = new LinkedHashMap<>();
            for (String m : VARIANTS.keySet()) {
                row.put(m, bench.jmh(WORKLOAD, m, "leaves=" + leaves,
                        JmhRunner.Spec.of(SameFringeBenchmark.class, m, Map.of("leaves", "" + leaves), leaves)));
            }
            results.put(leaves, row);
        }
    }

    @Override
    void write(Page page) {
        PeerResults peers = page.peers();
        page.heading(2, title());
        page.paragraph("""
                Two trees with the same `leaves` leaves but different shapes (one splits every range in halves, \
                the other at a third, as the peers' trees do) are compared to the end. \
                Generators: two coroutines walk the trees recursively and pass out each leaf, and the comparer \
                pulls from both in turn (the walkers are created anew for each comparison). Flattening: both \
                fringes copied into `ArrayList`s, then compared with `equals`. Hand-written iterators keep an \
                explicit stack of pending subtrees. Time in ns per leaf position compared; the ratio is against \
                flattening in the same run (below 1, the row is faster).""");
        List<Integer> sizes = new ArrayList<>(results.keySet());
        List<String> header = new ArrayList<>(List.of("solution"));
        for (int leaves : sizes) {
            header.add(Format.count(leaves) + " leaves (ns/leaf)");
            header.add("÷ flattening");
        }
        Table t = new Table(header.toArray(String[]::new));
        VARIANTS.forEach((method, name) -> {
            List<String> row = new ArrayList<>(List.of(name));
            for (int leaves : sizes) {
                Outcome o = results.get(leaves).get(method);
                row.add(Format.outcome(o));
                row.add(Format.ratio(o.ratioTo(results.get(leaves).get("flattening"))));
            }
            t.row(row.toArray(String[]::new));
        });
        List<String> ratio = new ArrayList<>(List.of("*Weft generators ÷ raw generators*"));
        for (int leaves : sizes) {
            ratio.add(Format.ratio(results.get(leaves).get("weftGenerators").ratioTo(results.get(leaves).get("rawGenerators"))));
            ratio.add("");
        }
        t.row(ratio.toArray(String[]::new));
        for (String peer : peers.peersOf(WORKLOAD)) {
            List<String> row = new ArrayList<>(List.of(peer + " (peer)"));
            for (int leaves : sizes) {
                row.add(RingSection.peerCell(peers, peer, WORKLOAD, PEER_METRIC, leaves, 1));
                row.add("");
            }
            t.row(row.toArray(String[]::new));
        }
        if (peers.notRun() != null) {
            t.row("peers", "not run: " + peers.notRun());
        }
        page.table(t);
    }
}
