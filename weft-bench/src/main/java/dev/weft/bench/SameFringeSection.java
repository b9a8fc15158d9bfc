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
        v.put("wovenGenerators", "Weft `AsymCoroutine` generators, woven engine");
        v.put("rawGenerators", "raw Continuation generators (floor)");
        v.put("flattening", "flattening into lists");
        v.put("explicitStack", "hand-written iterators (explicit stack)");
        return v;
    }

    private static final String DESCRIPTION = """
            Two trees with the same `leaves` leaves but different shapes (one splits every range in halves, \
            the other at a third, as the peers' trees do) are compared to the end. \
            Generators: two coroutines walk the trees recursively and pass out each leaf, and the comparer \
            pulls from both in turn (the walkers are created anew for each comparison); on the woven engine \
            the walker is a named woven class (`dev.weft.bench.woven.FringeWalker`). Flattening: both \
            fringes copied into `ArrayList`s, then compared with `equals`. Hand-written iterators keep an \
            explicit stack of pending subtrees. Time in ns per leaf position compared; the ratio is against \
            flattening in the same run (below 1, the row is faster). Peers come from \
            `weft-bench/peers/run-peers.sh`; JRuby with Weft fibers runs the Ruby program of the JRuby and \
            MRI rows on Weft's fibers (`-r weft/fiber`).""";

    private final Results results = new Results();

    @Override
    String title() {
        return "7. Same-fringe (Mateu 1992, section 9)";
    }

    @Override
    int plannedSteps(Settings s) {
        return s.fringeLeaves().size() * VARIANTS.size();
    }

    @Override
    void measure(Bench bench) {
        for (int leaves : bench.settings().fringeLeaves()) {
            for (String m : VARIANTS.keySet()) {
                results.add(leaves, m, bench.jmh(WORKLOAD, m, "leaves=" + leaves,
                        JmhRunner.Spec.of(SameFringeBenchmark.class, m, Map.of("leaves", "" + leaves), leaves)));
            }
        }
    }

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph(DESCRIPTION);
        page.table(table(page.peers()));
    }

    /** Every solution, Weft's generators over the raw ones, then the peers (JRuby with Weft fibers among them). */
    private Table table(PeerResults peers) {
        List<Integer> sizes = results.parameters();
        List<String> header = new ArrayList<>(List.of("solution"));
        for (int leaves : sizes) {
            header.add(Format.count(leaves) + " leaves (ns/leaf)");
            header.add("÷ flattening");
        }
        Table t = new Table(header.toArray(String[]::new));
        VARIANTS.forEach((method, name) -> t.row(solutionRow(method, name, sizes)));
        t.row(weftOverRawRow(sizes));
        PeerRows.add(t, peers, WORKLOAD, PEER_METRIC, sizes, null);
        return t;
    }

    private List<String> solutionRow(String method, String name, List<Integer> sizes) {
        List<String> row = new ArrayList<>(List.of(name));
        for (int leaves : sizes) {
            row.add(Format.outcome(results.get(leaves, method)));
            row.add(Format.ratio(results.ratio(leaves, method, "flattening")));
        }
        return row;
    }

    private List<String> weftOverRawRow(List<Integer> sizes) {
        List<String> row = new ArrayList<>(List.of("*Weft generators ÷ raw generators*"));
        for (int leaves : sizes) {
            row.add(Format.ratio(results.ratio(leaves, "weftGenerators", "rawGenerators")));
            row.add("");
        }
        return row;
    }

    private static final AheadOfPeers AHEAD = new AheadOfPeers(
            "same-fringe: Weft's best generators faster per leaf than every peer's (Kotlin `sequence {}` included), at every size",
            WORKLOAD, PEER_METRIC, true, "ns");

    @Override
    List<Target> targets(PeerResults peers) {
        return List.of(AHEAD.judge(AheadOfPeers.best(results, List.of("weftGenerators", "wovenGenerators"), true), peers)
                .explainedIfMissed(PROFILE));
    }

    private static final String PROFILE = "perfasm of the woven generators at 1,000 leaves (JMH, session 16): 39% "
            + "of the time in the engine's resume loop (rebuilding the frame that takes each result, and dropping "
            + "the frames suspended in tail calls, a leaf's own and a node's after its right subtree, unrebuilt), 33% "
            + "in the walker's twin method (its calls down, and saving its frames as a suspension unwinds), 22% in "
            + "the comparer and the call path inlined into it. The same code in an idle JMH session (3 forks of 5 "
            + "iterations of 1 s): 128 ns per leaf at 1,000 leaves and 131 at 100,000; a full run's iterations of "
            + "500 ms on a busy machine spread from 128 to 208 at 100,000. Kotlin's sequence keeps each frame in a "
            + "continuation object allocated when it is called and resumes it with one virtual call, where the "
            + "woven walker moves a frame's values out when it leaves it and back in when it returns into it. "
            + "Machines differ for this workload: the code last landed before session 18 (d31ce39), 129 to 133 ns "
            + "per leaf in its own run, took 144 to 147 in idle JMH on session 18's machine, as the code of this run "
            + "did (145 to 148).";
}
