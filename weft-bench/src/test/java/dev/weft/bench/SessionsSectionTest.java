package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Engine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Section 9's targets: Weft's step against the same store's floor, and against DBOS Transact's step. */
class SessionsSectionTest {

    /**
     * Weft at {@code median} µs a step on both stores at 1 and 10 frames on the native engine, and
     * 100 µs slower on the woven one; each floor at {@code floor} µs.
     */
    private static SessionsSection measured(double median, double floor) {
        SessionsSection section = new SessionsSection();
        for (String store : List.of("sqlite", "postgres")) {
            for (int frames : List.of(1, 10)) {
                section.addDepth(store, frames, Engine.NATIVE, run(median, floor));
                section.addDepth(store, frames, Engine.WOVEN, run(median + 100, floor));
            }
        }
        return section;
    }

    private static SessionsSection.Run run(double median, double floor) {
        return new SessionsSection.Run(Map.of("sessions-median-us", "" + median, "floor-median-us", "" + floor,
                "state-bytes", "900"), null);
    }

    private static SessionsSection.Run dbos(double median) {
        return new SessionsSection.Run(Map.of("dbos-median-us", "" + median, "floor-median-us", "300"), null);
    }

    @Test
    void residentSessionsAreJudgedOnTheirOwnLine() {
        SessionsSection section = measured(400, 300);
        section.addResident("postgres", 10, Engine.NATIVE, run(350, 300));
        section.addDbos(dbos(5_000));
        List<Target> targets = section.targets(PeerResults.notRun("none"));
        assertEquals(Target.Status.MISSED, targets.get(0).status(), targets.get(0).measured());
        Target resident = targets.get(2);
        assertEquals(Target.Status.MET, resident.status(), resident.measured());
        assertTrue(resident.goal().contains("kept resident"), resident.goal());
        assertTrue(resident.measured().contains("postgres 10 frames 1.17x (native engine)"), resident.measured());
    }

    @Test
    void aMissedStoredStepIsExplainedByWhatReadingAndRestoringAddToTheResidentStep() {
        SessionsSection section = measured(450, 300);
        section.addResident("postgres", 10, Engine.NATIVE, run(320, 300));
        section.addDbos(dbos(5_000));
        Target stored = section.targets(PeerResults.notRun("none")).get(0);
        assertEquals(Target.Status.MISSED, stored.status(), stored.measured());
        assertTrue(stored.ifMissed().endsWith("The median stored step less the median resident one: postgres 10 frames, "
                + "native engine: " + Format.number(130) + " µs (" + Format.number(130 / 300.0) + "x the floor)."),
                stored.ifMissed());
    }

    @Test
    void aStepWithinOnePointThreeTimesItsFloorMeetsTheGoal() {
        SessionsSection section = measured(380, 300);
        section.addDbos(dbos(5_000));
        Target within = section.targets(PeerResults.notRun("none")).get(0);
        assertEquals(Target.Status.MET, within.status(), within.measured());
        assertTrue(within.measured().contains("sqlite 1 frames 1.27x (native engine; woven engine 1.60x)"),
                within.measured());
    }

    @Test
    void eachDepthIsJudgedOnItsFasterEngine() {
        SessionsSection section = new SessionsSection();
        section.addDepth("sqlite", 10, Engine.NATIVE, run(500, 300));
        section.addDepth("sqlite", 10, Engine.WOVEN, run(360, 300));
        section.addDepth("postgres", 10, Engine.NATIVE, run(390, 300));
        section.addDepth("postgres", 10, Engine.WOVEN, run(420, 300));
        section.addDbos(dbos(5_000));
        List<Target> targets = section.targets(PeerResults.notRun("none"));
        Target within = targets.get(0);
        assertEquals(Target.Status.MET, within.status(), within.measured());
        assertEquals("sqlite 10 frames 1.20x (woven engine; native engine 1.67x), postgres 10 frames 1.30x (native"
                + " engine; woven engine 1.40x)", within.measured());
        assertTrue(targets.get(1).measured().contains("10 frames 390 µs (DBOS / Weft 12.8x)"), targets.get(1).measured());
        section.addDepth("postgres", 1, Engine.WOVEN, run(400, 300));
        assertEquals(Target.Status.MISSED, section.targets(PeerResults.notRun("none")).get(0).status());
    }

    @Test
    void aStepSlowerThanOnePointThreeTimesItsFloorMissesIt() {
        SessionsSection section = measured(400, 300);
        section.addDbos(dbos(5_000));
        assertEquals(Target.Status.MISSED, section.targets(PeerResults.notRun("none")).get(0).status());
    }

    @Test
    void weftFasterThanDbosAtEveryDepthOnPostgresMeetsTheComparison() {
        SessionsSection section = measured(400, 300);
        section.addDbos(dbos(5_000));
        Target beside = section.targets(PeerResults.notRun("none")).get(1);
        assertEquals(Target.Status.MET, beside.status(), beside.measured());
        assertTrue(beside.measured().contains("DBOS Transact 1.1.0-m6 5,000 µs"), beside.measured());
        assertTrue(beside.measured().contains("10 frames 400 µs (DBOS / Weft 12.5x)"), beside.measured());
    }

    @Test
    void weftSlowerThanDbosMissesTheComparison() {
        SessionsSection section = measured(400, 300);
        section.addDbos(dbos(350));
        assertEquals(Target.Status.MISSED, section.targets(PeerResults.notRun("none")).get(1).status());
    }

    @Test
    void aFailedDbosRunIsNotMeasuredAndSaysWhy() {
        SessionsSection section = measured(400, 300);
        section.addDbos(new SessionsSection.Run(null, "exit 1: no PostgreSQL"));
        Target beside = section.targets(PeerResults.notRun("none")).get(1);
        assertEquals(Target.Status.NOT_MEASURED, beside.status());
        assertTrue(beside.measured().contains("exit 1: no PostgreSQL"), beside.measured());
    }

    private static SessionsSection.Run history(double median, double plain) {
        return new SessionsSection.Run(Map.of("sessions-median-us", "" + median, "plain-median-us", "" + plain), null);
    }

    @Test
    void aStepWithHistoryIsJudgedAgainstTheSameStepWithoutOnEveryStoreAndEngine() {
        SessionsSection section = measured(380, 300);
        section.addDbos(dbos(5_000));
        assertEquals(Target.Status.NOT_MEASURED, section.targets(PeerResults.notRun("none")).get(3).status());
        section.addHistory("sqlite", 10, Engine.NATIVE, history(1_050, 1_000));
        section.addHistory("postgres", 10, Engine.WOVEN, history(420, 400));
        Target within = section.targets(PeerResults.notRun("none")).get(3);
        assertEquals(Target.Status.MET, within.status(), within.measured());
        assertTrue(within.goal().startsWith("Step history: a median step that writes its history entry within 1.1x"),
                within.goal());
        assertEquals("sqlite 10 frames, native engine 1.05x, postgres 10 frames, woven engine 1.05x",
                within.measured());
        section.addHistory("postgres", 10, Engine.NATIVE, history(460, 400));
        assertEquals(Target.Status.MISSED, section.targets(PeerResults.notRun("none")).get(3).status(),
                "every engine counts");
        section.addHistory("sqlite", 10, Engine.WOVEN, new SessionsSection.Run(null, "exit 1"));
        assertEquals(Target.Status.NOT_MEASURED, section.targets(PeerResults.notRun("none")).get(3).status());
    }

    @Test
    void aFailedWeftRunLeavesBothTargetsNotMeasured() {
        SessionsSection section = new SessionsSection();
        section.addDepth("postgres", 10, Engine.NATIVE, new SessionsSection.Run(null, "exit 1"));
        section.addDbos(dbos(5_000));
        List<Target> targets = section.targets(PeerResults.notRun("none"));
        assertEquals(Target.Status.NOT_MEASURED, targets.get(0).status());
        assertEquals(Target.Status.NOT_MEASURED, targets.get(1).status());
    }
}
