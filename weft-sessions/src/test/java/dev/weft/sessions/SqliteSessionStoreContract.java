package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Questionnaire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on the embedded store: a SQLite file in a temporary directory. */
abstract class SqliteSessionStoreContract extends SessionStoreContract {

    @TempDir
    Path directory;

    @Override
    SessionStore openStore() {
        return SessionStore.sqlite(directory.resolve("sessions.db"));
    }

    @Override
    Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("sessions.db"));
    }

    @Override
    SessionStore reopen() {
        return SessionStore.sqlite(directory.resolve("sessions.db"));
    }

    @Override
    java.util.List<String> commandStore() {
        return java.util.List.of("--sqlite", directory.resolve("sessions.db").toString());
    }

    @Override
    boolean rowLocks() {
        return false;
    }

    @Test
    void aDatabaseFromBeforeTheBuildsTableGetsItWhenOpenedAndItsSessionsGoOn() throws Exception {
        String id = sessions.start(new Questionnaire(), null).id();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE weft_sessions SET manifest = (SELECT manifest FROM weft_builds"
                    + " WHERE weft_builds.build = weft_sessions.build)");
            statement.execute("DROP TABLE weft_builds");
        }
        store.close();
        store = openStore();
        Sessions reopened = Sessions.builder(store).build();
        assertEquals("Where do you live, Ann?", reopened.<String, String>resume(id, "Ann").output());
        assertEquals("How old are you?", reopened.<String, String>resume(id, "Oslo").output());
        assertEquals("Ann from Oslo, 30", reopened.<String, String>resume(id, "30").output());
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet builds = statement.executeQuery("SELECT COUNT(*) FROM weft_builds")) {
            assertTrue(builds.next());
            assertEquals(1, builds.getInt(1), "the build the session moved to");
        }
    }

    @Test
    void anIndexThatNothingReadsAnyMoreIsDroppedWhenOpened() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE INDEX weft_history_started ON weft_history (started_at)");
        }
        reopen().close();
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet found = statement.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index'"
                        + " AND name = 'weft_history_started'")) {
            assertTrue(found.next());
            assertEquals(0, found.getInt(1), "the index of an older version's pruning");
        }
    }

    /** Not an outage, which retrying may mend: a path that is wrong, refused before anything is opened. */
    @Test
    void aDatabaseFileInADirectoryThatDoesNotExistIsRefusedSayingWhatToDo() {
        Path file = directory.resolve("no-such-directory").resolve("sessions.db");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> SessionStore.sqlite(file));
        assertEquals("cannot open a session store in SQLite database " + file + ": its directory " + file.getParent()
                + " does not exist; create it, or name a file in a directory that does", refused.getMessage());
        assertFalse(Files.exists(file.getParent()));
    }

    @Test
    void stepsCommitThroughAWriteAheadLogThatIsSyncedOnEveryCommit() throws Exception {
        sessions.start(new Ledger(3), "a");
        assertTrue(Files.exists(directory.resolve("sessions.db-wal")), "write-ahead log mode");
        Connection connection = store.begin();
        try (Statement statement = connection.createStatement();
                ResultSet synchronous = statement.executeQuery("PRAGMA synchronous")) {
            assertTrue(synchronous.next());
            assertEquals(2, synchronous.getInt(1), "synchronous=FULL: each commit is fsynced");
        } finally {
            store.rollbackQuietly(connection);
            store.release(connection, true);
        }
    }
}
