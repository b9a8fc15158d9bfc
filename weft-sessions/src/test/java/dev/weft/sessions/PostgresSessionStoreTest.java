package dev.weft.sessions;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The contract on PostgreSQL: a real server that the test starts ({@link PostgresServer}), a database per test. */
class PostgresSessionStoreTest extends SessionStoreContract {

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
    boolean rowLocks() {
        return true;
    }
}
