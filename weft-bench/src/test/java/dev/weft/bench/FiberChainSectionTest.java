package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FiberChainSectionTest {

    private static final List<String> METHODS = List.of("weftSymmetric", "weftAsymmetric", "wovenSymmetric",
            "wovenAsymmetric", "rawTrampoline", "rawNested",
            "platformThreadsQueue", "platformThreadsExchanger", "virtualThreadsQueue", "virtualThreadsExchanger");

    /** Weft at {@code weft} ns per hop at both lengths, the raw floors faster, the thread peers slower. */
    private static FiberChainSection measured(double weft) {
        FiberChainSection section = new FiberChainSection();
        for (int length : List.of(5, 5_000)) {
            for (String m : METHODS) {
                double v = m.startsWith("weft") || m.startsWith("woven") ? weft : m.startsWith("raw") ? weft / 2 : 1_000;
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

    /** The fiber-chain rows of JRuby with Weft fibers, JRuby's own fibers and MRI, at 5 and 5,000. */
    private static PeerResults ruby(double weftAt5, double weftAt5000, double jruby, double mri) {
        return PeerResults.parse(List.of(PeerResults.HEADER,
                "mri-fiber\tfiber-chain\t5\tns-per-hop\t" + mri + "\tns\t",
                "mri-fiber\tfiber-chain\t5000\tns-per-hop\t" + mri + "\tns\t",
                "jruby-fiber\tfiber-chain\t5\tns-per-hop\t" + jruby + "\tns\t",
                "jruby-fiber\tfiber-chain\t5000\tns-per-hop\t" + jruby + "\tns\t",
                "jruby-weft\tfiber-chain\t5\tns-per-hop\t" + weftAt5 + "\tns\t",
                "jruby-weft\tfiber-chain\t5000\tns-per-hop\t" + weftAt5000 + "\tns\t",
                "jruby-weft\tsame-fringe\t1000\tns-per-leaf\t" + weftAt5 + "\tns\t"));
    }

    private static Target goal(List<Target> targets, String start) {
        return targets.stream().filter(t -> t.goal().startsWith(start)).findFirst().orElseThrow();
    }

    @Test
    void jrubyWithWeftFibersIsWeftNotAPeerToBeat() {
        Target t = measured(100).targets(ruby(10, 10, 1_000, 500)).get(0);
        assertEquals(Target.Status.MET, t.status(), t.measured());
        assertTrue(t.measured().contains("fastest peer mri-fiber 500 ns"), t.measured());
    }

    @Test
    void theJRubyGoalIsMetAtSevenTimesJRubysOwnFibersAndFasterThanMri() {
        List<Target> targets = measured(100).targets(ruby(40, 45, 350, 50));
        Target overJRuby = goal(targets, "JRuby with Weft fibers at least 7×");
        assertEquals(Target.Status.MET, overJRuby.status(), overJRuby.measured());
        assertEquals("5: 40.0 ns vs jruby-fiber 350 ns (8.75×); 5,000: 45.0 ns vs jruby-fiber 350 ns (7.78×)",
                overJRuby.measured());
        assertEquals(Target.Status.MET, goal(targets, "JRuby with Weft fibers faster per hop than MRI").status());
    }

    @Test
    void theJRubyGoalIsMissedAtOneLengthBelowSevenTimesOrSlowerThanMri() {
        List<Target> targets = measured(100).targets(ruby(40, 60, 350, 50));
        assertEquals(Target.Status.MISSED, goal(targets, "JRuby with Weft fibers at least 7×").status());
        assertEquals(Target.Status.MISSED, goal(targets, "JRuby with Weft fibers faster per hop than MRI").status());
    }

    @Test
    void aMissedJRubyGoalQuotesTheRawContinuationsHopOnTheChainAsTheNativeEnginesFloor() {
        List<Target> targets = measured(100).targets(ruby(40, 60, 350, 50));
        String floor = "(" + Format.number(50) + " ns at 5, " + Format.number(50) + " ns at 5,000).";
        Target belowMri = goal(targets, "JRuby with Weft fibers faster per hop than MRI");
        assertTrue(belowMri.ifMissed().contains(floor + " MRI's fiber switch is below that floor"), belowMri.ifMissed());
        Target overJRuby = goal(targets, "JRuby with Weft fibers at least 7×");
        assertTrue(overJRuby.ifMissed().contains(floor + " On top of that floor"), overJRuby.ifMissed());
    }

    @Test
    void theJRubyGoalIsNotMeasuredWithoutJRubyWithWeftFibers() {
        List<Target> targets = measured(100).targets(peer(150, 300));
        Target t = goal(targets, "JRuby with Weft fibers faster per hop than MRI");
        assertEquals(Target.Status.NOT_MEASURED, t.status());
        assertEquals("jruby-weft has no time at length 5", t.measured());
    }

    /** The chains of {@link #measured}, the woven asymmetric one at {@code asymmetric} ns per hop at both lengths. */
    private static FiberChainSection wovenChains(double asymmetric) {
        FiberChainSection section = measured(20);
        for (int length : List.of(5, 5_000)) {
            section.add(length, "wovenAsymmetric", Outcome.measured(asymmetric, "ns/op", 10));
        }
        return section;
    }

    @Test
    void theWovenAsymmetricChainWithinItsMarginOfTheSymmetricOneMeetsPointFive() {
        Target t = goal(wovenChains(24).targets(peer(150, 300)), "fiber chain on the woven engine");
        assertEquals(Target.Status.MET, t.status(), t.measured());
        assertEquals("5: 24.0 ns vs 20.0 ns (1.20×); 5,000: 24.0 ns vs 20.0 ns (1.20×)", t.measured());
    }

    @Test
    void aMissedPointFiveSaysWhatAnAsymmetricSwitchCostsFromTheRun() {
        Target t = goal(wovenChains(50).targets(peer(150, 300)), "fiber chain on the woven engine");
        assertEquals(Target.Status.MISSED, t.status(), t.measured());
        assertTrue(t.ifMissed().contains("per switch, 25.0 ns against 20.0 (1.25×)"), t.ifMissed());
    }

    @Test
    void pointFiveIsNotMeasuredWithoutBothWovenChains() {
        FiberChainSection section = new FiberChainSection();
        METHODS.stream().filter(m -> !m.equals("wovenAsymmetric")).forEach(m -> {
            section.add(5, m, Outcome.measured(100, "ns/op", 1));
            section.add(5_000, m, Outcome.measured(100, "ns/op", 1));
        });
        Target t = goal(section.targets(peer(150, 300)), "fiber chain on the woven engine");
        assertEquals(Target.Status.NOT_MEASURED, t.status());
        assertEquals("the woven chains have no time at length 5", t.measured());
    }

    @Test
    void theTablesNameJRubyWithWeftFibersForWhatItIs(@TempDir Path dir) {
        PeerResults peers = ruby(40, 45, 350, 50);
        Page page = new Page(dir, dir, Settings.quickRun(), peers);
        measured(100).write(page);
        new SameFringeSection().write(page);
        String text = page.text();
        assertEquals(2, text.lines().filter(l -> l.startsWith("| JRuby with Weft fibers ")).count(), text);
        assertTrue(text.contains("| mri-fiber (peer) "), text);
        assertFalse(text.contains("jruby-weft (peer)"), text);
    }
}
