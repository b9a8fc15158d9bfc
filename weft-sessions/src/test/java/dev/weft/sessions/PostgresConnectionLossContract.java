package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymRunnable;
import dev.weft.Engine;
import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Turnstile;
import dev.weft.sessions.testing.PostgresProxy;
import dev.weft.sessions.testing.PostgresProxy.Cut;
import dev.weft.sessions.testing.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node whose connection to a real PostgreSQL server is lost at each point of a step, through a
 * {@link PostgresProxy} between the node and the server: before the step's statements and after
 * its {@code UPDATE} (nothing is stored, and the node says so), and after its {@code COMMIT}
 * (the step is stored, and the node says it may be). The rows are checked over a connection of
 * their own, not through the proxy. One subclass per engine.
 */
abstract class PostgresConnectionLossContract {

    private String database;
    private PostgresProxy proxy;
    private SessionStore store;
    private Sessions sessions;

    abstract Engine engine();

    @BeforeEach
    void open() throws SQLException {
        String url = PostgresServer.shared().newDatabase("loss");
        database = url.substring(url.lastIndexOf('/') + 1);
        proxy = PostgresProxy.to(PostgresServer.shared().port());
        store = SessionStore.postgres(proxy.url(database), "postgres", null);
        sessions = Sessions.builder(store).engine(engine()).build();
        try (Connection connection = connect()) {
            connection.createStatement().execute("CREATE TABLE ledger (session VARCHAR(64), step INT,"
                    + " input VARCHAR(100))");
        }
    }

    @AfterEach
    void close() {
        store.close();
        proxy.close();
    }

    /** A connection to the database that does not go through the proxy. */
    private Connection connect() throws SQLException {
        return DriverManager.getConnection(PostgresServer.shared().url(database), "postgres", null);
    }

    // ---------------------------------------------------------------- the store cannot be reached

    @Test
    void aStoreOpenedWhileTheServerCannotBeReachedIsUnavailableAndARefusalIsNot() {
        proxy.down();
        SessionStoreUnavailableException down = assertThrows(SessionStoreUnavailableException.class,
                () -> SessionStore.postgres(proxy.url(database), "postgres", null));
        assertNull(down.sessionId());
        assertTrue(down.getMessage().startsWith("cannot reach PostgreSQL at " + proxy.url(database) + " to open the"
                + " session store, nothing was stored; try again once it can be reached: "), down.getMessage());
        proxy.up();
        SessionStore.postgres(proxy.url(database), "postgres", null).close();
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> SessionStore.postgres(proxy.url("no_such_database"), "postgres", null));
        assertTrue(refused.getMessage().contains("no_such_database"), refused.getMessage());
    }

    @Test
    void aStepOrStartWhileTheServerCannotBeReachedIsUnavailableAndStoresNothing() throws SQLException {
        String id = sessions.<String, String>start(new Ledger(5), "a").id();
        sessions.resume(id, 1, "b");
        Map<String, Object> before = row(id);
        proxy.down();
        SessionStoreUnavailableException resumed = assertThrows(SessionStoreUnavailableException.class,
                () -> sessions.resume(id, 2, "c"));
        assertEquals(id, resumed.sessionId());
        assertTrue(resumed.getMessage().contains("its step could not be stored; the session stays at its last stored"
                + " version; try again once it can be reached"), resumed.getMessage());
        assertThrows(SessionStoreUnavailableException.class, () -> sessions.start("chosen", new Ledger(5), "a"));
        assertThrows(SessionStoreUnavailableException.class, () -> sessions.status(id));
        assertThrows(SessionStoreUnavailableException.class, sessions::list);
        proxy.up();
        assertUnchanged(id, before, List.of("1:a", "2:b"));
        assertEquals("after step 3", sessions.<String, String>resume(id, 2, "c").output());
        assertTrue(sessions.status("chosen").isEmpty());
    }

    @Test
    void afterAnOutageOneOperationAtMostFailsOnADeadPooledConnection() throws SQLException {
        String id = sessions.<String, String>start(new Ledger(5), "a").id();
        List<Connection> held = List.of(store.begin(), store.begin(), store.begin());
        for (Connection connection : held) {
            store.release(connection, store.rollbackQuietly(connection));
        }
        proxy.down();
        proxy.up();
        int failed = 0;
        for (int i = 0; i < held.size() + 1; i++) {
            try {
                sessions.status(id);
            } catch (SessionStoreUnavailableException e) {
                failed++;
            }
        }
        assertTrue(failed <= 1, failed + " operations failed on pooled connections the outage killed");
        assertEquals("after step 2", sessions.<String, String>resume(id, 1, "b").output());
    }

    // ---------------------------------------------------------------- lost before the COMMIT was sent

    @Test
    void aConnectionLostBeforeTheStepsStatementsIsUnavailableAndStoresNothing() throws SQLException {
        for (AsymRunnable<String, String> body : bodies()) {
            String id = sessions.<String, String>start(body, "a").id();
            Map<String, Object> before = row(id);
            List<String> ledger = ledger(id);
            int cuts = proxy.cuts();
            proxy.cut(Cut.BEFORE_NEXT_STATEMENT);
            SessionStoreUnavailableException lost = assertThrows(SessionStoreUnavailableException.class,
                    () -> sessions.resume(id, 1, "b"));
            assertTrue(lost.getMessage().contains("the session stays at its last stored version"), lost.getMessage());
            assertEquals(cuts + 1, proxy.cuts());
            assertUnchanged(id, before, ledger);
            assertResumes(id, body);
        }
    }

    @Test
    void aConnectionLostAfterTheUpdateBeforeTheCommitWasSentIsUnavailableAndStoresNothing() throws SQLException {
        String id = sessions.<String, String>start(new Ledger(5), "a").id();
        Map<String, Object> before = row(id);
        proxy.cut(Cut.AFTER_UPDATE);
        SessionStoreUnavailableException lost = assertThrows(SessionStoreUnavailableException.class,
                () -> sessions.resume(id, 1, "b"));
        assertTrue(lost.getMessage().contains("the session stays at its last stored version"), lost.getMessage());
        assertEquals(1, proxy.cuts());
        assertUnchanged(id, before, List.of("1:a"));
        assertResumes(id, new Ledger(5));
    }

    /**
     * A step that writes nothing of its own sends its UPDATE with its COMMIT: lost after the
     * UPDATE reached the server, its COMMIT was sent too, so the node cannot tell; the server
     * rolled it back, which is why the node says "may".
     */
    @Test
    void aStepWhoseUpdateGoesWithItsCommitIsInDoubtWhenLostAfterTheUpdate() throws SQLException {
        String id = sessions.<String, String>start(new Turnstile(), "a").id();
        Map<String, Object> before = row(id);
        proxy.cut(Cut.AFTER_UPDATE);
        SessionOutcomeUnknownException unknown = assertThrows(SessionOutcomeUnknownException.class,
                () -> sessions.resume(id, 1, "b"));
        assertEquals(1, unknown.versionBefore());
        assertUnchanged(id, before, List.of());
        assertEquals("2:b", sessions.<String, String>resume(id, unknown.versionBefore(), "b").output());
    }

    // ---------------------------------------------------------------- lost after the COMMIT was sent

    @Test
    void aStepWhoseCommitsReplyIsLostIsInDoubtAndAResendWithItsVersionIsNotTakenTwice() throws SQLException {
        for (AsymRunnable<String, String> body : bodies()) {
            Sessions resident = Sessions.builder(store).engine(engine()).keepResident(10).build();
            for (Sessions node : List.of(sessions, resident)) {
                String id = node.<String, String>start(body, "a").id();
                int cuts = proxy.cuts();
                proxy.cut(Cut.AFTER_COMMIT);
                SessionOutcomeUnknownException unknown = assertThrows(SessionOutcomeUnknownException.class,
                        () -> node.resume(id, 1, "b"));
                assertEquals(id, unknown.sessionId());
                assertEquals(1, unknown.versionBefore());
                assertEquals(2, unknown.versionIfStored());
                assertTrue(unknown.getMessage().startsWith("session " + id + ": the connection to PostgreSQL at "
                        + proxy.url(database) + " was lost after the COMMIT of step 2 was sent, so it may have been"
                        + " stored: status(\"" + id + "\") says whether it was (version 2, or no session if the step"
                        + " ended it, means it was; version 1 that it was not); resume(\"" + id + "\", 1, input) runs"
                        + " it if it was not"), unknown.getMessage());
                assertEquals(cuts + 1, proxy.cuts());
                assertEquals(2, node.status(id).orElseThrow().version(), "the step was stored");
                SessionConflictException resent = assertThrows(SessionConflictException.class,
                        () -> node.resume(id, unknown.versionBefore(), "b"));
                assertEquals(2, resent.currentVersion());
                assertEquals(body instanceof Ledger ? List.of("1:a", "2:b") : List.of(), ledger(id));
            }
        }
    }

    @Test
    void aStartWhoseCommitsReplyIsLostIsInDoubtAndCarriesTheNewId() {
        proxy.cut(Cut.AFTER_COMMIT);
        SessionOutcomeUnknownException unknown = assertThrows(SessionOutcomeUnknownException.class,
                () -> sessions.start(new Turnstile(), "a"));
        String id = unknown.sessionId();
        assertNotNull(id);
        assertEquals(0, unknown.versionBefore());
        assertEquals(1, unknown.versionIfStored());
        assertTrue(unknown.getMessage().contains("was lost after the COMMIT of its start was sent, so it may have been"
                + " stored: status(\"" + id + "\") says whether it was; start(\"" + id + "\", body, first) starts it"
                + " if it was not"), unknown.getMessage());
        assertEquals(1, sessions.status(id).orElseThrow().version(), "the start was stored");
        SessionConflictException resent = assertThrows(SessionConflictException.class,
                () -> sessions.start(id, new Turnstile(), "a"));
        assertEquals("1:a", resent.lastOutput());
    }

    // ---------------------------------------------------------------- the step history

    /** A node on the proxied store that keeps a step history, on a clock that stands still (it prunes once). */
    private Sessions.Builder keepingHistory() {
        return Sessions.builder(store).engine(engine()).clock(new MutableClock(SessionWaitsContract.T0))
                .keepHistory(java.time.Duration.ofDays(1)).nodeName("keeping");
    }

    @Test
    void aStepThatWritesItsHistoryEntryTakesTheRoundTripsOfOneThatDoesNot() {
        for (AsymRunnable<String, String> body : List.<AsymRunnable<String, String>>of(new Ledger(50),
                new Turnstile())) {
            for (int resident : List.of(0, 10)) {
                Sessions plain = Sessions.builder(store).engine(engine()).keepResident(resident).build();
                Sessions keeping = keepingHistory().keepResident(resident).build();
                String plainId = plain.<String, String>start(body, "a").id();
                String keepingId = keeping.<String, String>start(body, "a").id();
                for (int step = 0; step < 8; step++) { // past the driver's threshold for server-prepared statements
                    plain.resume(plainId, "b");
                    keeping.resume(keepingId, "b");
                }
                String kind = body.getClass().getSimpleName() + (resident > 0 ? ", resident" : "");
                assertEquals(roundTrips(() -> plain.resume(plainId, "c")), roundTrips(() -> keeping.resume(keepingId,
                        "c")), kind);
                assertEquals(10, keeping.history(keepingId).size(), kind);
            }
        }
    }

    /** How many round trips {@code step} takes through the proxy. */
    private int roundTrips(Runnable step) {
        int before = proxy.roundTrips();
        step.run();
        return proxy.roundTrips() - before;
    }

    @Test
    void aStepWithHistoryLostBeforeItsCommitLeavesNoEntryAndOneLostAfterItLeavesItsEntry() throws SQLException {
        Sessions keeping = keepingHistory().build();
        for (AsymRunnable<String, String> body : bodies()) {
            String id = keeping.<String, String>start(body, "a").id();
            Map<String, Object> before = row(id);
            int cuts = proxy.cuts();
            proxy.cut(Cut.AFTER_UPDATE);
            SessionException lost = assertThrows(SessionException.class, () -> keeping.resume(id, 1, "b"));
            assertTrue(lost instanceof SessionStoreUnavailableException || lost instanceof SessionOutcomeUnknownException,
                    lost.toString());
            assertEquals(cuts + 1, proxy.cuts(), "cut after the UPDATE that writes the entry");
            assertUnchanged(id, before, body instanceof Ledger ? List.of("1:a") : List.of());
            assertEquals(List.of(1L), keeping.history(id).stream().map(SessionHistoryEntry::version).toList());
            proxy.cut(Cut.AFTER_COMMIT);
            assertThrows(SessionOutcomeUnknownException.class, () -> keeping.resume(id, 1, "b"));
            assertEquals(2, keeping.status(id).orElseThrow().version(), "the step was stored");
            assertEquals(List.of(1L, 2L), keeping.history(id).stream().map(SessionHistoryEntry::version).toList(),
                    "and its entry with it");
        }
    }

    // ---------------------------------------------------------------- helpers

    /** A body that writes through the step's connection (its UPDATE and COMMIT go apart) and one that does not. */
    private static List<AsymRunnable<String, String>> bodies() {
        return List.of(new Ledger(5), new Turnstile());
    }

    private Map<String, Object> row(String id) throws SQLException {
        try (Connection connection = connect()) {
            return StoredRows.read(connection, id);
        }
    }

    private void assertUnchanged(String id, Map<String, Object> before, List<String> ledger) throws SQLException {
        assertTrue(StoredRows.same(before, row(id)), "left byte for byte as it was: " + StoredRows.describe(row(id)));
        assertEquals(ledger, ledger(id));
    }

    /** The session resumes from where it was left, as if nothing had been tried. */
    private void assertResumes(String id, AsymRunnable<String, String> body) {
        assertEquals(body instanceof Ledger ? "after step 2" : "2:b", sessions.<String, String>resume(id, 1, "b")
                .output());
    }

    private List<String> ledger(String id) throws SQLException {
        try (Connection connection = connect()) {
            return StoredRows.ledger(connection, id);
        }
    }
}
