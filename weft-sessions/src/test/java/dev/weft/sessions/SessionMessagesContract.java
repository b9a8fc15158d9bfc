package dev.weft.sessions;

import static dev.weft.sessions.SessionWaitsContract.POLL;
import static dev.weft.sessions.SessionWaitsContract.awaitFinished;
import static dev.weft.sessions.SessionWaitsContract.awaitGone;
import static dev.weft.sessions.SessionWaitsContract.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Gate;
import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Mailbox;
import dev.weft.sessions.flows.Sender;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Messages on every store and engine: run as a nested class of {@link SessionStoreContract}
 * ({@code Messages}), on its store. Where the test needs a step to run at a moment of its
 * choosing, it calls {@link Sessions#runDue} itself, as a worker would; else real workers run.
 */
abstract class SessionMessagesContract {

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private Sessions.Builder node() {
        return suite().builder().pollEvery(POLL);
    }

    @Test
    void messagesAreTakenInTheOrderSentOneAStepEachExactlyOnce() {
        try (Sessions node = node().workers(2).build()) {
            String id = node.start(new Mailbox(), null).id();
            for (String message : List.of("a", "b", "c", "stop")) {
                node.send(id, message);
            }
            awaitGone(node, id);
            assertEquals(List.of("2:message a", "3:message b", "4:message c", "5:message stop"), suite().ledger(id));
        }
    }

    @Test
    void messagesSentWhileTheSessionSleptWaitInItsInboxInOrder() {
        Sessions sender = node().build();
        String id = sender.start(new Mailbox(null, Duration.ofMillis(50)), null).id();
        sender.send(id, 1);
        sender.send(id, 2);
        sender.send(id, "stop");
        assertEquals(3, inbox(id).size());
        try (Sessions worker = node().workers(1).build()) {
            awaitGone(worker, id);
        }
        assertEquals(List.of("3:message 1", "4:message 2", "5:message stop"), suite().ledger(id));
        assertEquals(List.of(), inbox(id), "consumed");
    }

    @Test
    void aMessageAwaitedWithADeadlineTimesOutWithNullWhenNoneCame() {
        try (Sessions node = node().workers(1).keepFinished(true).build()) {
            String id = node.start(new Mailbox(Duration.ofMillis(30), null), null).id();
            awaitFinished(node, id);
            assertEquals("timed out after [] at step 2", node.lastOutput(id).orElseThrow());
        }
    }

    @Test
    void aMessageBeforeTheDeadlineWinsAndTheNextWaitTimesOut() {
        Sessions sender = node().build();
        String id = sender.start(new Mailbox(Duration.ofMillis(200), null), null).id();
        sender.send(id, "early");
        try (Sessions node = node().workers(1).keepFinished(true).build()) {
            awaitFinished(node, id);
            assertEquals("timed out after [early] at step 3", node.lastOutput(id).orElseThrow());
        }
        assertEquals(List.of("2:message early"), suite().ledger(id));
    }

    @Test
    void aStepSendsMessagesThatCommitWithItAndNoneWhenItThrows() {
        Sessions node = node().build();
        String mailbox = node.start(new Mailbox(), null).id();
        SessionFailedException failed = assertThrows(SessionFailedException.class,
                () -> node.start(new Sender(mailbox, List.of("lost"), true), null));
        assertEquals("session " + failed.sessionId() + ": failed in step 1: java.lang.IllegalStateException: after"
                + " sending", failed.getMessage());
        assertEquals(List.of(), inbox(mailbox), "the step that threw sent nothing");
        assertEquals(List.of(), suite().ledger(failed.sessionId()));

        String sender = node.start(new Sender(mailbox, List.of("a", "b", "stop"), false), null).id();
        assertEquals(List.of("1:sent a", "1:sent b", "1:sent stop"), suite().ledger(sender));
        assertEquals(List.of("a", "b", "stop"), inbox(mailbox));
        try (Sessions worker = node().workers(1).build()) {
            awaitGone(worker, mailbox);
        }
        assertEquals(List.of("2:message a", "3:message b", "4:message stop"), suite().ledger(mailbox));
    }

    @Test
    void aStepSendingToNoSessionFailsAndSendsNothing() {
        Sessions node = node().build();
        SessionFailedException failed = assertThrows(SessionFailedException.class,
                () -> node.start(new Sender("no-such-session", List.of("hello"), false), null));
        assertTrue(failed.getMessage().contains("SessionNotFoundException"), failed.getMessage());
        assertTrue(failed.getMessage().contains("no-such-session"), failed.getMessage());
        assertEquals(0, messageCount());
    }

    @Test
    void aSendToNoSessionOrAFinishedOneIsRefusedAndStoresNothing() {
        Sessions node = node().keepFinished(true).build();
        SessionNotFoundException missing = assertThrows(SessionNotFoundException.class,
                () -> node.send("no-such-session", "hello"));
        assertTrue(missing.getMessage().contains("no-such-session"), missing.getMessage());
        String finished = node.start(new Ledger(1), "only").id();
        SessionException ended = assertThrows(SessionException.class, () -> node.send(finished, "late"));
        assertEquals("session " + finished + ": it has finished, so no step of it will take a message; nothing is"
                + " sent", ended.getMessage());
        assertEquals(0, messageCount());
    }

    @Test
    void aMessageThatCannotBeStoredOrIsNullIsRefusedNamingItsClass() {
        Sessions node = node().build();
        String id = node.start(new Mailbox(), null).id();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> node.send(id, new Object()));
        assertEquals("session " + id + ": a message of class java.lang.Object cannot be stored: it must be"
                + " Serializable, and so must everything it holds; nothing is sent", refused.getMessage());
        NullPointerException none = assertThrows(NullPointerException.class, () -> node.send(id, null));
        assertTrue(none.getMessage().contains("a message cannot be null"), none.getMessage());
        assertEquals(List.of(), inbox(id));
    }

    @Test
    void anInputToASessionThatWaitsForAMessageIsRefusedAndRunsNothing() throws SQLException {
        Sessions node = node().build();
        String id = node.start(new Mailbox(), null).id();
        Map<String, Object> before = suite().storedRow(id);
        SessionWaitingException refused = assertThrows(SessionWaitingException.class, () -> node.resume(id, "hi"));
        assertEquals("session " + id + ": it waits for a message, which a worker resumes it with: send it one"
                + " (Sessions.send), not an input; nothing ran", refused.getMessage());
        assertTrue(refused.awaitingMessage());
        assertNull(refused.until());
        assertTrue(StoredRows.same(before, suite().storedRow(id)), "left as it was");
        assertEquals("MESSAGE", before.get("wait_kind"));
        assertNull(before.get("due_at"));
    }

    @Test
    void aSendDoesNotWaitForARunningStepOfTheSessionOnPostgresAndComesAfterItOnSqlite() throws Exception {
        Sessions node = node().build();
        String id = node.start(new Ledger(3), "first").id();
        Gate.reset();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        CompletableFuture<SessionStep<String>> step = CompletableFuture.supplyAsync(() -> node.resume(id, "gate"),
                threads);
        Gate.awaitArrival();
        CompletableFuture<Void> send = CompletableFuture.runAsync(() -> node.send(id, "while it runs"), threads);
        threads.shutdown();
        if (suite().rowLocks()) {
            send.get(1, TimeUnit.MINUTES);
            assertEquals(List.of("while it runs"), inbox(id), "stored while the step holds the session's row");
            Gate.open();
        } else {
            TimeUnit.MILLISECONDS.sleep(50);
            assertTrue(!send.isDone(), "SQLite: the send waits for the write lock the step holds");
            Gate.open();
            send.get(1, TimeUnit.MINUTES);
        }
        assertEquals(2, step.get(1, TimeUnit.MINUTES).version());
        assertEquals(List.of("while it runs"), inbox(id));
    }

    @Test
    void aMessageSentInTheCallersTransactionIsStoredOnlyIfItCommits() throws SQLException {
        try (Sessions node = node().workers(1).build()) {
            String id = node.start(new Mailbox(), null).id();
            try (Connection connection = suite().connect()) {
                connection.setAutoCommit(false);
                node.send(connection, id, "rolled back");
                connection.rollback();
                node.send(connection, id, "stop");
                connection.commit();
            }
            awaitGone(node, id);
            assertEquals(List.of("2:message stop"), suite().ledger(id));
        }
    }

    @Test
    void aSessionThatEndsTakesItsUnconsumedMessagesWithIt() {
        Sessions node = node().build();
        String id = node.start(new Mailbox(), null).id();
        node.send(id, "stop");
        node.send(id, "after the end");
        assertEquals(id, node.runDue(List.of()));
        assertTrue(node.status(id).isEmpty());
        assertEquals(List.of(), inbox(id));
        String removed = node.start(new Mailbox(), null).id();
        node.send(removed, "never taken");
        assertTrue(node.remove(removed));
        assertEquals(0, messageCount());
    }

    @Test
    void aStepThatCannotBeStoredLeavesItsMessageInTheInboxForTheNextTry() throws SQLException {
        Sessions node = node().build();
        String id = node.start(new Mailbox(), null).id();
        node.send(id, "hold");
        node.send(id, "next");
        Map<String, Object> before = suite().storedRow(id);
        SessionException unstorable = assertThrows(SessionException.class, () -> node.runDue(List.of()));
        assertEquals(id, unstorable.sessionId());
        assertTrue(unstorable.getMessage().contains("cannot be stored"), unstorable.getMessage());
        assertEquals(List.of("hold", "next"), inbox(id), "the message stays");
        assertTrue(StoredRows.same(before, suite().storedRow(id)), "the session stays");
        assertEquals(List.of(), suite().ledger(id));
    }

    @Test
    void aSessionSentAMessageIsClaimedByItsIdAndSteppedOnceForEachMessage() {
        Sessions node = node().build();
        String id = node.start(new Mailbox(), null).id();
        node.send(id, "a");
        assertTrue(node.runSent(id));
        assertEquals(List.of("2:message a"), suite().ledger(id));
        assertFalse(node.runSent(id), "no message left: nothing runs");
        assertEquals(2, node.status(id).orElseThrow().version());
        assertEquals(List.of(), inbox(id));
    }

    @Test
    void aClaimByIdRunsNothingForASessionThatDoesNotWaitForAMessage() throws SQLException {
        Sessions node = node().build();
        String sleeping = node.start(new Mailbox(null, Duration.ofHours(1)), null).id();
        node.send(sleeping, "early");
        Map<String, Object> before = suite().storedRow(sleeping);
        assertFalse(node.runSent(sleeping), "it sleeps: the message waits in its inbox");
        assertTrue(StoredRows.same(before, suite().storedRow(sleeping)));
        assertEquals(List.of("early"), inbox(sleeping));
        assertFalse(node.runSent("no-such-session"));
    }

    @Test
    void aClaimByIdPassesOverASessionThatAnotherTransactionHolds() throws SQLException {
        Sessions node = node().build();
        String id = node.start(new Mailbox(), null).id();
        node.send(id, "a");
        if (suite().rowLocks()) {
            try (Connection holder = suite().connect()) {
                holder.setAutoCommit(false);
                try (PreparedStatement lock = holder.prepareStatement("SELECT id FROM weft_sessions WHERE id = ? FOR UPDATE")) {
                    lock.setString(1, id);
                    lock.executeQuery().close();
                }
                assertFalse(node.runSent(id), "held by another transaction: passed over at once");
                holder.rollback();
            }
            assertEquals(List.of("a"), inbox(id));
        }
        assertTrue(node.runSent(id));
        assertEquals(List.of("2:message a"), suite().ledger(id));
    }

    @Test
    void aNodeWithWorkersIsWokenByItsOwnSendWithoutWaitingForThePoll() {
        try (Sessions node = suite().builder().pollEvery(Duration.ofHours(1)).workers(1).build()) {
            String id = node.start(new Mailbox(), null).id();
            node.send(id, "stop");
            awaitGone(node, id);
        }
    }

    @Test
    void onPostgresASendOnOneNodeWakesAnotherNodesWorkersAsItCommits() {
        if (!suite().rowLocks()) {
            // SQLite's nodes share a file, not a channel: they see another node's sends by polling
            assertTrue(suite().store.toString().startsWith("SQLite"), suite().store.toString());
            return;
        }
        Sessions sender = suite().builder().build();
        try (Sessions worker = suite().builder().pollEvery(Duration.ofHours(1)).workers(1).build()) {
            awaitTrue(() -> PostgresSessionStoreContract.listeners(suite()) == 1, () -> "the worker node to listen");
            String id = sender.start(new Mailbox(), null).id();
            sender.send(id, "stop");
            awaitGone(worker, id);
        }
    }

    // ---------------------------------------------------------------- messages not to be trusted

    private static final SecretKeySpec KEY = new SecretKeySpec(new byte[32], "HmacSHA256");

    @Test
    void aSealedMessageChangedInTheStoreIsRefusedAndLeftAsItWas() throws SQLException {
        Sessions node = node().sealWith(KEY).build();
        String id = node.start(new Mailbox(), null).id();
        node.send(id, "genuine");
        execute("UPDATE weft_messages SET payload = ? WHERE session_id = ?", StateCodec.value("forged"), id);
        Map<String, Object> before = suite().storedRow(id);
        SessionRefusedException byId = assertThrows(SessionRefusedException.class, () -> node.runSent(id),
                "claimed by its id (on PostgreSQL, the message taken by the claim)");
        assertTrue(byId.reason().contains("it differs from what was sealed"), byId.reason());
        assertEquals(List.of("forged"), inbox(id));
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> node.runDue(List.of()));
        assertTrue(refused.reason().contains("it differs from what was sealed"), refused.reason());
        assertTrue(refused.reason().startsWith("message "), refused.reason());
        assertEquals(List.of("forged"), inbox(id));
        assertTrue(StoredRows.same(before, suite().storedRow(id)));
    }

    @Test
    void aSealedMessageMovedToAnotherSessionIsRefused() throws SQLException {
        Sessions node = node().sealWith(KEY).build();
        String to = node.start(new Mailbox(), null).id();
        String other = node.start(new Mailbox(), null).id();
        node.send(other, "for the other");
        execute("UPDATE weft_messages SET session_id = ? WHERE session_id = ?", to, other);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> node.runDue(List.of()));
        assertEquals(to, refused.sessionId());
        assertTrue(refused.reason().contains("moved from another session's inbox"), refused.reason());
    }

    @Test
    void aMessageWhoseSealWasRemovedIsRefusedByASealingNode() throws SQLException {
        Sessions node = node().sealWith(KEY).build();
        String id = node.start(new Mailbox(), null).id();
        node.send(id, "sealed");
        execute("UPDATE weft_messages SET seal = NULL WHERE session_id = ?", id);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> node.runDue(List.of()));
        assertTrue(refused.reason().contains("its seal is NULL: it was sent by a node without a key"),
                refused.reason());
        assertEquals(List.of("sealed"), inbox(id));
    }

    @Test
    void aMessageThatCannotBeReadHereIsRefusedAndLeftInTheInbox() throws SQLException {
        Sessions node = node().build();
        String id = node.start(new Mailbox(), null).id();
        node.send(id, "fine");
        byte[] garbage = {(byte) 0xac, (byte) 0xed, 0, 5, 0x73, 0x72, 0, 1, 'X'};
        execute("UPDATE weft_messages SET payload = ? WHERE session_id = ?", garbage, id);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> node.runDue(List.of()));
        assertTrue(refused.reason().contains("it cannot be read here"), refused.reason());
        assertEquals(1, messageCount());
    }

    // ---------------------------------------------------------------- helpers

    /** The messages in session {@code id}'s inbox, oldest first, as read by this suite's codec. */
    private List<Object> inbox(String id) {
        StateCodec codec = new StateCodec(getClass().getClassLoader());
        try (Connection connection = suite().connect(); PreparedStatement select = connection.prepareStatement(
                "SELECT payload FROM weft_messages WHERE session_id = ? ORDER BY seq")) {
            select.setString(1, id);
            List<Object> messages = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    messages.add(codec.readValue(rows.getBytes(1)));
                }
            }
            return messages;
        } catch (SQLException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private long messageCount() {
        try (Connection connection = suite().connect(); PreparedStatement select = connection.prepareStatement(
                "SELECT COUNT(*) FROM weft_messages"); ResultSet rows = select.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void execute(String sql, Object... values) throws SQLException {
        try (Connection connection = suite().connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }
    }
}
