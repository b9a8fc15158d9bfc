package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A goal of the form "Weft's best engine ahead of every peer at every size": Weft's best value
 * at each parameter against each competing peer's value of the same workload and metric at that
 * parameter (JRuby with Weft fibers is Weft's, not a competitor). Parameters that a peer did not
 * measure, or where its repeats put its value within noise ({@link PeerResults.Row#withinNoise}),
 * are left out of the comparison with that peer, the latter said; the goal is NOT MEASURED when
 * Weft's side is missing or no comparison could be made.
 *
 * @param goal the line's text
 * @param workload and {@code metrics}: the peers' rows compared; of a peer that printed several of
 *        the metrics at a parameter, the first in this list (a peer's best-defined figure first)
 * @param lowerIsBetter whether a smaller value wins (time, bytes) or a larger one (rate)
 * @param unit printed after each value
 */
record AheadOfPeers(String goal, String workload, List<String> metrics, boolean lowerIsBetter, String unit) {

    AheadOfPeers {
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("no metric for goal: " + goal);
        }
        metrics = List.copyOf(metrics);
    }

    /** A goal over one metric of the peers. */
    AheadOfPeers(String goal, String workload, String metric, boolean lowerIsBetter, String unit) {
        this(goal, workload, List.of(metric), lowerIsBetter, unit);
    }

    /** The target, from Weft's best value at each parameter (in the peers' metric). */
    Target judge(Map<Integer, Double> weftBest, PeerResults peers) {
        if (peers.notRun() != null) {
            return Target.notMeasured(goal, "peers not run: " + peers.notRun());
        }
        if (weftBest.isEmpty()) {
            return Target.notMeasured(goal, "Weft's rows were not measured");
        }
        List<String> behind = new ArrayList<>();
        List<String> noisy = new ArrayList<>();
        int compared = 0;
        for (String peer : peers.peersOf(workload)) {
            if (PeerResults.isWeft(peer)) {
                continue;
            }
            for (Map.Entry<Integer, Double> weft : weftBest.entrySet()) {
                PeerResults.Row row = firstOf(peers, peer, "" + weft.getKey());
                if (row == null) {
                    continue;
                }
                if (row.withinNoise()) {
                    noisy.add(peer + " at " + Format.count(weft.getKey()) + " (" + Format.number(row.value()) + " " + unit
                            + ")");
                    continue;
                }
                compared++;
                if (!ahead(weft.getValue(), row.value())) {
                    behind.add(peer + " at " + Format.count(weft.getKey()) + " (" + Format.number(row.value()) + " " + unit
                            + " vs Weft " + Format.number(weft.getValue()) + ")");
                }
            }
        }
        String notCompared = noisy.isEmpty() ? "" : "; within noise over their runs, not compared: " + String.join(", ", noisy);
        if (compared == 0) {
            return Target.notMeasured(goal, "no peer measured " + workload + " at Weft's sizes" + notCompared);
        }
        String measured = behind.isEmpty() ? "ahead in all " + compared + " comparisons"
                : "behind " + String.join(", ", behind) + "; ahead in " + (compared - behind.size()) + " of " + compared;
        return Target.of(goal, measured + notCompared, behind.isEmpty());
    }

    /** {@code peer}'s row of the first of {@link #metrics} it measured at {@code parameter}, or null. */
    private PeerResults.Row firstOf(PeerResults peers, String peer, String parameter) {
        for (String metric : metrics) {
            PeerResults.Row row = peers.value(peer, workload, metric, parameter);
            if (row != null) {
                return row;
            }
        }
        return null;
    }

    private boolean ahead(double weft, double peer) {
        return lowerIsBetter ? weft < peer : weft > peer;
    }

    /** Per parameter, the best of {@code variants} that measured in {@code results}. */
    static Map<Integer, Double> best(Results results, List<String> variants, boolean lowerIsBetter) {
        Map<Integer, Double> best = new java.util.TreeMap<>();
        for (int parameter : results.parameters()) {
            for (String variant : variants) {
                Outcome o = results.get(parameter, variant);
                if (o != null && o.ok()) {
                    best.merge(parameter, o.value(), lowerIsBetter ? Math::min : Math::max);
                }
            }
        }
        return best;
    }
}
