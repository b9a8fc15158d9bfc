package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Section 9's targets for sessions run by workers: against resumed steps, the lateness goal, and DBOS. */
class WorkersAndTimersTest {

    private static final String DBOS = "DBOS Transact 1.1.0-m6";

    /** A run whose backlog's workers make {@code 1000 / worker * resumed} steps a second against 1,000 resumed. */
    private static SessionsSection.Run weftSteps(double worker, double resumed, double perSecond) {
        return new SessionsSection.Run(Map.of("worker-median-us", "" + worker, "resume-median-us", "" + resumed,
                "worker-steps-per-second", "" + perSecond, "drain-worker-steps-per-second", "" + 1_000 * resumed / worker,
                "drain-resume-steps-per-second", "1000"), null);
    }

    private static SessionsSection.Run dbosSteps(double perSecond) {
        return new SessionsSection.Run(Map.of("dbos-steps-per-second", "" + perSecond, "dbos-median-us", "5000"), null);
    }

    private static SessionsSection.Run lateness(double p99) {
        return new SessionsSection.Run(Map.of("committed-p99-ms", "" + p99, "committed-median-ms", "2"), null);
    }

    private static WorkersAndTimers measured(double worker, double weftP99, double dbosPerSecond, double dbosP99) {
        WorkersAndTimers section = new WorkersAndTimers(Settings.fullRun());
        for (int nodes : List.of(1, 2)) {
            section.addWorkers(new WorkersAndTimers.Config("Weft", "postgres", nodes), weftSteps(worker, 400, 1_000));
            section.addWorkers(new WorkersAndTimers.Config(DBOS, "postgres", nodes), dbosSteps(dbosPerSecond));
        }
        section.addWorkers(new WorkersAndTimers.Config("Weft", "sqlite", 1), weftSteps(worker / 2, 200, 2_000));
        section.addTimers(new WorkersAndTimers.Config("Weft", "postgres", 1), lateness(weftP99));
        section.addTimers(new WorkersAndTimers.Config("Weft", "sqlite", 1), lateness(weftP99 / 2));
        section.addTimers(new WorkersAndTimers.Config(DBOS, "postgres", 1), lateness(dbosP99));
        return section;
    }

    @Test
    void workerRunStepsPerSecondWithinOnePointThreeTimesResumedOnesMeetTheGoalOnEveryRow() {
        List<Target> targets = measured(500, 10, 100, 20).targets();
        assertEquals(Target.Status.MET, targets.get(0).status(), targets.get(0).measured());
        assertTrue(targets.get(0).measured().contains("postgres nodes=2 1.25x (800 steps/s vs 1,000)"),
                targets.get(0).measured());
        targets = measured(530, 10, 100, 20).targets();
        assertEquals(Target.Status.MISSED, targets.get(0).status(), targets.get(0).measured());
    }

    @Test
    void latenessIsJudgedOnTheCommittedP99OfEveryWeftRow() {
        assertEquals(Target.Status.MET, measured(500, 99, 100, 20).targets().get(1).status());
        Target missed = measured(500, 100, 100, 20).targets().get(1);
        assertEquals(Target.Status.MISSED, missed.status());
        assertTrue(missed.measured().contains("postgres nodes=1 100 ms (median 2.00)"), missed.measured());
    }

    @Test
    void aheadOfDbosOnEveryRowMeansMoreStepsASecondAndALowerLateness() {
        Target ahead = measured(500, 10, 100, 20).targets().get(2);
        assertEquals(Target.Status.MET, ahead.status(), ahead.measured());
        assertEquals("1 node 1,000 steps/s vs 100; 2 nodes 1,000 steps/s vs 100; timers, 1 node: lateness p99 10.0 ms"
                + " vs 20.0", ahead.measured());
        assertEquals(Target.Status.MISSED, measured(500, 30, 100, 20).targets().get(2).status());
        assertEquals(Target.Status.MISSED, measured(500, 10, 1_500, 20).targets().get(2).status());
    }

    @Test
    void theTablesSayWhatWasMeasuredAndHow() {
        Page page = new Page(java.nio.file.Path.of("."), java.nio.file.Path.of("bench-results"), Settings.fullRun(),
                PeerResults.notRun("none"));
        measured(500, 10, 100, 20).write(page);
        String text = page.text();
        assertTrue(text.contains("| Weft                   | postgres |     2 |   1,000 |       500 |"), text);
        assertTrue(text.contains("10,000 sessions of `SleepingWorkflow` sleep"), text);
        assertTrue(text.contains("3,000 of them until due times of their own"), text);
        assertTrue(text.contains("over 60.0 s (50.0 a second)"), text);
        assertTrue(text.contains("| DBOS Transact 1.1.0-m6 | postgres |     1 |              — |"), text);
        assertTrue(text.contains("| postgres |     2 |              800 |           1,000 |               1.25 |"), text);
    }

    @Test
    void aFailedRunLeavesItsTargetNotMeasured() {
        WorkersAndTimers section = measured(500, 10, 100, 20);
        section.addWorkers(new WorkersAndTimers.Config("Weft", "postgres", 4), new SessionsSection.Run(null, "exit 1"));
        section.addTimers(new WorkersAndTimers.Config(DBOS, "postgres", 1), new SessionsSection.Run(null, "exit 1"));
        List<Target> targets = section.targets();
        assertEquals(Target.Status.NOT_MEASURED, targets.get(0).status());
        assertEquals(Target.Status.NOT_MEASURED, targets.get(2).status());
    }
}
