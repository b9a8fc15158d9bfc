package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Alarm;
import dev.weft.sessions.flows.Deadline;
import dev.weft.sessions.flows.Gate;
import dev.weft.sessions.flows.Mailbox;
import dev.weft.sessions.flows.Recurring;
import dev.weft.sessions.flows.Turnstile;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Waits and workers on every store and engine: run as a nested class of {@link SessionStoreContract}
 * ({@code Waits}), on its store. Workers are real threads on the real clock where the test needs
 * them to fire, with sleeps of milliseconds; where it needs time to stand still or jump, the
 * nodes share a {@link MutableClock}. No test asserts how long anything took.
 */
abstract class SessionWaitsContract {

    /** How often the test's workers poll: short, so that a clock the test moves is seen soon. */
    static final Duration POLL = Duration.ofMillis(20);
    /** How long a test waits for workers to do what it expects before it fails. */
    static final Duration PATIENCE = Duration.ofMinutes(1);
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private Sessions.Builder node() {
        return suite().builder().pollEvery(POLL);
    }

    // ---------------------------------------------------------------- sleeping

    @Test
    void aSleepingSessionIsResumedByAWorkerWhenDueEveryRoundOnceInOrder() {
        String id;
        try (Sessions node = node().workers(2).build()) {
            id = node.start(new Recurring(4, Duration.ofMillis(30)), null).id();
            awaitGone(node, id);
        }
        assertEquals(List.of("1:start", "2:timer", "3:timer", "4:timer"), suite().ledger(id));
    }

    @Test
    void aNodeWithoutWorkersResumesNothingByItselfAndANodeWithWorkersDoes() throws Exception {
        MutableClock clock = new MutableClock(T0);
        Sessions idle = node().clock(clock).build();
        String id = idle.start(new Recurring(2, Duration.ZERO), null).id();
        TimeUnit.MILLISECONDS.sleep(10 * POLL.toMillis());
        assertEquals(1, idle.status(id).orElseThrow().version(), "nothing resumes it on a node without workers");
        try (Sessions worker = node().clock(clock).workers(1).build()) {
            awaitGone(worker, id);
        }
        assertEquals(List.of("1:start", "2:timer"), suite().ledger(id));
    }

    @Test
    void aSleepSurvivesARestartOfTheNodeThatStoredIt() {
        MutableClock clock = new MutableClock(T0);
        String id;
        try (Sessions before = node().clock(clock).workers(1).build()) {
            id = before.start(new Recurring(2, Duration.ofHours(1)), null).id();
        }
        suite().store.close();
        suite().store = suite().reopen();
        clock.advance(Duration.ofHours(2));
        try (Sessions after = node().clock(clock).workers(1).build()) {
            awaitGone(after, id);
        }
        assertEquals(List.of("1:start", "2:timer"), suite().ledger(id));
    }

    @Test
    void aSleepUntilATimeInThePastWakesAtOnceAndAZeroSleepToo() {
        try (Sessions node = node().workers(1).keepFinished(true).build()) {
            String past = node.start(new Alarm(), Instant.EPOCH).id();
            String zero = node.start(new Alarm(), Duration.ZERO).id();
            for (String id : List.of(past, zero)) {
                awaitFinished(node, id);
                assertEquals("woke at step 2, timed out true, input null", node.lastOutput(id).orElseThrow());
            }
        }
    }

    @Test
    void aResumeOfASleepingSessionIsRefusedSayingUntilWhenAndRunsNothing() throws SQLException {
        MutableClock clock = new MutableClock(T0);
        Sessions node = node().clock(clock).build();
        String id = node.start(new Alarm(), Duration.ofMinutes(5)).id();
        Map<String, Object> before = suite().storedRow(id);
        SessionWaitingException refused = assertThrows(SessionWaitingException.class, () -> node.resume(id, "wake up"));
        assertEquals("session " + id + ": it sleeps until 2026-01-01T00:05:00Z, and only a worker resumes it then; an"
                + " input cannot wake it; nothing ran", refused.getMessage());
        assertTrue(refused.sleeping());
        assertEquals(T0.plus(Duration.ofMinutes(5)), refused.until());
        clock.advance(Duration.ofHours(1));
        assertThrows(SessionWaitingException.class, () -> node.resume(id, 1, "wake up"), "past due, still a sleep");
        assertTrue(StoredRows.same(before, suite().storedRow(id)), "left as it was");
        assertEquals(Long.valueOf(T0.plus(Duration.ofMinutes(5)).toEpochMilli()), before.get("due_at"));
        assertEquals("SLEEP", before.get("wait_kind"));
    }

    @Test
    void aNegativeSleepFailsTheBodyWithItsReason() {
        Sessions node = node().build();
        SessionFailedException failed = assertThrows(SessionFailedException.class,
                () -> node.start("negative", new Alarm(), Duration.ofSeconds(-1)));
        assertTrue(failed.getMessage().contains("session negative: a negative sleep, PT-1S: give zero or more (or a"
                + " time, which may be past)"), failed.getMessage());
        assertEquals(SessionStatus.FAILED, node.status("negative").orElseThrow().status());
        SessionFailedException endless = assertThrows(SessionFailedException.class,
                () -> node.start("endless", new Alarm(), Duration.ofSeconds(Long.MAX_VALUE)));
        assertTrue(endless.getMessage().contains("session endless: a sleep of PT2562047788015215H30M7S ends beyond what"
                + " a due time can hold"), endless.getMessage());
    }

    @Test
    void aNodeIsRefusedANegativeNumberOfWorkersOrAPollIntervalOfNothing() {
        assertEquals("a negative number of workers: -1", assertThrows(IllegalArgumentException.class,
                () -> node().workers(-1)).getMessage());
        assertEquals("a poll interval must be more than zero: PT0S", assertThrows(IllegalArgumentException.class,
                () -> node().pollEvery(Duration.ZERO)).getMessage());
        assertThrows(NullPointerException.class, () -> node().clock(null));
    }

    @Test
    void aWaitStoredOnANodeWakesItsWorkersWithoutWaitingForThePoll() {
        try (Sessions node = node().pollEvery(Duration.ofMinutes(10)).workers(1).keepFinished(true).build()) {
            String id = node.start(new Alarm(), Duration.ZERO).id();
            awaitFinished(node, id);
        }
    }

    @Test
    void aWorkersStepThatTheDatabaseRefusesRollsBackWholeAndRunsAgainOnceItCan() throws Exception {
        MutableClock clock = new MutableClock(T0);
        Sessions caller = node().clock(clock).build();
        String id = caller.start(new Recurring(3, Duration.ofMinutes(1)), null).id();
        execute(postgres()
                ? List.of("CREATE FUNCTION refuse_step_2() RETURNS trigger AS $$ BEGIN IF NEW.version = 2 THEN RAISE"
                        + " EXCEPTION 'step 2 refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
                        "CREATE TRIGGER refuse_step_2 BEFORE UPDATE ON weft_sessions FOR EACH ROW EXECUTE FUNCTION"
                        + " refuse_step_2()")
                : List.of("CREATE TRIGGER refuse_step_2 BEFORE UPDATE ON weft_sessions WHEN NEW.version = 2 BEGIN"
                        + " SELECT RAISE(ABORT, 'step 2 refused'); END"));
        clock.advance(Duration.ofMinutes(1));
        try (Sessions worker = node().clock(clock).workers(1).build()) {
            TimeUnit.MILLISECONDS.sleep(10 * POLL.toMillis());
            assertEquals(1, caller.status(id).orElseThrow().version(), "every try rolled back");
            assertEquals(List.of("1:start"), suite().ledger(id), "with the round's own write");
            execute(List.of(postgres() ? "DROP TRIGGER refuse_step_2 ON weft_sessions" : "DROP TRIGGER refuse_step_2"));
            awaitTrue(() -> caller.status(id).orElseThrow().version() == 2, () -> "the step once the database takes it");
            clock.advance(Duration.ofMinutes(1));
            awaitGone(worker, id);
        }
        assertEquals(List.of("1:start", "2:timer", "3:timer"), suite().ledger(id));
    }

    // ---------------------------------------------------------------- an input with a deadline

    @Test
    void anInputBeforeTheDeadlineWinsAndTheDeadlineNeverFires() throws Exception {
        try (Sessions node = node().workers(1).keepFinished(true).build()) {
            String id = node.start(new Deadline(Duration.ofHours(1)), null).id();
            assertEquals("Do you confirm?", node.lastOutput(id).orElseThrow());
            SessionStep<String> answered = node.resume(id, 1, "yes");
            assertTrue(answered.finished());
            assertEquals("answered yes", answered.output());
            TimeUnit.MILLISECONDS.sleep(5 * POLL.toMillis());
            assertEquals(2, node.status(id).orElseThrow().version(), "nothing more ran");
        }
    }

    @Test
    void theDeadlineFiresWhenNoInputCameAndAnInputAfterItIsRefused() throws SQLException {
        MutableClock clock = new MutableClock(T0);
        Sessions caller = node().clock(clock).keepFinished(true).build();
        String id = caller.start(new Deadline(Duration.ofMinutes(10)), null).id();
        clock.advance(Duration.ofMinutes(10));
        Map<String, Object> before = suite().storedRow(id);
        SessionWaitingException late = assertThrows(SessionWaitingException.class, () -> caller.resume(id, "yes"));
        assertEquals("session " + id + ": its deadline for an input passed at 2026-01-01T00:10:00Z; a worker resumes it"
                + " as timed out; nothing ran", late.getMessage());
        assertFalse(late.sleeping());
        assertTrue(StoredRows.same(before, suite().storedRow(id)), "left as it was");
        try (Sessions worker = node().clock(clock).workers(1).keepFinished(true).build()) {
            awaitFinished(worker, id);
            assertEquals("timed out with null", worker.lastOutput(id).orElseThrow());
        }
    }

    // ---------------------------------------------------------------- the order of claims

    @Test
    void aWorkerClaimsAPassedDeadlineFirstThenTheWaitDueLongestThenTheOldestMessageButThosePassedOver() {
        MutableClock clock = new MutableClock(T0);
        Sessions node = node().clock(clock).build();
        String later = node.start(new Alarm(), Duration.ofMinutes(2)).id();
        String sooner = node.start(new Alarm(), Duration.ofMinutes(1)).id();
        String sentSecond = node.start(new Mailbox(), null).id();
        String sentFirst = node.start(new Mailbox(), null).id();
        String late = node.start("late", new Turnstile(), "a", Duration.ofMinutes(3)).id();
        node.send(sentFirst, "one");
        node.send(sentSecond, "two");
        clock.advance(Duration.ofMinutes(5));
        assertEquals(sooner, node.runDue(List.of(late, "no-such-session")), "the deadline passed over");
        assertEquals(sentFirst, node.runDue(List.of(late, later)), "both passed over");
        assertEquals(List.of(late, later, sentSecond), java.util.stream.Stream.generate(() -> node.runDue(List.of()))
                .limit(3).toList());
        assertNull(node.runDue(List.of()), "none is due: each mailbox waits again, with no deadline");
        assertEquals(SessionStatus.CANCELLED, node.status(late).orElseThrow().status());
        assertEquals(List.of("2:message one"), suite().ledger(sentFirst));
        assertEquals(List.of("2:message two"), suite().ledger(sentSecond));
    }

    // ---------------------------------------------------------------- clocks

    @Test
    void aClockThatJumpsMovesWhenAWaitIsResumedNeverWhetherNorHowOften() throws Exception {
        MutableClock clock = new MutableClock(T0);
        try (Sessions node = node().clock(clock).workers(2).build()) {
            String id = node.start(new Recurring(3, Duration.ofHours(1)), null).id();
            clock.set(T0.minus(Duration.ofDays(1)));
            TimeUnit.MILLISECONDS.sleep(5 * POLL.toMillis());
            assertEquals(1, node.status(id).orElseThrow().version(), "the clock went back: not due yet");
            clock.set(T0.plus(Duration.ofDays(365)));
            awaitTrue(() -> node.status(id).orElseThrow().version() == 2, () -> "the step the jump made due");
            TimeUnit.MILLISECONDS.sleep(5 * POLL.toMillis());
            assertEquals(2, node.status(id).orElseThrow().version(), "its next sleep is an hour from the new time");
            clock.advance(Duration.ofHours(1));
            awaitGone(node, id);
            assertEquals(List.of("1:start", "2:timer", "3:timer"), suite().ledger(id));
        }
    }

    // ---------------------------------------------------------------- shutdown

    @Test
    void closingANodeLetsItsRunningStepCommitAndClaimsNothingMore() throws Exception {
        Gate.reset();
        Sessions node = node().workers(1).build();
        String held = node.start(new Recurring(3, Duration.ZERO, true), null).id();
        CompletableFuture<Void> closed;
        try {
            Gate.awaitArrival();
            closed = CompletableFuture.runAsync(node::close);
            TimeUnit.MILLISECONDS.sleep(5 * POLL.toMillis());
            assertFalse(closed.isDone(), "close waits for the step at the gate");
        } finally {
            Gate.open();
        }
        closed.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertEquals(2, node.status(held).orElseThrow().version(), "the step that ran as the node closed committed,"
                + " and the next, due at once, was not claimed");
        assertEquals(List.of("1:start", "2:timer"), suite().ledger(held));
        String later = node.start(new Recurring(2, Duration.ZERO), null).id();
        TimeUnit.MILLISECONDS.sleep(5 * POLL.toMillis());
        assertEquals(1, node.status(later).orElseThrow().version(), "a closed node claims nothing");
        try (Sessions next = node().workers(1).build()) {
            awaitGone(next, held);
            awaitGone(next, later);
        }
        assertEquals(List.of("1:start", "2:timer", "3:timer"), suite().ledger(held));
    }

    // ---------------------------------------------------------------- sealed waits, older databases

    @Test
    void aSealedWaitIsResumedAndItsWaitColumnsChangedInTheStoreAreRefusedNamingThemAndPassedOverByWorkers()
            throws SQLException {
        SecretKeySpec key = new SecretKeySpec(new byte[32], "HmacSHA256");
        MutableClock clock = new MutableClock(T0);
        Sessions node = node().clock(clock).sealWith(key).keepFinished(true).build();
        String sleeping = node.start(new Alarm(), Duration.ofHours(1)).id();
        Map<String, Object> sealed = suite().storedRow(sleeping);
        suite().setColumn(sleeping, "due_at", 0L);
        SessionRefusedException early = assertThrows(SessionRefusedException.class, () -> node.status(sleeping));
        assertEquals("column due_at differs from what was sealed: changed in the store, or taken from another session"
                + " or another version of this one", early.reason());
        putRow(sleeping, sealed);
        String plain = node.start(new Deadline(Duration.ofHours(1)), null).id();
        suite().setColumn(plain, "wait_kind", "SLEEP");
        SessionRefusedException added = assertThrows(SessionRefusedException.class, () -> node.resume(plain, "yes"));
        assertEquals("column wait_kind differs from what was sealed: changed in the store, or taken from another"
                + " session or another version of this one", added.reason());
        Map<String, Object> changed = suite().storedRow(plain);
        clock.advance(Duration.ofHours(2));
        try (Sessions worker = node().clock(clock).sealWith(key).workers(1).keepFinished(true).build()) {
            awaitFinished(worker, sleeping);
            assertEquals("woke at step 2, timed out true, input null", worker.lastOutput(sleeping).orElseThrow());
        }
        assertTrue(StoredRows.same(changed, suite().storedRow(plain)), "the due row the workers refuse is passed over, left as"
                + " it was: " + StoredRows.describe(suite().storedRow(plain)));
    }

    @Test
    void aWaitColumnOutOfRangeIsRefusedNamingIt() throws SQLException {
        Sessions node = node().build();
        String id = node.start(new Deadline(Duration.ofHours(1)), null).id();
        suite().setColumn(id, "wait_kind", "NAP");
        assertEquals("column wait_kind holds 'NAP', not one of [SLEEP, INPUT, MESSAGE, RETRY, RETRY_TIMEOUT]",
                assertThrows(SessionRefusedException.class, () -> node.resume(id, "yes")).reason());
        suite().setColumn(id, "wait_kind", null);
        assertEquals("column due_at holds " + suite().storedRow(id).get("due_at") + ", but column wait_kind is NULL: a due"
                + " time of no wait", assertThrows(SessionRefusedException.class, () -> node.status(id)).reason());
    }

    @Test
    void aDatabaseFromBeforeWaitsGetsTheirColumnsWhenOpenedAndItsSessionsGoOn() throws SQLException {
        String id = suite().sessions.start(new Deadline(Duration.ofHours(1)), null).id();
        try (Connection connection = suite().connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP INDEX weft_sessions_due");
            statement.execute("DROP INDEX weft_sessions_waiting");
            statement.execute("DROP INDEX weft_sessions_due_claims");
            statement.execute("DROP INDEX weft_sessions_deadline_claims");
            statement.execute("ALTER TABLE weft_sessions DROP COLUMN due_at");
            statement.execute("ALTER TABLE weft_sessions DROP COLUMN wait_kind");
        }
        suite().store.close();
        suite().store = suite().reopen();
        Sessions reopened = node().build();
        assertEquals("answered yes", reopened.<String, String>resume(id, "yes").output());
        try (Sessions node = node().workers(1).build()) {
            String sleeping = node.start(new Recurring(2, Duration.ZERO), null).id();
            awaitGone(node, sleeping);
            assertEquals(List.of("1:start", "2:timer"), suite().ledger(sleeping));
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Waits until session {@code id} is gone from the store (finished, not kept). */
    static void awaitGone(Sessions node, String id) {
        awaitTrue(() -> node.status(id).isEmpty(), () -> "session " + id + " to finish: it is "
                + node.status(id).orElse(null));
    }

    /** Waits until session {@code id} has finished and is kept. */
    static void awaitFinished(Sessions node, String id) {
        awaitTrue(() -> node.status(id).orElseThrow().status() != SessionStatus.SUSPENDED, () -> "session " + id
                + " to finish: it is " + node.status(id).orElse(null));
        assertEquals(SessionStatus.FINISHED, node.status(id).orElseThrow().status(), () -> node.status(id)
                .orElseThrow().failure());
    }

    static void awaitTrue(java.util.function.BooleanSupplier condition, java.util.function.Supplier<String> what) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + PATIENCE + " for " + what.get());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    private boolean postgres() {
        return suite() instanceof PostgresSessionStoreContract;
    }

    private void execute(List<String> statements) throws SQLException {
        try (Connection connection = suite().connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private void putRow(String id, Map<String, Object> row) throws SQLException {
        try (Connection connection = suite().connect()) {
            StoredRows.put(connection, id, row);
        }
    }
}
