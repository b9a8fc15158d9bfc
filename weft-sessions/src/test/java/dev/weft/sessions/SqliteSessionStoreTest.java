package dev.weft.sessions;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.io.TempDir;

/** The contract on the embedded store: a SQLite file in a temporary directory. */
class SqliteSessionStoreTest extends SessionStoreContract {

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
}
