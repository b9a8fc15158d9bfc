package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Gate;
import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Turnstile;
import dev.weft.sessions.testing.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The contract on PostgreSQL: a real server that the test starts ({@link PostgresServer}), a database per test. */
abstract class PostgresSessionStoreContract extends SessionStoreContract {

    private String url;

    @Override
    SessionStore openStore() {
        url = PostgresServer.shared().newDatabase("contract");
        return SessionStore.postgres(url, "postgres", null);
    }

    @Override
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, "postgres", null);
    }

    @Override
    SessionStore reopen() {
        return SessionStore.postgres(url, "postgres", null);
    }

    @Override
    java.util.List<String> commandStore() {
        return java.util.List.of("--postgres", url, "--user", "postgres");
    }

    @Override
    boolean rowLocks() {
        return true;
    }

    @Test
    void theStoreIsARealPostgreSQLServer() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet version = statement.executeQuery("SELECT version()")) {
            assertTrue(version.next());
            assertTrue(version.getString(1).startsWith("PostgreSQL "), version.getString(1) + " from "
                    + PostgresServer.shared().binaries());
        }
    }

    // ---------------------------------------------------------------- a step's UPDATE sent with its COMMIT

    @Test
    void aStepThatWritesNothingOfItsOwnIsCommittedWithItsUpdateAndLeavesNoTransactionOpen() throws SQLException {
        String id = sessions.<String, String>start(new Turnstile(), "a").id();
        for (String input : List.of("b", "c", "d")) {
            sessions.<String, String>resume(id, input);
            assertEquals(0, openTransactions(), "after the step answering " + input);
        }
        try (SessionStore other = reopen()) {
            Sessions node2 = Sessions.builder(other).engine(engine()).build();
            SessionStep<String> step = node2.resume(id, 4, "e");
            assertEquals("5:e", step.output());
            assertEquals(5, step.version());
        }
    }

    @Test
    void theLoserOfARaceWithAStepThatStoresWithItsCommitIsBusyAndRunsNothing() throws Exception {
        Sessions node2 = builder().build();
        String id = sessions.<String, String>start(new Turnstile(), "a").id();
        Gate.reset();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<SessionStep<String>> held = other.submit(() -> sessions.resume(id, 1, "gate"));
            Gate.awaitArrival();
            SessionBusyException busy = assertThrows(SessionBusyException.class, () -> node2.resume(id, 1, "b"));
            assertEquals("session " + id + ": busy: another step of this session is running (the session's row is"
                    + " locked by another transaction); nothing ran, try again", busy.getMessage());
            Gate.open();
            assertEquals("2:gate", held.get().output());
        } finally {
            Gate.open();
            other.shutdown();
        }
        SessionConflictException late = assertThrows(SessionConflictException.class, () -> node2.resume(id, 1, "b"));
        assertEquals("2:gate", late.lastOutput());
        assertEquals("3:c", node2.<String, String>resume(id, 2, "c").output());
    }

    @Test
    void aStepWhoseUpdateTheDatabaseRefusesCommitsNothingWithOrWithoutWritesOfItsOwn() throws SQLException {
        String quiet = sessions.<String, String>start(new Turnstile(), "a").id();
        String writing = sessions.<String, String>start(new Ledger(5), "a").id();
        sessions.<String, String>resume(quiet, "b");
        sessions.<String, String>resume(writing, "b");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE FUNCTION refuse_step_3() RETURNS trigger AS $$ BEGIN IF NEW.version = 3 THEN"
                    + " RAISE EXCEPTION 'step 3 refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql");
            statement.execute("CREATE TRIGGER refuse_step_3 BEFORE UPDATE ON weft_sessions FOR EACH ROW"
                    + " EXECUTE FUNCTION refuse_step_3()");
        }
        for (String id : List.of(quiet, writing)) {
            SessionException refused = assertThrows(SessionException.class, () -> sessions.resume(id, 2, "c"));
            assertTrue(refused.getMessage().contains("step 3 refused")
                    && refused.getMessage().contains("the session stays at its last stored version"), refused.getMessage());
            assertEquals(2, sessions.status(id).orElseThrow().version());
        }
        assertEquals(0, openTransactions());
        assertEquals(List.of("1:a", "2:b"), ledger(writing));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TRIGGER refuse_step_3 ON weft_sessions");
        }
        assertEquals("3:c", sessions.<String, String>resume(quiet, 2, "c").output());
        assertEquals("after step 3", sessions.<String, String>resume(writing, 2, "c").output());
        assertEquals(List.of("1:a", "2:b", "3:c"), ledger(writing));
    }

    @Test
    void aResidentStepThatWritesNothingOfItsOwnAndFindsTheSessionMovedOnCommitsNothingAndRunsFromTheStore()
            throws SQLException {
        Sessions resident = builder().keepResident(10).build();
        String id = resident.<String, String>start(new Turnstile(), "a").id();
        assertEquals("2:b", resident.<String, String>resume(id, "b").output());
        assertEquals("3:c", sessions.<String, String>resume(id, "c").output());
        SessionStep<String> step = resident.resume(id, "d");
        assertEquals("4:d", step.output(), "run from the stored state, not from the resident coroutine at step 2");
        assertEquals(4, step.version());
        assertEquals(4, sessions.status(id).orElseThrow().version());
        assertEquals(0, openTransactions());
        assertEquals("5:e", resident.<String, String>resume(id, "e").output());
        assertEquals("6:f", sessions.<String, String>resume(id, 5, "f").output());
    }

    // ---------------------------------------------------------------- waits across nodes

    @Test
    void aWaitStoredByOneNodeWakesAnotherNodesWorkersThroughNotifyWithoutWaitingForThePoll() throws Exception {
        try (SessionStore otherStore = reopen();
                Sessions listening = Sessions.builder(otherStore).engine(engine()).pollEvery(Duration.ofMinutes(10))
                        .workers(1).keepFinished(true).build()) {
            SessionWaitsContract.awaitTrue(() -> listeners(this) == 1, () -> "the other node to listen");
            String id = sessions.start(new dev.weft.sessions.flows.Alarm(), Duration.ZERO).id();
            SessionWaitsContract.awaitTrue(() -> listening.status(id).orElseThrow().status() == SessionStatus.FINISHED,
                    () -> "the other node's worker to run session " + id);
            assertEquals("woke at step 2, timed out true, input null", listening.lastOutput(id).orElseThrow());
            assertEquals(0, openTransactions());
        }
    }

    /** How many connections to {@code suite}'s database listen for due sessions (a node's listener each). */
    static long listeners(SessionStoreContract suite) {
        try (Connection connection = suite.connect(); Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE datname ="
                        + " current_database() AND query LIKE 'LISTEN %'")) {
            count.next();
            return count.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How many connections to this test's database are inside a transaction, this one's aside. */
    // ---------------------------------------------------------------- indexes of an older database

    /** Whether index {@code name} exists and is valid. */
    private boolean validIndex(String name) throws SQLException {
        try (Connection connection = connect(); java.sql.PreparedStatement select = connection.prepareStatement(
                "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ?")) {
            select.setString(1, name);
            try (ResultSet found = select.executeQuery()) {
                return found.next() && found.getBoolean(1);
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * A missing index is built concurrently: while a transaction that wrote the table is open,
     * the build waits for it, and meanwhile the other nodes' steps run (a plain CREATE INDEX
     * would queue every writer behind itself).
     */
    @Test
    void aMissingIndexIsBuiltWhileTheOtherNodesGoOnWriting() throws Exception {
        String writing = sessions.<String, String>start(new Turnstile(), "a").id();
        String other = sessions.<String, String>start(new Turnstile(), "a").id();
        execute("DROP INDEX weft_sessions_status");
        ExecutorService opening = Executors.newFixedThreadPool(2);
        try (Connection open = connect(); Statement statement = open.createStatement()) {
            open.setAutoCommit(false);
            statement.executeUpdate("UPDATE weft_sessions SET updated_at = updated_at WHERE id = '" + writing + "'");
            Future<SessionStore> reopened = opening.submit(this::reopen);
            awaitActivity("CREATE INDEX CONCURRENTLY IF NOT EXISTS weft_sessions_status%");
            Future<SessionStep<String>> step = opening.submit(() -> sessions.resume(other, 1, "b"));
            assertEquals("2:b", step.get(1, java.util.concurrent.TimeUnit.MINUTES).output(),
                    "a step runs while the index is being built (a guard against a hang, not a timing)");
            open.commit();
            reopened.get().close();
        } finally {
            opening.shutdownNow();
        }
        assertTrue(validIndex("weft_sessions_status"));
    }

    @Test
    void anIndexThatABuildLeftInvalidIsBuiltAgain() throws SQLException {
        execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'weft_history_started'::regclass");
        assertTrue(!validIndex("weft_history_started"));
        reopen().close();
        assertTrue(validIndex("weft_history_started"));
    }

    @Test
    void aNodeThatFindsAnotherBuildingIndexesGoesOnWithoutThem() throws SQLException {
        execute("DROP INDEX weft_sessions_created");
        try (Connection builder = connect(); Statement statement = builder.createStatement()) {
            statement.execute("SELECT pg_advisory_lock(7218)"); // another node building
            try (SessionStore without = reopen()) {
                String id = Sessions.builder(without).engine(engine()).build().start(new Turnstile(), "a").id();
                assertEquals(1, Sessions.builder(without).build().status(id).orElseThrow().version());
            }
            assertTrue(!validIndex("weft_sessions_created"), "left to the node that builds");
            statement.execute("SELECT pg_advisory_unlock(7218)");
        }
        reopen().close();
        assertTrue(validIndex("weft_sessions_created"));
    }

    /** Waits until a statement like {@code pattern} runs on the database: an event, not a time. */
    private void awaitActivity(String pattern) throws Exception {
        try (Connection connection = connect(); java.sql.PreparedStatement select = connection.prepareStatement(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE query LIKE ? AND pid <> pg_backend_pid()")) {
            select.setString(1, pattern);
            for (int attempt = 0; attempt < 6_000; attempt++) {
                try (ResultSet count = select.executeQuery()) {
                    count.next();
                    if (count.getLong(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(10);
            }
        }
        throw new AssertionError("no statement like " + pattern + " ran within a minute");
    }

    private long openTransactions() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE datname ="
                        + " current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'")) {
            count.next();
            return count.getLong(1);
        }
    }
}
