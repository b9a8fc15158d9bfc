package dev.weft.bench;

import java.util.ArrayList;
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
    double estimatedSeconds(Settings settings) {
        return 0;
    }

    @Override
    void measure(Bench bench) {
        // the report runs the peers' script itself, after every JVM workload, so they never overlap
    }

    @Override
    void write(Page page) {
        PeerResults peers = page.peers();
        page.heading(2, title());
        page.paragraph("""
                Programs in other languages (and JVM peers built separately) are run by \
                `weft-bench/peers/run-peers.sh`, after all the JVM workloads, on the same machine; they report \
                rows of `peer, workload, parameter, metric, value, unit, note` that the tables above merge \
                (fiber chain into section 6, same-fringe into 7, switches and memory into 8).""");
        if (peers.notRun() != null) {
            page.paragraph("**peers not run: " + peers.notRun() + "**");
            return;
        }
        Table t = new Table("peer", "workloads measured", "unavailable").textColumns();
        for (String peer : peers.peers()) {
            Set<String> measured = new LinkedHashSet<>();
            List<String> unavailable = new ArrayList<>();
            for (PeerResults.Row r : peers.rows()) {
                if (!r.peer().equals(peer)) {
                    continue;
                }
                if (r.unavailable()) {
                    unavailable.add((r.workload().isEmpty() ? "all" : r.workload()) + ": " + r.note());
                } else {
                    measured.add(r.workload() + " (" + r.metric() + ")");
                }
            }
            t.row(peer, measured.isEmpty() ? Format.NONE : String.join(", ", measured),
                    unavailable.isEmpty() ? Format.NONE : String.join("; ", unavailable));
        }
        if (t.isEmpty()) {
            t.row("(none)", "run-peers.sh reported no rows");
        }
        page.table(t);
        if (!peers.problems().isEmpty()) {
            page.paragraph("Problems reading the peers' results:");
            page.bullets(peers.problems());
        }
    }
}
