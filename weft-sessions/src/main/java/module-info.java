/**
 * Durable sessions: suspended {@link dev.weft.AsymCoroutine}s stored in a database and resumed
 * exactly once on any node. {@link dev.weft.sessions.Sessions} is the entry point.
 *
 * <p>JDBC drivers are found by {@link java.sql.DriverManager}: SQLite's ({@code sqlite-jdbc}) for
 * the embedded store, PostgreSQL's for the other one. The packages of the session bodies' classes
 * must be open to {@code dev.weft}, which rebuilds their frames by reflection.
 */
module dev.weft.sessions {
    requires transitive dev.weft;
    requires transitive java.sql;

    exports dev.weft.sessions;
}
