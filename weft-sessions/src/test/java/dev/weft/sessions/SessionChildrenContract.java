package dev.weft.sessions;

import static dev.weft.sessions.SessionWaitsContract.POLL;
import static dev.weft.sessions.SessionWaitsContract.T0;
import static dev.weft.sessions.SessionWaitsContract.awaitFinished;
import static dev.weft.sessions.SessionWaitsContract.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Cleanup;
import dev.weft.sessions.flows.Fanout;
import dev.weft.sessions.flows.Gate;
import dev.weft.sessions.flows.Part;
import dev.weft.sessions.flows.Questionnaire;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Child sessions and deadlines on every store and engine: run as a nested class of
 * {@link SessionStoreContract} ({@code ChildSessions}), on its store. A {@link Fanout} parent
 * starts {@link Part} children with ids {@code PARENT-0}, {@code PARENT-1}, ..., and writes each
 * outcome it takes to the ledger; the parts write {@code "finally"} as they end.
 */
abstract class SessionChildrenContract {

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private Sessions.Builder node() {
        return suite().builder().pollEvery(POLL);
    }

    private List<String> ledger(String id) {
        return suite().ledger(id);
    }

    /** The parent's ledger rows that record an outcome, sorted, without their step. */
    private List<String> outcomes(String parent) {
        return ledger(parent).stream().map(row -> row.substring(row.indexOf(':') + 1))
                .filter(row -> row.startsWith("outcome ")).sorted().toList();
    }

    // ---------------------------------------------------------------- fan-out and fan-in

    @Test
    void aParentFansOutToChildrenAndTakesEveryOutcomeOnce() {
        try (Sessions node = node().workers(2).keepFinished(true).build()) {
            String id = node.start("fan", new Fanout(List.of("sleep:a", "sleep:b", "sleep:c"), false), null).id();
            for (int i = 0; i < 3; i++) {
                SessionInfo child = node.status(id + "-" + i).orElseThrow();
                assertEquals(id, child.parent());
                assertNull(child.deadline());
            }
            assertEquals(List.of("fan-0", "fan-1", "fan-2"), SessionListingContract.all(node, SessionQuery.all()
                    .parent(id).limit(2), null), "its children, listed by parent, two a page");
            assertEquals(List.of("fan-0", "fan-1", "fan-2"), listedByCommand("--parent", id), "and by the command");
            awaitFinished(node, id);
            assertEquals(List.of("outcome fan-0 FINISHED done a", "outcome fan-1 FINISHED done b",
                    "outcome fan-2 FINISHED done c"), outcomes(id));
            String all = (String) node.lastOutput(id).orElseThrow();
            assertTrue(all.startsWith("all [") && all.contains("done a") && all.contains("done b")
                    && all.contains("done c"), all);
            for (int i = 0; i < 3; i++) {
                assertEquals(SessionStatus.FINISHED, node.status(id + "-" + i).orElseThrow().status());
                assertEquals(List.of("2:finally"), ledger(id + "-" + i));
            }
            assertNull(node.status(id).orElseThrow().parent());
            assertEquals(0, messages(id), "every outcome consumed");
        }
    }

    @Test
    void childrenThatFinishBeforeTheParentWaitsLeaveTheirOutcomesInItsInboxKeptOrNot() {
        Sessions starter = node().build(); // finished sessions not kept: the children are never stored
        String id = starter.start("early", new Fanout(List.of("now:a", "now:b"), false), null).id();
        assertTrue(starter.status(id + "-0").isEmpty() && starter.status(id + "-1").isEmpty());
        assertEquals(2, messages(id), "both outcomes wait in the parent's inbox");
        assertEquals(List.of("1:finally"), ledger(id + "-0"), "the child's first step ran in the parent's");
        try (Sessions worker = node().workers(1).keepFinished(true).build()) {
            awaitFinished(worker, id);
            assertEquals("all [done a, done b]", worker.lastOutput(id).orElseThrow());
        }
        assertEquals(List.of("outcome early-0 FINISHED done a", "outcome early-1 FINISHED done b"), outcomes(id));
    }

    @Test
    void theFirstOutcomeWinsAndTheParentCancelsTheOtherChildrenInItsStep() {
        try (Sessions node = node().workers(1).keepFinished(true).build()) {
            String id = node.start("race", new Fanout(List.of("wait:a", "now:b", "wait:c"), true), null).id();
            awaitFinished(node, id);
            assertEquals("first done b", node.lastOutput(id).orElseThrow());
            assertEquals(List.of("outcome race-1 FINISHED done b"), outcomes(id));
            for (String loser : List.of(id + "-0", id + "-2")) {
                SessionInfo cancelled = node.status(loser).orElseThrow();
                assertEquals(SessionStatus.CANCELLED, cancelled.status());
                assertNull(cancelled.failure());
                assertEquals(List.of("2:finally"), ledger(loser), "its finally ran as it was closed");
            }
            assertEquals(0, messages(id), "no outcome of a child the parent cancelled itself");
        }
    }

    @Test
    void oneChildThatFailsGivesItsParentAFailedOutcomeWithItsFailure() {
        try (Sessions node = node().workers(1).keepFinished(true).build()) {
            String id = node.start("one", new Fanout(List.of("fail:x"), false), null).id();
            awaitFinished(node, id);
            assertEquals(List.of("outcome one-0 FAILED java.lang.IllegalStateException: part x failed"),
                    outcomes(id));
            assertEquals("all [null]", node.lastOutput(id).orElseThrow());
            SessionInfo child = node.status(id + "-0").orElseThrow();
            assertEquals(SessionStatus.FAILED, child.status());
            assertTrue(child.failure().startsWith("java.lang.IllegalStateException: part x failed"), child.failure());
        }
    }

    @Test
    void aChildThatFailsInItsFirstStepIsStoredFailedAndItsOutcomeWaits() {
        Sessions node = node().build();
        String id = node.start("failnow", new Fanout(List.of("failnow:y"), false), null).id();
        assertEquals(SessionStatus.FAILED, node.status(id + "-0").orElseThrow().status());
        assertEquals(SessionStatus.SUSPENDED, node.status(id).orElseThrow().status(), "the parent ran on");
        assertEquals(1, messages(id));
    }

    @Test
    void aFanOutAndFanInSurviveARestartOfTheNodes() {
        MutableClock clock = new MutableClock(T0);
        String id;
        try (Sessions before = node().clock(clock).workers(1).build()) {
            id = before.start("restart", new Fanout(List.of("fanout:sleep:a", "sleep:b"), false), null).id();
        }
        suite().store.close();
        suite().store = suite().reopen();
        clock.advance(Duration.ofHours(1));
        try (Sessions after = node().clock(clock).workers(1).keepFinished(true).build()) {
            awaitFinished(after, id);
            assertTrue(after.lastOutput(id).orElseThrow().toString().contains("done b"));
            assertEquals(List.of("outcome restart-0 FINISHED all [done a]", "outcome restart-1 FINISHED done b"),
                    outcomes(id));
            assertEquals(List.of("outcome restart-0-0 FINISHED done a"), outcomes(id + "-0"), "a grandchild's too");
        }
    }

    // ---------------------------------------------------------------- cancelling

    @Test
    void cancellingAParentCancelsItsChildrenAndTheirChildrenFirstAndTheirFinallyBlocksRun() throws SQLException {
        Sessions node = node().build();
        String id = node.start("tree", new Fanout(List.of("wait:a", "fanout:wait:b", "now:c"), false), null).id();
        assertEquals(1, messages(id), "c's outcome, waiting");
        node.cancel(id);
        SessionInfo parent = node.status(id).orElseThrow();
        assertEquals(SessionStatus.CANCELLED, parent.status());
        for (String child : List.of(id + "-0", id + "-1", id + "-1-0")) {
            assertEquals(SessionStatus.CANCELLED, node.status(child).orElseThrow().status(), child);
        }
        assertEquals(List.of("2:finally"), ledger(id + "-0"));
        assertEquals(List.of("2:finally"), ledger(id + "-1-0"));
        assertEquals(0, messages(id) + messages(id + "-1"), "the inboxes of cancelled sessions are deleted");
        assertEquals("session " + id + "-0: it has been cancelled already: there is nothing to cancel",
                assertThrows(SessionException.class, () -> node.cancel(id + "-0")).getMessage());
    }

    @Test
    void onPostgresACancelWaitsForAChildsRunningStepAndTheOutcomeGoesWithTheParentsInbox() throws Exception {
        if (!suite().rowLocks()) {
            return; // SQLite: a running step holds the file's write lock, which every cancel waits for anyway
        }
        Gate.reset();
        Sessions node = node().build();
        String id = node.start("busy", new Fanout(List.of("gate:a"), false), null).id();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<SessionStep<String>> child = threads.submit(() -> node.<String, String>resume(id + "-0", "go"));
            Gate.awaitArrival();
            Future<?> cancel = threads.submit(() -> node.cancel(id));
            Thread.sleep(200);
            assertTrue(!cancel.isDone(), "the cancel waits for the child's step");
            Gate.open();
            assertEquals("done a", child.get().output());
            cancel.get();
        } finally {
            Gate.open();
            threads.shutdownNow();
        }
        assertEquals(SessionStatus.CANCELLED, node.status(id).orElseThrow().status());
        assertTrue(node.status(id + "-0").isEmpty(), "the child finished first");
        assertEquals(0, messages(id), "its outcome deleted with the cancelled parent's inbox");
    }

    @Test
    void aChildCancelledByItselfGivesItsParentACancelledOutcome() {
        try (Sessions node = node().workers(1).keepFinished(true).build()) {
            String id = node.start("alone", new Fanout(List.of("wait:a"), false), null).id();
            node.cancel(id + "-0");
            awaitFinished(node, id);
            assertEquals(List.of("outcome alone-0 CANCELLED null"), outcomes(id));
        }
    }

    @Test
    void aCancelThatAChildRefusesChangesNothingAndACancelAfterCompletesIt() throws SQLException {
        Sessions node = node().build();
        String id = node.start("refusing", new Fanout(List.of("wait:a", "wait:b"), false), null).id();
        String refused = id + "-1";
        Map<String, Object> child = suite().storedRow(refused);
        Map<String, Object> parent = suite().storedRow(id);
        suite().setColumn(refused, "build", Builds.fingerprint("another build"));
        SessionRefusedException refusal = assertThrows(SessionRefusedException.class, () -> node.cancel(id));
        assertEquals(refused, refusal.sessionId());
        assertTrue(StoredRows.same(parent, suite().storedRow(id)), "the parent left as it was");
        assertEquals(SessionStatus.SUSPENDED, node.status(id + "-0").orElseThrow().status(),
                "the child closed before the refusal is rolled back with the rest");
        assertEquals(List.of(), ledger(id + "-0"), "its finally's write too");
        suite().putRow(refused, child);
        node.cancel(id);
        for (String cancelled : List.of(id, id + "-0", refused)) {
            assertEquals(SessionStatus.CANCELLED, node.status(cancelled).orElseThrow().status());
        }
        assertEquals(List.of("2:finally"), ledger(refused));
    }

    @Test
    void anOutcomeForAParentThatIsGoneIsDropped() {
        Sessions node = node().build();
        String id = node.start("orphan", new Fanout(List.of("wait:a"), false), null).id();
        assertTrue(node.remove(id));
        assertEquals("done a x", node.<String, String>resume(id + "-0", "x").output(), "the child ends as ever");
        assertEquals(0, messages(id));
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void aChildThatCannotBeStartedIsRefusedToTheBodyAndNothingOfItIsStored() {
        Sessions node = node().build();
        node.start("taken-1", new Questionnaire(), null);
        String id = node.start("taken", new Fanout(List.of("wait:a", "wait:b", "unstorable"), false), null).id();
        List<String> rows = ledger(id).stream().sorted().toList();
        assertEquals(3, rows.size(), rows::toString);
        assertTrue(rows.get(0).startsWith("1:refused cannot start a session with a dev.weft.sessions.flows.Fanout$"),
                rows.get(0));
        assertTrue(rows.get(1).startsWith("1:refused session taken-1: "), rows.get(1));
        assertEquals("1:started taken-0", rows.get(2));
        assertTrue(node.status("taken-2").isEmpty());
        assertNull(node.status("taken-1").orElseThrow().parent(), "the session that had the id is as it was");
        assertEquals(SessionStatus.SUSPENDED, node.status(id).orElseThrow().status());
    }

    // ---------------------------------------------------------------- deadlines

    @Test
    void aSessionPastItsDeadlineIsCancelledByAWorkerWithItsChildren() {
        MutableClock clock = new MutableClock(T0);
        Sessions starter = node().clock(clock).deadline(Duration.ofHours(1)).build();
        String id = starter.start("late", new Fanout(List.of("wait:a"), false), null).id();
        SessionInfo started = starter.status(id).orElseThrow();
        assertEquals(T0.plus(Duration.ofHours(1)), started.deadline());
        assertNull(starter.status(id + "-0").orElseThrow().deadline(), "a child ends with its parent");
        clock.advance(Duration.ofMinutes(61));
        try (Sessions worker = node().clock(clock).workers(1).build()) {
            awaitTrue(() -> worker.status(id).orElseThrow().status() == SessionStatus.CANCELLED, () -> "session "
                    + id + " cancelled: it is " + worker.status(id).orElseThrow());
        }
        SessionInfo cancelled = starter.status(id).orElseThrow();
        assertEquals("its deadline, 2026-01-01T01:00:00Z, passed: cancelled by a worker", cancelled.failure());
        assertEquals(SessionStatus.CANCELLED, starter.status(id + "-0").orElseThrow().status());
        assertEquals(List.of("2:finally"), ledger(id + "-0"));
    }

    @Test
    void aResumeAfterTheDeadlineIsRefusedUntilAWorkerCancelsIt() throws SQLException {
        MutableClock clock = new MutableClock(T0);
        Sessions node = node().clock(clock).build();
        String id = node.start("due", new Questionnaire(), null, Duration.ofMinutes(5)).id();
        assertEquals("Where do you live, Ada?", node.<String, String>resume(id, "Ada").output());
        clock.advance(Duration.ofMinutes(5));
        Map<String, Object> before = suite().storedRow(id);
        SessionException refused = assertThrows(SessionException.class, () -> node.resume(id, "London"));
        assertEquals("session " + id + ": its deadline, 2026-01-01T00:05:00Z, has passed, and a worker cancels it;"
                + " nothing ran", refused.getMessage());
        assertTrue(StoredRows.same(before, suite().storedRow(id)), "left as it was");
        try (Sessions worker = node().clock(clock).workers(1).build()) {
            awaitTrue(() -> worker.status(id).orElseThrow().status() == SessionStatus.CANCELLED, () -> "cancelled");
        }
        assertEquals(3, node.status(id).orElseThrow().version(), "closed in a step of its own");
    }

    @Test
    void aFailedSessionPastItsDeadlineIsNotRunAgainAndAWorkerClosesIt() {
        MutableClock clock = new MutableClock(T0);
        Sessions node = node().clock(clock).build();
        String id = node.start("failing", new Cleanup(false), null, Duration.ofMinutes(1)).id();
        assertThrows(SessionFailedException.class, () -> node.resume(id, "boom"));
        clock.advance(Duration.ofMinutes(2));
        SessionException refused = assertThrows(SessionException.class, () -> node.retry(id));
        assertEquals("session failing: its deadline, 2026-01-01T00:01:00Z, has passed, and a worker cancels it;"
                + " nothing ran", refused.getMessage());
        try (Sessions worker = node().clock(clock).workers(1).build()) {
            awaitTrue(() -> worker.status(id).orElseThrow().status() == SessionStatus.CANCELLED, () -> "cancelled");
        }
        assertEquals("its deadline, 2026-01-01T00:01:00Z, passed: cancelled by a worker",
                node.status(id).orElseThrow().failure());
        assertEquals(List.of("3:cleanup"), ledger(id), "its frames closed: the finally ran, its write committed");
    }

    @Test
    void aDeadlineThatIsNotAheadIsRefusedAndNothingIsStored() {
        Sessions node = node().build();
        IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                () -> node.start("never", new Questionnaire(), null, Duration.ofSeconds(-1)));
        assertEquals("session never: a deadline must be more than zero from its start, not PT-1S; nothing ran or was"
                + " stored", past.getMessage());
        assertThrows(IllegalArgumentException.class, () -> node.start("never", new Questionnaire(), null,
                Duration.ZERO));
        assertTrue(node.status("never").isEmpty());
        assertThrows(IllegalArgumentException.class, () -> node().deadline(Duration.ZERO));
    }

    // ---------------------------------------------------------------- sealed rows

    @Test
    void sealedRowsWithAParentOrADeadlineAreSealedAsWrs4AndTheirColumnsChangedAreRefused() throws SQLException {
        Sessions sealing = node().sealWith(SessionStoreContract.key(1)).build();
        String id = sealing.start("sealed", new Fanout(List.of("wait:a"), false), null, Duration.ofDays(1)).id();
        String child = id + "-0";
        String plain = sealing.start(new Questionnaire(), null).id();
        assertEquals(RowSeal.MAGIC_FAMILY, ByteBuffer.wrap((byte[]) suite().storedRow(child).get("seal")).getInt());
        assertEquals(RowSeal.MAGIC_FAMILY, ByteBuffer.wrap((byte[]) suite().storedRow(id).get("seal")).getInt());
        assertEquals(RowSeal.MAGIC, ByteBuffer.wrap((byte[]) suite().storedRow(plain).get("seal")).getInt(),
                "a row with neither is sealed as older nodes read it");
        assertTampered(sealing, child, "parent_id", plain, "column parent_id differs from what was sealed: changed in"
                + " the store, or taken from another session or another version of this one");
        assertTampered(sealing, id, "deadline_at", 1L, "column deadline_at differs from what was sealed");
        assertTampered(sealing, plain, "parent_id", id, "column parent_id differs from what was sealed: changed in"
                + " the store (the row was sealed with no parent and no deadline)");
        assertTampered(sealing, plain, "deadline_at", 1L, "column deadline_at differs from what was sealed");
        assertEquals("done a London", sealing.<String, String>resume(child, "London").output());
    }

    private void assertTampered(Sessions node, String id, String column, Object value, String reason)
            throws SQLException {
        Map<String, Object> original = suite().storedRow(id);
        suite().setColumn(id, column, value);
        Map<String, Object> changed = suite().storedRow(id);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> node.status(id));
        assertTrue(refused.reason().startsWith(reason), refused.reason());
        assertThrows(SessionRefusedException.class, () -> node.cancel(id));
        assertTrue(StoredRows.same(changed, suite().storedRow(id)), "left as it was");
        suite().putRow(id, original);
    }

    /** How many messages session {@code id}'s inbox holds. */
    private int messages(String id) {
        try (Connection connection = suite().connect(); PreparedStatement select = connection.prepareStatement(
                "SELECT COUNT(*) FROM weft_messages WHERE session_id = ?")) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The ids {@link SessionsCommand}'s {@code list} prints with {@code filter}, in order. */
    private List<String> listedByCommand(String... filter) {
        List<String> args = new java.util.ArrayList<>(suite().commandStore());
        args.add("list");
        args.addAll(List.of(filter));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int exit = SessionsCommand.run(args.toArray(String[]::new), new java.io.PrintStream(out, true,
                java.nio.charset.StandardCharsets.UTF_8), new java.io.PrintStream(err, true,
                java.nio.charset.StandardCharsets.UTF_8), getClass().getClassLoader());
        assertEquals(0, exit, err.toString(java.nio.charset.StandardCharsets.UTF_8));
        return out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().skip(1)
                .map(line -> line.substring(0, line.indexOf('\t'))).toList();
    }
}
