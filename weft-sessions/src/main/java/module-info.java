/**
 * Durable sessions: suspended {@link dev.weft.AsymCoroutine}s stored in a database and resumed
 * exactly once on any node. {@link dev.weft.sessions.Sessions} is the entry point.
 *
 * <p>JDBC drivers are found by {@link java.sql.DriverManager}: SQLite's ({@code sqlite-jdbc}) for
 * the embedded store, PostgreSQL's for the other one. The packages of the session bodies' classes
 * must be open to {@code dev.weft}, which rebuilds their frames by reflection.
 *
 * <p>Metrics and traces are optional: {@code dev.weft.sessions.micrometer} needs Micrometer
 * ({@code micrometer.core}) and {@code dev.weft.sessions.opentelemetry} OpenTelemetry's API
 * ({@code io.opentelemetry.api}), each read only if present; a node that uses neither needs
 * neither.
 */
module dev.weft.sessions {
    requires transitive dev.weft;
    requires transitive java.sql;
    // the console's own server (SessionConsole.httpHandler, SessionsCommand console)
    requires jdk.httpserver;
    // not transitive: a module that reads this one compiles without them; one that binds
    // SessionsMeters or SessionsTracing requires micrometer.core or io.opentelemetry.api itself
    requires static micrometer.core;
    requires static io.opentelemetry.api;
    requires static io.opentelemetry.context;

    exports dev.weft.sessions;
    exports dev.weft.sessions.micrometer;
    exports dev.weft.sessions.opentelemetry;
}
