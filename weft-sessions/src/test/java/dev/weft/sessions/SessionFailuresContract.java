package dev.weft.sessions;

import static dev.weft.sessions.SessionWaitsContract.POLL;
import static dev.weft.sessions.SessionWaitsContract.awaitFinished;
import static dev.weft.sessions.SessionWaitsContract.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Attempts;
import dev.weft.sessions.flows.Cleanup;
import dev.weft.sessions.flows.Flaky;
import dev.weft.sessions.flows.Ledger;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Retries, {@link Sessions#retry} and {@link Sessions#cancel} on every store and engine: run as a
 * nested class of {@link SessionStoreContract} ({@code Failures}), on its store.
 */
abstract class SessionFailuresContract {

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private static final RetryPolicy THREE_QUICK = RetryPolicy.attempts(3).backoff(Duration.ofMillis(5), 2,
            Duration.ofMillis(20));

    private Sessions.Builder node() {
        return suite().builder().pollEvery(POLL);
    }

    // ---------------------------------------------------------------- retries

    @Test
    void aStepThatThrowsIsRetriedByAWorkerWithTheSameInputUntilItSucceeds() {
        Sessions caller = node().retry(THREE_QUICK).keepFinished(true).build();
        String id = caller.start(new Flaky(2, Flaky.INPUT, false), null).id();
        SessionRetryingException retrying = assertThrows(SessionRetryingException.class,
                () -> caller.resume(id, "x"));
        assertEquals(2, retrying.step());
        assertEquals(1, retrying.attempt());
        assertTrue(retrying.getMessage().startsWith("session " + id + ": step 2 threw (attempt 1 of 3); a worker runs"
                + " it again at "), retrying.getMessage());
        assertTrue(retrying.getMessage().endsWith("with the same input: java.lang.IllegalStateException: attempt 1"),
                retrying.getMessage());
        assertEquals("attempt 1", retrying.getCause().getMessage());
        SessionInfo waiting = caller.status(id).orElseThrow();
        assertEquals(SessionStatus.SUSPENDED, waiting.status());
        assertEquals(1, waiting.version(), "nothing of the step is stored");
        assertTrue(waiting.failure().startsWith("java.lang.IllegalStateException: attempt 1"), waiting.failure());
        SessionWaitingException refused = assertThrows(SessionWaitingException.class, () -> caller.resume(id, "y"));
        assertTrue(refused.getMessage().contains("its last step failed, and a worker runs it again at"),
                refused.getMessage());
        try (Sessions worker = node().retry(THREE_QUICK).workers(1).keepFinished(true).build()) {
            awaitFinished(worker, id);
            assertEquals("done at run 3 with x, timed out false", worker.lastOutput(id).orElseThrow());
            assertEquals(2, worker.status(id).orElseThrow().version());
        }
        assertEquals(3, Flaky.runs(id));
        assertEquals(List.of("2:run 3 with x, timed out false"), suite().ledger(id), "failed runs wrote nothing");
    }

    @Test
    void aStepRunForAWaitIsRetriedAsTheSameWait() {
        try (Sessions node = node().retry(THREE_QUICK).workers(1).keepFinished(true).build()) {
            String slept = node.start(new Flaky(1, Flaky.SLEEP, false), null).id();
            String messaged = node.start(new Flaky(2, Flaky.MESSAGE, false), null).id();
            node.send(messaged, "m1");
            awaitFinished(node, slept);
            awaitFinished(node, messaged);
            assertEquals("done at run 2 with null, timed out true", node.lastOutput(slept).orElseThrow());
            assertEquals("done at run 3 with m1, timed out false", node.lastOutput(messaged).orElseThrow(),
                    "the message is given again to each retry");
        }
    }

    @Test
    void afterTheLastAttemptTheSessionFailsAndRetryRunsTheStepAgain() {
        Sessions node = node().retry(RetryPolicy.attempts(2)).build();
        String id = node.start(new Flaky(3, Flaky.INPUT, false), null).id();
        assertThrows(SessionRetryingException.class, () -> node.resume(id, "x"));
        try (Sessions worker = node().retry(RetryPolicy.attempts(2)).workers(1).build()) {
            awaitTrue(() -> worker.status(id).orElseThrow().status() == SessionStatus.FAILED,
                    () -> "session " + id + " to fail: " + worker.status(id));
        }
        SessionInfo failed = node.status(id).orElseThrow();
        assertEquals(2, failed.version(), "a failed session's version is its failed step's number");
        assertTrue(failed.failure().startsWith("java.lang.IllegalStateException: attempt 2"), failed.failure());
        assertThrows(SessionFailedException.class, () -> node.resume(id, "y"));
        SessionRetryingException again = assertThrows(SessionRetryingException.class, () -> node.retry(id));
        assertEquals(1, again.attempt(), "a retry starts the policy's attempts again");
        assertEquals(3, Flaky.runs(id));
        try (Sessions worker = node().retry(RetryPolicy.attempts(2)).workers(1).build()) {
            SessionWaitsContract.awaitGone(worker, id);
        }
        assertEquals(4, Flaky.runs(id));
        assertEquals(List.of("2:run 4 with x, timed out false"), suite().ledger(id));
    }

    @Test
    void retryOfAFailedSessionRunsItsStepOnTheCallersThread() {
        Sessions node = node().build();
        String id = node.start(new Flaky(1, Flaky.INPUT, false), null).id();
        SessionFailedException failed = assertThrows(SessionFailedException.class, () -> node.resume(id, "x"));
        assertTrue(failed.getMessage().contains("failed in step 2: java.lang.IllegalStateException: attempt 1"),
                failed.getMessage());
        SessionStep<String> step = node.retry(id);
        assertTrue(step.finished());
        assertEquals(2, step.version());
        assertEquals("done at run 2 with x, timed out false", step.output());
    }

    @Test
    void aStepKnowsItsAttemptAndEachRetryIsTheNextOne() {
        RetryPolicy refusalsOnly = THREE_QUICK.retryOn(Attempts.Refusal.class);
        try (Sessions node = node().retry(refusalsOnly).workers(1).keepFinished(true).build()) {
            String id = node.start(new Attempts(2, Duration.ZERO), null).id();
            awaitFinished(node, id);
            assertEquals("succeeded at attempt 3", node.lastOutput(id).orElseThrow());
            assertEquals(List.of("1:start at attempt 1", "2:succeeded at attempt 3"), suite().ledger(id),
                    "the rows of the failed attempts rolled back with them");
        }
    }

    @Test
    void retryOfAFailedSessionCountsItsAttemptsFromOneAgain() {
        Sessions caller = node().build();
        String id = caller.start(new Attempts(1, Duration.ZERO), null).id();
        try (Sessions worker = node().workers(1).build()) {
            awaitTrue(() -> worker.status(id).orElseThrow().status() == SessionStatus.FAILED,
                    () -> "session " + id + " to fail at its first attempt: " + worker.status(id));
        }
        String refused = Attempts.Refusal.class.getName() + ": attempt 1 of " + id + " refused";
        assertTrue(caller.status(id).orElseThrow().failure().startsWith(refused), caller.status(id).toString());
        assertThrows(SessionFailedException.class, () -> caller.retry(id));
        assertTrue(caller.status(id).orElseThrow().failure().startsWith(refused), () -> "run again as attempt 1: "
                + caller.status(id));
    }

    @Test
    void onlyTheExceptionsOfThePolicyAreRetried() {
        RetryPolicy ioOnly = THREE_QUICK.retryOn(java.io.UncheckedIOException.class);
        Sessions node = node().retry(ioOnly).build();
        String state = node.start(new Flaky(1, Flaky.INPUT, false), null).id();
        assertThrows(SessionFailedException.class, () -> node.resume(state, "x"), "not an I/O failure");
        String io = node.start(new Flaky(1, Flaky.INPUT, true), null).id();
        assertThrows(SessionRetryingException.class, () -> node.resume(io, "x"));
    }

    @Test
    void retryIsRefusedWhereThereIsNoFailedStepToRunAgain() {
        Sessions node = node().build();
        assertThrows(SessionNotFoundException.class, () -> node.retry("no-such-session"));
        String suspended = node.start(new Ledger(3), "a").id();
        SessionException notFailed = assertThrows(SessionException.class, () -> node.retry(suspended));
        assertEquals("session " + suspended + ": it is SUSPENDED, not FAILED: it has no failed step to run again;"
                + " nothing ran", notFailed.getMessage());
        assertThrows(SessionFailedException.class, () -> node.start("failed-at-start", new Ledger(3), "boom"));
        SessionException noFrames = assertThrows(SessionException.class, () -> node.retry("failed-at-start"));
        assertEquals("session failed-at-start: it has no frames to run again: it failed in its first step, or was"
                + " stored before failed sessions kept their frames", noFrames.getMessage());
    }

    @Test
    void aRetryPolicyOutOfRangeIsRefused() {
        assertEquals("a step runs at least once: 0 attempts", assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.attempts(0)).getMessage());
        assertEquals("a backoff factor of 0.5: 1 or more", assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.attempts(2).backoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(2))).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.attempts(2).backoff(Duration.ofSeconds(2), 2, Duration.ofSeconds(1)));
        assertThrows(NullPointerException.class, () -> node().retry(null));
        RetryPolicy policy = RetryPolicy.attempts(5).backoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(5));
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(5)), List.of(policy.delay(1), policy.delay(2), policy.delay(3), policy.delay(4)));
    }

    @Test
    void aSealedRetryRowChangedInTheStoreIsRefusedNamingTheColumn() throws SQLException {
        SecretKeySpec key = new SecretKeySpec(new byte[32], "HmacSHA256");
        Sessions node = node().sealWith(key).retry(RetryPolicy.attempts(3).backoff(Duration.ofHours(1), 1,
                Duration.ofHours(1))).build();
        String id = node.start(new Flaky(5, Flaky.INPUT, false), null).id();
        assertThrows(SessionRetryingException.class, () -> node.resume(id, "x"));
        Map<String, Object> before = suite().storedRow(id);
        assertEquals(1L, before.get("attempts"));
        suite().setColumn(id, "attempts", 2L);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> node.retry(id));
        assertTrue(refused.reason().startsWith("column attempts differs from what was sealed"), refused.reason());
        suite().setColumn(id, "attempts", 1L);
        suite().setColumn(id, "retry_input", StateCodec.value("forged"));
        assertThrows(SessionRefusedException.class, () -> node.status(id));
        Sessions plain = node().build();
        String unsealed = plain.start(new Ledger(3), "a").id();
        suite().setColumn(unsealed, "attempts", 0L);
        assertEquals("column attempts holds 0, not a number of attempts", assertThrows(SessionRefusedException.class,
                () -> plain.resume(unsealed, "b")).reason());
    }

    // ---------------------------------------------------------------- cancellation

    @Test
    void cancelRunsTheFinallyBlocksWhoseWritesCommitAndTheSessionEndsCancelled() {
        Sessions node = node().build();
        String id = node.start(new Cleanup(false), null).id();
        node.cancel(id);
        SessionInfo cancelled = node.status(id).orElseThrow();
        assertEquals(SessionStatus.CANCELLED, cancelled.status());
        assertEquals(2, cancelled.version());
        assertNull(cancelled.build());
        assertNull(cancelled.failure());
        assertEquals(List.of("2:cleanup"), suite().ledger(id));
        SessionConflictException ended = assertThrows(SessionConflictException.class, () -> node.resume(id, "a"));
        assertEquals(SessionStatus.CANCELLED, ended.status());
        assertTrue(assertThrows(SessionException.class, () -> node.send(id, "late")).getMessage()
                .contains("it has been cancelled, so no step of it will take a message"));
        assertEquals("session " + id + ": it has been cancelled already: there is nothing to cancel",
                assertThrows(SessionException.class, () -> node.cancel(id)).getMessage());
        assertTrue(node.remove(id));
    }

    @Test
    void aFinallyBlockThatThrowsIsRolledBackAndStoredAndTheSessionIsCancelledAllTheSame() {
        Sessions node = node().build();
        String id = node.start(new Cleanup(true), null).id();
        node.cancel(id);
        SessionInfo cancelled = node.status(id).orElseThrow();
        assertEquals(SessionStatus.CANCELLED, cancelled.status());
        assertTrue(cancelled.failure().startsWith("java.lang.IllegalStateException: the cleanup failed"),
                cancelled.failure());
        assertEquals(List.of(), suite().ledger(id));
    }

    @Test
    void aFailedSessionIsCancelledByClosingTheFramesItKept() {
        Sessions node = node().build();
        String id = node.start(new Cleanup(false), null).id();
        assertThrows(SessionFailedException.class, () -> node.resume(id, "boom"));
        assertEquals(List.of(), suite().ledger(id), "the failed step's cleanup rolled back with it");
        node.cancel(id);
        assertEquals(SessionStatus.CANCELLED, node.status(id).orElseThrow().status());
        assertEquals(List.of("3:cleanup"), suite().ledger(id));
    }

    @Test
    void cancelIsRefusedForNoSessionOrAFinishedOne() {
        Sessions node = node().keepFinished(true).build();
        assertThrows(SessionNotFoundException.class, () -> node.cancel("no-such-session"));
        String finished = node.start(new Ledger(1), "only").id();
        assertEquals("session " + finished + ": it has finished: there is nothing to cancel",
                assertThrows(SessionException.class, () -> node.cancel(finished)).getMessage());
        assertEquals(SessionStatus.FINISHED, node.status(finished).orElseThrow().status());
    }

    @Test
    void aCancelledSessionTakesItsMessagesWithIt() {
        Sessions node = node().build();
        String id = node.start(new Cleanup(false), null).id();
        node.send(id, "unread");
        node.cancel(id);
        try (Connection connection = suite().connect(); var select = connection.prepareStatement(
                "SELECT COUNT(*) FROM weft_messages WHERE session_id = ?")) {
            select.setString(1, id);
            try (var rows = select.executeQuery()) {
                rows.next();
                assertEquals(0, rows.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- helpers
}
