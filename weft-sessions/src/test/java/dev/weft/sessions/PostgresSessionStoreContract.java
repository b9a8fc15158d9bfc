package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.testing.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
}
