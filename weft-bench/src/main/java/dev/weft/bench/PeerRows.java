package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The peers' rows of a section's table, whose columns come in pairs for each parameter: the
 * peer's value, then its ratio to a baseline of the same section (or nothing). Weft's own row
 * among the peers' results ({@link PeerResults#JRUBY_WEFT}) is named for what it is.
 */
final class PeerRows {

    private PeerRows() {
    }

    /**
     * Adds a row per peer that reported {@code workload}, and a row saying why the peers did not
     * run if they did not. {@code baseline} gives the outcome a peer's value is divided by at a
     * parameter, or is null for no ratios.
     */
    static void add(Table table, PeerResults peers, String workload, String metric, List<Integer> parameters,
                    IntFunction<Outcome> baseline) {
        for (String peer : peers.peersOf(workload)) {
            List<String> row = new ArrayList<>(List.of(PeerResults.rowLabel(peer)));
            for (int parameter : parameters) {
                row.add(peers.cell(peer, workload, metric, parameter, 1));
                row.add(baseline == null ? "" : ratio(peers.value(peer, workload, metric, "" + parameter),
                        baseline.apply(parameter)));
            }
            table.row(row);
        }
        if (peers.notRun() != null) {
            table.row("peers", "not run: " + peers.notRun());
        }
    }

    private static String ratio(PeerResults.Row row, Outcome baseline) {
        return row == null ? Format.NONE : Format.ratio(row.value() / baseline.value());
    }

    /** {@code peer}'s values at {@code parameters} (NaN where it has none), for a plot. */
    static List<LinePlot.Point> points(PeerResults peers, String peer, String workload, String metric,
                                       List<Integer> parameters) {
        return parameters.stream().map(p -> {
            PeerResults.Row r = peers.value(peer, workload, metric, "" + p);
            return new LinePlot.Point(p, r == null ? Double.NaN : r.value());
        }).toList();
    }

    /** The name of {@code peer}'s series in a plot. */
    static String seriesName(String peer) {
        return PeerResults.isWeft(peer) ? PeerResults.JRUBY_WEFT_LABEL : peer;
    }
}
