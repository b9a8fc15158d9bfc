package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class PeerRowsTest {

    private static final PeerResults PEERS = PeerResults.parse(List.of(PeerResults.HEADER,
            "go-goroutines\tfiber-chain\t5\tns-per-hop\t150\tns\t",
            "jruby-weft\tfiber-chain\t5\tns-per-hop\t600\tns\t",
            "jruby-weft\tfiber-chain\t5000\tunavailable\tNA\t-\ttimed out after 30s"));

    /** The cells of the row of {@code table} whose first cell is {@code first}. */
    private static List<String> row(Table table, String first) {
        return table.render().lines()
                .map(l -> Arrays.stream(l.substring(1).split("\\|")).map(String::strip).toList())
                .filter(cells -> cells.get(0).equals(first)).findFirst().orElseThrow();
    }

    private static Table table(PeerResults peers, IntFunction<Outcome> baseline) {
        Table t = new Table("variant", "length 5", "÷", "length 5,000", "÷");
        PeerRows.add(t, peers, "fiber-chain", "ns-per-hop", List.of(5, 5_000), baseline);
        return t;
    }

    @Test
    void aPeerRowHasItsValueAndItsRatioToTheBaselineAtEachParameter() {
        Table t = table(PEERS, length -> Outcome.measured(100, "ns/op", 1));
        assertEquals(List.of("go-goroutines (peer)", "150", "1.50×", "—", "—"), row(t, "go-goroutines (peer)"));
    }

    @Test
    void weftsOwnRowIsNamedForWhatItIsAndSaysWhyAValueIsMissing() {
        Table t = table(PEERS, null);
        assertEquals(List.of("JRuby with Weft fibers", "600", "", "unavailable: timed out after 30s", ""),
                row(t, "JRuby with Weft fibers"));
    }

    @Test
    void peersNotRunGiveOneRowSayingWhy() {
        Table t = table(PeerResults.notRun("no script"), null);
        assertEquals(List.of("peers", "not run: no script", "", "", ""), row(t, "peers"));
        assertEquals(3, t.render().lines().count());
    }
}
