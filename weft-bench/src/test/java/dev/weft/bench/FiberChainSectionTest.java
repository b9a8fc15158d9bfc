package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FiberChainSectionTest {

    private static final List<String> METHODS = List.of("weftSymmetric", "weftAsymmetric", "rawTrampoline", "rawNested",
            "platformThreadsQueue", "platformThreadsExchanger", "virtualThreadsQueue", "virtualThreadsExchanger");

    /** Weft at {@code weft} ns per hop at both lengths, the raw floors faster, the thread peers slower. */
    private static FiberChainSection measured(double weft) {
        FiberChainSection section = new FiberChainSection();
        for (int length : List.of(5, 5_000)) {
            for (String m : METHODS) {
                double v = m.startsWith("weft") ? weft : m.startsWith("raw") ? weft / 2 : 1_000;
                section.add(length, m, Outcome.measured(v, "ns/op", 10));
            }
        }
        return section;
    }

    private static PeerResults peer(double atFive, double atFiveThousand) {
        return PeerResults.parse(List.of(PeerResults.HEADER,
                "mri-fiber\tfiber-chain\t5\tns-per-hop\t" + atFive + "\tns\t",
                "mri-fiber\tfiber-chain\t5000\tns-per-hop\t" + atFiveThousand + "\tns\t"));
    }

    @Test
    void theRawFloorsAreNotPeers() {
        Target t = measured(100).targets(PeerResults.notRun("none")).get(0);
        assertEquals(Target.Status.MET, t.status(), t.measured());
    }

    @Test
    void aPeerFasterAtOneLengthMissesTheTarget() {
        Target t = measured(100).targets(peer(200, 80)).get(0);
        assertEquals(Target.Status.MISSED, t.status());
        assertTrue(t.measured().contains("mri-fiber 80.0 ns"), t.measured());
    }

    @Test
    void slowerPeersAtBothLengthsMeetIt() {
        assertEquals(Target.Status.MET, measured(100).targets(peer(150, 300)).get(0).status());
    }

    @Test
    void anUnmeasuredLengthIsNotMeasured() {
        FiberChainSection section = new FiberChainSection();
        METHODS.forEach(m -> section.add(5, m, Outcome.measured(100, "ns/op", 1)));
        assertEquals(Target.Status.NOT_MEASURED, section.targets(peer(150, 300)).get(0).status());
    }
}
