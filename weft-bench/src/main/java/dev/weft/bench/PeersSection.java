package dev.weft.bench;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The peers outside this JVM: which workloads each reported, or why it could not run. */
final class PeersSection extends Section {

    @Override
    String title() {
        return "Peers";
    }

    @Override
    int plannedSteps(Settings settings) {
        return 0;
    }

    @Override
    void measure(Bench bench) {
        // the report runs the peers' script itself, after every JVM workload, so they never overlap
    }

    private static final String DESCRIPTION = """
            Programs in other languages (and JVM peers built separately) are run by \
            `weft-bench/peers/run-peers.sh`, after all the JVM workloads, on the same machine; they report \
            rows of `peer, workload, parameter, metric, value, unit, note` that the tables above merge \
            (fiber chain into section 6, same-fringe into 7, switches and memory into 8).""";

    @Override
    void write(Page page) {
        PeerResults peers = page.peers();
        page.heading(2, title());
        page.paragraph(DESCRIPTION);
        if (peers.notRun() != null) {
            page.paragraph("**peers not run: " + peers.notRun() + "**");
            return;
        }
        page.table(table(peers));
        if (!peers.problems().isEmpty()) {
            page.paragraph("Problems reading the peers' results:");
            page.bullets(peers.problems());
        }
    }

    /** A row per peer: what it measured, and what it could not with why. */
    private static Table table(PeerResults peers) {
        Table t = new Table("peer", "workloads measured", "unavailable").textColumns();
        for (String peer : peers.peers()) {
            List<PeerResults.Row> rows = peers.rows().stream().filter(r -> r.peer().equals(peer)).toList();
            t.row(peer, joined(measured(rows), ", "), joined(unavailable(rows), "; "));
        }
        if (t.isEmpty()) {
            t.row("(none)", "run-peers.sh reported no rows");
        }
        return t;
    }

    private static Collection<String> measured(List<PeerResults.Row> rows) {
        Set<String> measured = new LinkedHashSet<>();
        rows.stream().filter(r -> !r.unavailable()).forEach(r -> measured.add(r.workload() + " (" + r.metric() + ")"));
        return measured;
    }

    private static Collection<String> unavailable(List<PeerResults.Row> rows) {
        return rows.stream().filter(PeerResults.Row::unavailable)
                .map(r -> (r.workload().isEmpty() ? "all" : r.workload()) + ": " + r.note()).toList();
    }

    private static String joined(Collection<String> items, String separator) {
        return items.isEmpty() ? Format.NONE : String.join(separator, items);
    }
}
