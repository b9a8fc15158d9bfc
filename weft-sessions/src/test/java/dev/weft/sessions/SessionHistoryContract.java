package dev.weft.sessions;

import static dev.weft.sessions.SessionWaitsContract.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Engine;
import dev.weft.sessions.flows.Alarm;
import dev.weft.sessions.flows.Cleanup;
import dev.weft.sessions.flows.Deadline;
import dev.weft.sessions.flows.Fanout;
import dev.weft.sessions.flows.Flaky;
import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Mailbox;
import dev.weft.sessions.flows.Questionnaire;
import dev.weft.sessions.flows.Turnstile;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The step history ({@link Sessions.Builder#keepHistory}) on every store and engine: run as a
 * nested class of {@link SessionStoreContract} ({@code History}), on its store. Each kind of step
 * leaves exactly its entry, written with the step; a step rolled back leaves none. Workers' steps
 * are run by the test itself ({@link Sessions#runDue}), on a {@link MutableClock}: no test
 * depends on how long anything takes.
 */
abstract class SessionHistoryContract {

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private final MutableClock clock = new MutableClock(T0);

    /** A node named {@code name} on the test's clock that keeps a day of history. */
    private Sessions.Builder node(String name) {
        return suite().builder().clock(clock).nodeName(name).keepHistory(Duration.ofDays(1));
    }

    private Sessions.Builder node() {
        return node("node-a");
    }

    // ---------------------------------------------------------------- off

    @Test
    void withoutHistoryAStepNeitherReadsNorWritesTheHistoryTable() throws SQLException {
        String before = suite().sessions.start(new Ledger(3), "a").id();
        assertEquals(0, historyRows(), "history is off by default");
        execute("DROP TABLE weft_history");
        Sessions node = suite().builder().clock(clock).retry(RetryPolicy.attempts(2).backoff(Duration.ofMinutes(1), 1,
                Duration.ofMinutes(1))).keepResident(10).build();
        assertEquals("after step 2", node.<String, String>resume(before, "b").output());
        String questions = node.start(new Questionnaire(), null).id();
        node.<String, String>resume(questions, "Ada");
        node.<String, String>resume(questions, "Ada"); // a resident step
        String sleeping = node.start(new Alarm(), Duration.ofMinutes(1)).id();
        String flaky = node.start(new Flaky(2, Flaky.INPUT, false), null).id();
        assertThrows(SessionRetryingException.class, () -> node.resume(flaky, "x"), "run 1 resident, run 2 stored");
        clock.advance(Duration.ofMinutes(2));
        assertEquals(List.of(flaky, sleeping).stream().sorted().toList(), java.util.stream.Stream.of(
                node.runDue(List.of()), node.runDue(List.of())).sorted().toList());
        node.cancel(questions);
        assertThrows(SessionRetryingException.class, () -> node.<String, String>resume(before, "boom"));
        assertTrue(node.status(sleeping).isEmpty() && node.status(flaky).isEmpty(), "the workers' steps ran");
        assertEquals(SessionStatus.CANCELLED, node.status(questions).orElseThrow().status());
    }

    @Test
    void aRetentionOrNodeNameOutOfRangeIsRefused() {
        Sessions.Builder builder = suite().builder();
        assertEquals("a history's retention must be more than zero: PT0S", assertThrows(IllegalArgumentException.class,
                () -> builder.keepHistory(Duration.ZERO)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.keepHistory(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> builder.keepHistory(Duration.ofSeconds(Long.MAX_VALUE)));
        assertEquals("a node's name has 1 to 200 characters: 0", assertThrows(IllegalArgumentException.class,
                () -> builder.nodeName("")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.nodeName("n".repeat(201)));
        assertThrows(NullPointerException.class, () -> builder.nodeName(null));
        builder.nodeName("n".repeat(200)).keepHistory(null);
    }

    @Test
    void withoutANameANodeIsNamedByItsHostAndProcess() {
        Sessions node = suite().builder().keepHistory(Duration.ofDays(1)).build();
        String id = node.start(new Turnstile(), "a").id();
        String name = node.history(id).get(0).node();
        assertTrue(name.endsWith(":" + ProcessHandle.current().pid()) && name.length() > 1 + ("" + ProcessHandle
                .current().pid()).length(), name);
    }

    // ---------------------------------------------------------------- callers' steps

    @Test
    void eachCallersStepLeavesOneEntrySayingWhenWhereOnWhatAndWhatItLeft() {
        Sessions node = node().build();
        String id = node.start(new Questionnaire(), null).id();
        for (String answer : List.of("Ada", "London", "thirty-six", "36")) {
            clock.advance(Duration.ofMinutes(1));
            node.<String, String>resume(id, answer);
        }
        assertTrue(node.status(id).isEmpty(), "finished and deleted");
        List<SessionHistoryEntry> entries = node.history(id);
        assertEquals(List.of("1 SUSPENDED", "2 SUSPENDED", "3 SUSPENDED", "4 SUSPENDED", "5 FINISHED"), briefs(entries),
                "a finished session's history outlives its row");
        for (int i = 0; i < entries.size(); i++) {
            assertEquals(T0.plus(Duration.ofMinutes(i)), entries.get(i).started());
            assertEquals(id, entries.get(i).sessionId());
        }
        assertRanOn(entries, "node-a");
        assertEquals(List.of(), node.history("no-such-session"));
    }

    @Test
    void stepsOfTwoNodesEachLeaveTheirNodesName() {
        Sessions a = node("node-a").build();
        Sessions b = node("node-b").build();
        String id = a.start(new Ledger(4), "a").id();
        b.<String, String>resume(id, "b");
        a.<String, String>resume(id, "c");
        assertEquals(List.of("node-a", "node-b", "node-a"), a.history(id).stream().map(SessionHistoryEntry::node)
                .toList());
        assertEquals(b.history(id), a.history(id));
    }

    // ---------------------------------------------------------------- workers' steps

    @Test
    void workersStepsForSleepsDeadlinesMessagesAndPassedDeadlinesLeaveTheirEntries() {
        Sessions node = node().keepFinished(true).build();
        String sleeping = node.start(new Alarm(), Duration.ofMinutes(5)).id();
        String asking = node.start(new Deadline(Duration.ofMinutes(5)), null).id();
        String mailbox = node.start(new Mailbox(Duration.ofMinutes(5), null), null).id();
        String late = node.start("late", new Turnstile(), "a", Duration.ofMinutes(5)).id();
        node.send(mailbox, "m1");
        assertEquals(mailbox, node.runDue(List.of()), "a message is due at once");
        clock.advance(Duration.ofMinutes(10));
        List<String> ran = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ran.add(node.runDue(List.of()));
        }
        assertEquals(List.of(late, sleeping, asking, mailbox).stream().sorted().toList(), ran.stream().sorted()
                .toList());
        assertNull(node.runDue(List.of()));
        Instant due = T0.plus(Duration.ofMinutes(5));
        assertEquals(List.of("1 SUSPENDED SLEEP until " + due, "2 FINISHED"), briefs(node.history(sleeping)));
        assertEquals(List.of("1 SUSPENDED INPUT until " + due, "2 FINISHED"), briefs(node.history(asking)));
        assertEquals(List.of("1 SUSPENDED MESSAGE until " + due, "2 SUSPENDED MESSAGE until " + due, "3 FINISHED"),
                briefs(node.history(mailbox)));
        assertEquals(List.of("1 SUSPENDED", "2 CANCELLED failure its deadline, " + due + ", passed: cancelled by a"
                + " worker"), briefs(node.history(late)));
        for (String id : List.of(sleeping, asking, mailbox, late)) {
            assertRanOn(node.history(id), "node-a");
        }
        assertEquals(clock.instant(), node.history(sleeping).get(1).started());
    }

    // ---------------------------------------------------------------- failures, retries, cancels

    @Test
    void aRunThatFailsAndIsRetriedLeavesAnEntryWithItsFailureAndTheRunThatSucceedsAnother() {
        Sessions node = node().keepFinished(true).retry(RetryPolicy.attempts(3).backoff(Duration.ofMinutes(1), 1,
                Duration.ofMinutes(1))).build();
        String id = node.start(new Flaky(2, Flaky.INPUT, false), null).id();
        assertThrows(SessionRetryingException.class, () -> node.resume(id, "x"));
        clock.advance(Duration.ofMinutes(1));
        assertThrows(SessionRetryingException.class, () -> node.runDue(List.of()));
        clock.advance(Duration.ofMinutes(1));
        assertEquals(id, node.runDue(List.of()));
        assertEquals(List.of("1 SUSPENDED", "1 SUSPENDED RETRY until " + T0.plus(Duration.ofMinutes(1))
                + " failure java.lang.IllegalStateException: attempt 1", "1 SUSPENDED RETRY until "
                + T0.plus(Duration.ofMinutes(2)) + " failure java.lang.IllegalStateException: attempt 2",
                "2 FINISHED"), briefs(node.history(id)));
        assertTrue(node.history(id).get(1).failure().contains("\tat "), "the whole stack trace, as the row stores it");
        assertRanOn(node.history(id), "node-a");
    }

    @Test
    void aFailedStepItsRetryByHandAndACancelEachLeaveTheirEntry() {
        Sessions node = node().build();
        String id = node.start(new Cleanup(false), null).id();
        assertThrows(SessionFailedException.class, () -> node.resume(id, "boom"));
        assertThrows(SessionFailedException.class, () -> node.retry(id));
        node.cancel(id);
        assertEquals(List.of("1 SUSPENDED", "2 FAILED failure java.lang.IllegalStateException: boom",
                "2 FAILED failure java.lang.IllegalStateException: boom", "3 CANCELLED"), briefs(node.history(id)));
        assertRanOn(node.history(id), "node-a");
        String noFrames = "failed-first";
        assertThrows(SessionFailedException.class, () -> node.start(noFrames, new Ledger(3), "boom"));
        node.cancel(noFrames);
        List<SessionHistoryEntry> closed = node.history(noFrames);
        assertEquals(List.of("1 FAILED failure java.lang.IllegalStateException: the body refused input boom at step 1",
                "2 CANCELLED"), briefs(closed));
        assertEquals(suite().engine(), closed.get(0).engine());
        assertNull(closed.get(1).engine(), "a session with no frames is cancelled without running code");
    }

    @Test
    void aCancelWhoseFinallyThrowsLeavesAnEntryWithWhatItThrew() {
        Sessions node = node().build();
        String id = node.start(new Cleanup(true), null).id();
        node.cancel(id);
        assertEquals(List.of("1 SUSPENDED", "2 CANCELLED failure java.lang.IllegalStateException: the cleanup failed"),
                briefs(node.history(id)));
    }

    // ---------------------------------------------------------------- children

    @Test
    void aChildsFirstStepAndItsCancelWithItsParentAreStepsOfTheirOwn() {
        Sessions node = node().build();
        String parent = node.start("family", new Fanout(List.of("wait:a", "now:b"), false), null).id();
        assertEquals(List.of("1 SUSPENDED MESSAGE"), briefs(node.history(parent)));
        assertEquals(List.of("1 SUSPENDED"), briefs(node.history("family-0")));
        assertEquals(List.of("1 FINISHED"), briefs(node.history("family-1")), "finished in its first step, not kept");
        assertTrue(node.status("family-1").isEmpty());
        clock.advance(Duration.ofMinutes(1));
        node.cancel(parent);
        assertEquals(List.of("1 SUSPENDED MESSAGE", "2 CANCELLED"), briefs(node.history(parent)));
        assertEquals(List.of("1 SUSPENDED", "2 CANCELLED"), briefs(node.history("family-0")));
        for (String id : List.of(parent, "family-0", "family-1")) {
            assertRanOn(node.history(id), "node-a");
        }
        assertEquals(clock.instant(), node.history("family-0").get(1).started());
    }

    @Test
    void aChildCancelledByItsParentsStepIsAStepOfItsOwn() {
        Sessions node = node().build();
        String parent = node.start("first", new Fanout(List.of("wait:a", "now:b"), true), null).id();
        clock.advance(Duration.ofMinutes(1));
        assertEquals(parent, node.runDue(List.of()), "the parent takes the outcome of first-1 and cancels first-0");
        assertEquals(List.of("1 SUSPENDED MESSAGE", "2 FINISHED"), briefs(node.history(parent)));
        assertEquals(List.of("1 SUSPENDED", "2 CANCELLED"), briefs(node.history("first-0")));
        assertEquals(clock.instant(), node.history("first-0").get(1).started());
        assertRanOn(node.history("first-0"), "node-a");
    }

    // ---------------------------------------------------------------- resident steps

    @Test
    void residentStepsLeaveTheirEntriesWithOrWithoutWritesOfTheirOwnAndToTheirEnd() {
        Sessions resident = node().keepResident(10).build();
        String quiet = resident.start(new Turnstile(), "a").id();
        String writing = resident.start(new Ledger(3), "a").id();
        for (String input : List.of("b", "c")) {
            resident.<String, String>resume(quiet, input);
            resident.<String, String>resume(writing, input);
        }
        assertEquals(List.of("1 SUSPENDED", "2 SUSPENDED", "3 SUSPENDED"), briefs(resident.history(quiet)));
        assertEquals(List.of("1 SUSPENDED", "2 SUSPENDED", "3 FINISHED"), briefs(resident.history(writing)));
        assertEquals(List.of("1:a", "2:b", "3:c"), suite().ledger(writing));
    }

    @Test
    void aResidentStepThatFindsTheSessionMovedOnLeavesOnlyTheEntryOfTheStepThatRanFromTheStore() {
        Sessions resident = node("node-a").keepResident(10).build();
        Sessions other = node("node-b").build();
        for (dev.weft.AsymRunnable<String, String> body : List.<dev.weft.AsymRunnable<String, String>>of(
                new Turnstile(), new Ledger(9))) {
            String id = resident.start(body, "a").id();
            resident.<String, String>resume(id, "b");
            other.<String, String>resume(id, "c");
            resident.<String, String>resume(id, "d");
            List<SessionHistoryEntry> entries = resident.history(id);
            assertEquals(List.of("1 SUSPENDED", "2 SUSPENDED", "3 SUSPENDED", "4 SUSPENDED"), briefs(entries));
            assertEquals(List.of("node-a", "node-a", "node-b", "node-a"), entries.stream()
                    .map(SessionHistoryEntry::node).toList());
        }
    }

    @Test
    void aResidentStepWhoseBodyThrowsLeavesOnlyTheEntryOfTheFailureStoredFromTheStore() {
        Sessions resident = node().keepResident(10).build();
        String id = resident.start(new Ledger(3), "a").id();
        assertThrows(SessionFailedException.class, () -> resident.resume(id, "boom"));
        assertEquals(List.of("1 SUSPENDED", "2 FAILED failure java.lang.IllegalStateException: the body refused input"
                + " boom at step 2"), briefs(resident.history(id)));
    }

    // ---------------------------------------------------------------- steps rolled back

    @Test
    void aStepRefusedOrWhoseStateCannotBeStoredLeavesNoEntry() {
        Sessions node = node().build();
        String id = node.start("taken", new Ledger(5), "a").id();
        assertThrows(SessionConflictException.class, () -> node.start("taken", new Ledger(5), "again"));
        assertThrows(SessionConflictException.class, () -> node.resume(id, 7, "b"));
        assertThrows(SessionException.class, () -> node.resume(id, "hold"));
        assertEquals(List.of("1 SUSPENDED"), briefs(node.history(id)));
        assertEquals(List.of("1:a"), suite().ledger(id));
        String sleeping = node.start(new Alarm(), Duration.ofHours(1)).id();
        assertThrows(SessionWaitingException.class, () -> node.resume(sleeping, "wake up"));
        assertNull(node.runDue(List.of()), "not due");
        assertEquals(List.of("1 SUSPENDED SLEEP until " + T0.plus(Duration.ofHours(1))),
                briefs(node.history(sleeping)));
    }

    @Test
    void aStepWhoseUpdateTheDatabaseRefusesLeavesNoEntryWithOrWithoutWritesOfItsOwn() throws SQLException {
        for (boolean resident : List.of(false, true)) {
            Sessions node = node().keepResident(resident ? 10 : 0).build();
            String quiet = node.start(new Turnstile(), "a").id();
            String writing = node.start(new Ledger(5), "a").id();
            node.<String, String>resume(quiet, "b");
            node.<String, String>resume(writing, "b");
            refuseStep3(true);
            try {
                for (String id : List.of(quiet, writing)) {
                    SessionException refused = assertThrows(SessionException.class, () -> node.resume(id, 2, "c"));
                    assertTrue(refused.getMessage().contains("step 3 refused"), refused.getMessage());
                    assertEquals(List.of("1 SUSPENDED", "2 SUSPENDED"), briefs(node.history(id)));
                }
            } finally {
                refuseStep3(false);
            }
            node.<String, String>resume(quiet, 2, "c");
            node.<String, String>resume(writing, 2, "c");
            for (String id : List.of(quiet, writing)) {
                assertEquals(List.of("1 SUSPENDED", "2 SUSPENDED", "3 SUSPENDED"), briefs(node.history(id)));
            }
            assertEquals(List.of("1:a", "2:b", "3:c"), suite().ledger(writing));
        }
    }

    /** Makes the database refuse, or again take, every UPDATE of a session's row to version 3. */
    private void refuseStep3(boolean refuse) throws SQLException {
        if (postgres()) {
            execute(refuse ? List.of("CREATE FUNCTION refuse_step_3() RETURNS trigger AS $$ BEGIN IF NEW.version = 3"
                    + " THEN RAISE EXCEPTION 'step 3 refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
                    "CREATE TRIGGER refuse_step_3 BEFORE UPDATE ON weft_sessions FOR EACH ROW EXECUTE FUNCTION"
                            + " refuse_step_3()")
                    : List.of("DROP TRIGGER refuse_step_3 ON weft_sessions", "DROP FUNCTION refuse_step_3()"));
        } else {
            execute(refuse ? List.of("CREATE TRIGGER refuse_step_3 BEFORE UPDATE ON weft_sessions WHEN NEW.version = 3"
                    + " BEGIN SELECT RAISE(ABORT, 'step 3 refused'); END") : List.of("DROP TRIGGER refuse_step_3"));
        }
    }

    // ---------------------------------------------------------------- retention and removal

    @Test
    void entriesOlderThanTheRetentionArePrunedAfterALaterCommit() {
        Sessions node = suite().builder().clock(clock).nodeName("node-a").keepHistory(Duration.ofHours(1)).build();
        String old = node.start(new Turnstile(), "a").id();
        node.<String, String>resume(old, "b");
        String young = node.start(new Turnstile(), "a").id();
        clock.advance(Duration.ofMinutes(59));
        node.<String, String>resume(young, "b");
        assertEquals(List.of(2, 2), List.of(node.history(old).size(), node.history(young).size()),
                "none older than an hour yet");
        clock.advance(Duration.ofMinutes(2));
        node.<String, String>resume(young, "c");
        assertEquals(List.of(), node.history(old), "begun 61 minutes ago");
        assertEquals(List.of("2 SUSPENDED", "3 SUSPENDED"), briefs(node.history(young)));
        assertEquals(SessionStatus.SUSPENDED, node.status(old).orElseThrow().status(), "the session itself stays");
    }

    @Test
    void entriesArePrunedInTheOrderWrittenAndOneFromAClockAheadHoldsNoOlderOneBack() {
        MutableClock ahead = new MutableClock(T0.plus(Duration.ofHours(2)));
        Sessions fast = suite().builder().clock(ahead).nodeName("node-ahead").keepHistory(Duration.ofHours(1)).build();
        Sessions node = suite().builder().clock(clock).nodeName("node-a").keepHistory(Duration.ofHours(1)).build();
        String early = fast.start(new Turnstile(), "a").id();
        String old = node.start(new Turnstile(), "a").id();
        node.<String, String>resume(old, "b");
        String young = node.start(new Turnstile(), "a").id();
        clock.advance(Duration.ofMinutes(61));
        node.<String, String>resume(young, "b");
        assertEquals(List.of(), node.history(old), "begun 61 minutes ago, written after an entry begun later");
        assertEquals(List.of("1 SUSPENDED"), briefs(node.history(early)), "begun an hour from now by node-a's clock");
        assertEquals(List.of("2 SUSPENDED"), briefs(node.history(young)), "its first step begun 61 minutes ago");
    }

    @Test
    void removeDeletesTheSessionsHistoryAndThatOfOneThatFinished() {
        Sessions node = node().build();
        String removed = node.start(new Turnstile(), "a").id();
        String kept = node.start(new Turnstile(), "a").id();
        String finished = node.start(new Ledger(1), "only").id();
        assertEquals(List.of("1 FINISHED"), briefs(node.history(finished)));
        assertTrue(node.remove(removed));
        assertEquals(List.of(), node.history(removed));
        assertEquals(List.of("1 SUSPENDED"), briefs(node.history(kept)));
        assertFalse(node.remove(finished), "no session");
        assertEquals(List.of(), node.history(finished), "but its history is removed");
        Sessions withoutHistory = suite().builder().build();
        withoutHistory.remove(kept);
        assertEquals(List.of(), node.history(kept), "whichever node removes it");
    }

    // ---------------------------------------------------------------- older databases, the command

    @Test
    void aDatabaseFromBeforeHistoryGetsItsTableWhenOpenedAndItsSessionsGoOn() throws SQLException {
        String id = suite().sessions.start(new Ledger(4), "a").id();
        execute("DROP TABLE weft_history");
        suite().store.close();
        suite().store = suite().reopen();
        Sessions reopened = node().build();
        assertEquals("after step 2", reopened.<String, String>resume(id, "b").output());
        assertEquals(List.of("2 SUSPENDED"), briefs(reopened.history(id)));
        assertTrue(reopened.remove(id));
        assertEquals(List.of(), reopened.history(id));
    }

    @Test
    void theCommandPrintsASessionsHistoryOneLinePerStep() {
        Sessions node = node("edge\tnode").build();
        String id = node.start("line\nbreak", new Cleanup(false), null).id();
        clock.advance(Duration.ofMinutes(1));
        assertThrows(SessionFailedException.class, () -> node.resume(id, "boom"));
        List<String> lines = command("history", id).lines().toList();
        assertEquals("VERSION\tSTARTED\tNODE\tMICROS\tENGINE\tSTATUS\tWAITING\tFAILURE", lines.get(0));
        assertEquals(3, lines.size(), lines.toString());
        assertLine("1\t" + T0 + "\tedge?node\t*\t" + suite().engine() + "\tSUSPENDED\t-\t-", lines.get(1));
        assertLine("2\t" + T0.plus(Duration.ofMinutes(1)) + "\tedge?node\t*\t" + suite().engine()
                + "\tFAILED\t-\tjava.lang.IllegalStateException: boom", lines.get(2));
        String waits = node.start(new Alarm(), Duration.ofMinutes(5)).id();
        assertLine("1\t" + clock.instant() + "\tedge?node\t*\t" + suite().engine() + "\tSUSPENDED\tSLEEP until "
                + clock.instant().plus(Duration.ofMinutes(5)) + "\t-", command("history", waits).lines().toList()
                .get(1));
        assertEquals(1, command("history", "no-such-session").lines().count(), "the heading only");
        assertEquals(2, commandStatus("history"));
        assertEquals(2, commandStatus("history", id, "--status", "SUSPENDED"));
    }

    /** Checks {@code line} against {@code expected}, whose field {@code *} is any number of microseconds. */
    private static void assertLine(String expected, String line) {
        String[] want = expected.split("\t", -1);
        String[] got = line.split("\t", -1);
        assertEquals(want.length, got.length, line);
        for (int i = 0; i < want.length; i++) {
            if (want[i].equals("*")) {
                assertTrue(Long.parseLong(got[i]) >= 0, line);
            } else {
                assertEquals(want[i], got[i], line);
            }
        }
    }

    private String command(String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        assertEquals(0, runCommand(out, err, args), err.toString());
        return out.toString();
    }

    private int commandStatus(String... args) {
        return runCommand(new java.io.ByteArrayOutputStream(), new java.io.ByteArrayOutputStream(), args);
    }

    private int runCommand(java.io.ByteArrayOutputStream out, java.io.ByteArrayOutputStream err, String... args) {
        List<String> all = new ArrayList<>(suite().commandStore());
        all.addAll(List.of(args));
        return SessionsCommand.run(all.toArray(String[]::new), new java.io.PrintStream(out, true),
                new java.io.PrintStream(err, true), getClass().getClassLoader());
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Each entry as {@code VERSION STATUS}, then what it waits for ({@code KIND} and
     * {@code until INSTANT}) and the first line of its failure ({@code failure LINE}), if any.
     */
    private static List<String> briefs(List<SessionHistoryEntry> entries) {
        return entries.stream().map(entry -> entry.version() + " " + entry.status()
                + (entry.waiting() == null ? "" : " " + entry.waiting().kind() + (entry.waiting().until() == null ? ""
                        : " until " + entry.waiting().until()))
                + (entry.failure() == null ? "" : " failure " + entry.failure().lines().findFirst().orElse("")))
                .toList();
    }

    /** Checks that every entry ran on {@code node}, on this suite's engine, for no negative time. */
    private void assertRanOn(List<SessionHistoryEntry> entries, String node) {
        Engine engine = suite().engine();
        assertFalse(entries.isEmpty());
        for (SessionHistoryEntry entry : entries) {
            assertEquals(node, entry.node(), entry.toString());
            assertEquals(engine, entry.engine(), entry.toString());
            assertFalse(entry.duration().isNegative(), entry.toString());
        }
    }

    /** How many rows the history table holds, of every session. */
    private long historyRows() throws SQLException {
        try (Connection connection = suite().connect(); Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM weft_history")) {
            count.next();
            return count.getLong(1);
        }
    }

    private boolean postgres() {
        return suite() instanceof PostgresSessionStoreContract;
    }

    private void execute(String sql) throws SQLException {
        execute(List.of(sql));
    }

    private void execute(List<String> statements) throws SQLException {
        try (Connection connection = suite().connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
