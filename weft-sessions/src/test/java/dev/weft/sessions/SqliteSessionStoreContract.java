package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Ledger;
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
    boolean rowLocks() {
        return false;
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
