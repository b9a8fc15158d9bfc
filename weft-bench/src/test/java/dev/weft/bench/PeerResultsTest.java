package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerResultsTest {

    private static final List<String> FILE = List.of(
            PeerResults.HEADER,
            "go-goroutines\tfiber-chain\t5\tns-per-hop\t147.857\tns\tmedian of 7",
            "go-goroutines\tswitch\t1000\tswitches-per-second\t3481303\t1/s\tmedian of 7",
            "mri-fiber\tfiber-chain\t5000\tns-per-hop\t275.6\tns\t",
            "mri-fiber\tmemory\t40000\tunavailable\tNA\t-\tcan't set a guard page",
            "kilim\t*\t\tunavailable\tNA\t-\tinstall failed: no network",
            "broken line without tabs",
            "python-greenlet\tfiber-chain\t5\tns-per-hop\tfast\tns\tnot a number");

    @Test
    void readsRowsInOrderAndSkipsTheHeader() {
        PeerResults r = PeerResults.parse(FILE);
        assertNull(r.notRun());
        assertEquals(5, r.rows().size());
        assertEquals(List.of("go-goroutines", "mri-fiber", "kilim"), r.peers());
        assertEquals(147.857, r.value("go-goroutines", "fiber-chain", "ns-per-hop", "5").value());
    }

    @Test
    void malformedLinesAreReportedNotFatal() {
        List<String> problems = PeerResults.parse(FILE).problems();
        assertEquals(2, problems.size());
        assertTrue(problems.get(0).startsWith("line 7:"), problems.get(0));
        assertTrue(problems.get(1).contains("'fast' is not a number"), problems.get(1));
    }

    @Test
    void parametersMatchAsNumbers() {
        PeerResults r = PeerResults.parse(FILE);
        assertNotNull(r.value("mri-fiber", "fiber-chain", "ns-per-hop", "5,000"));
        assertNull(r.value("mri-fiber", "fiber-chain", "ns-per-hop", "5"));
    }

    @Test
    void anUnavailablePeerGivesItsReasonForItsWorkloadOrForAll() {
        PeerResults r = PeerResults.parse(FILE);
        assertEquals("can't set a guard page", r.unavailable("mri-fiber", "memory"));
        assertNull(r.unavailable("mri-fiber", "fiber-chain"));
        assertEquals("install failed: no network", r.unavailable("kilim", "same-fringe"));
        assertEquals(List.of("go-goroutines", "mri-fiber", "kilim"), r.peersOf("fiber-chain"));
        assertEquals(List.of("mri-fiber", "kilim"), r.peersOf("memory"));
    }

    @Test
    void aMissingScriptIsAReasonNotAnError(@TempDir Path dir) {
        PeerResults r = PeerResults.run(dir, dir.resolve("run-peers.sh"), true, dir.resolve("out"),
                dir.resolve("log"), Duration.ofSeconds(5));
        assertEquals("run-peers.sh does not exist", r.notRun());
        assertTrue(r.rows().isEmpty());
    }

    @Test
    void aFailingScriptIsAReason(@TempDir Path dir) throws IOException {
        Path script = Files.writeString(dir.resolve("run-peers.sh"), "echo no luck; exit 3\n");
        PeerResults r = PeerResults.run(dir, script, true, dir.resolve("out"), dir.resolve("log"), Duration.ofSeconds(30));
        assertEquals("run-peers.sh exited with 3 (log: log)", r.notRun());
    }

    @Test
    void aScriptThatTakesTooLongIsStoppedWithItsChildren(@TempDir Path dir) throws IOException {
        Path script = Files.writeString(dir.resolve("run-peers.sh"), "sleep 300 & sleep 300\n");
        PeerResults r = PeerResults.run(dir, script, true, dir.resolve("out"), dir.resolve("log"), Duration.ofSeconds(1));
        assertEquals("run-peers.sh did not finish within 1 s (log: log)", r.notRun());
    }

    @Test
    void theScriptGetsQuickAndTheOutputDirectory(@TempDir Path dir) throws IOException {
        Path script = Files.writeString(dir.resolve("run-peers.sh"), """
                [ "$1" = --quick ] || exit 9
                printf 'peer\\tworkload\\tparameter\\tmetric\\tvalue\\tunit\\tnote\\n' > "$2/peers.tsv"
                printf 'p\\tsame-fringe\\t1000\\tns-per-leaf\\t12.5\\tns\\tok\\n' >> "$2/peers.tsv"
                """);
        PeerResults r = PeerResults.run(dir, script, true, dir.resolve("out"), dir.resolve("log"), Duration.ofSeconds(30));
        assertNull(r.notRun());
        assertEquals(12.5, r.value("p", "same-fringe", "ns-per-leaf", "1000").value());
    }

    @Test
    void repeatedRowsOfOneMeasurementBecomeTheirMedianInThePlaceOfTheFirst() {
        PeerResults r = PeerResults.parse(List.of(PeerResults.HEADER,
                "kilim\tmemory\t1000\tresident-bytes-per-coroutine\t900\tB\tfixed heap",
                "kilim\tmemory\t1000\trss-bytes-per-coroutine\t50\tB\t",
                "kilim\tmemory\t1,000\tresident-bytes-per-coroutine\t300\tB\tfixed heap",
                "kilim\tmemory\t1000\tresident-bytes-per-coroutine\t400\tB\tfixed heap",
                "kilim\tmemory\t5000\tunavailable\tNA\t-\ttimed out",
                "kilim\tmemory\t5000\tunavailable\tNA\t-\ttimed out"));
        assertEquals(4, r.rows().size());
        PeerResults.Row resident = r.rows().get(0);
        assertEquals(400.0, resident.value());
        assertEquals("fixed heap; median of 3 runs: 900, 300, 400", resident.note());
        assertEquals(50.0, r.value("kilim", "memory", "rss-bytes-per-coroutine", "1000").value());
        assertTrue(r.rows().get(2).unavailable() && r.rows().get(3).unavailable());
    }
}
