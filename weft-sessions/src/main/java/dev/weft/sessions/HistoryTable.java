package dev.weft.sessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The sessions' step history: table {@code weft_history}, one row per committed step of a
 * session run by a node that keeps history ({@link Sessions.Builder#keepHistory}), numbered in
 * the order they were written ({@code seq}, the database's own counter). A row is written by the
 * statement that stores its step's row, or right after it on the same connection, so that it
 * commits with the step or not at all ({@link SessionStore}). It is a log, not sealed: what it
 * holds is shown, never acted on. The SQL only; the statements run in the caller's transaction.
 * Stateless; any thread.
 *
 * <p>Indexes: {@code (session_id, seq)}, which reads one session's history and deletes it with the
 * session; {@code (started_at)}, by which old rows are pruned ({@link StepHistory}).
 */
final class HistoryTable {

    /**
     * One step as its row holds it: the session's id and version once the step was stored, when
     * it began (epoch milliseconds of the nodes' clock) and on which node, how long it ran (in
     * microseconds), on which engine (null if no code ran), and what it left: a status's name,
     * what the session waits for until when (null for nothing or no time) and the failure.
     */
    record Entry(String sessionId, long version, long startedAt, String node, long durationMicros, String engine,
            String status, String waitKind, Long dueAt, String failure) {
    }

    private static final String COLUMNS = "session_id, version, started_at, node, duration_us, engine, status,"
            + " wait_kind, due_at, failure";
    private static final String PARAMETERS = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

    /** The statement that writes one entry. */
    static final String INSERT = "INSERT INTO weft_history (" + COLUMNS + ") VALUES (" + PARAMETERS + ")";

    /** The longest node name a row holds. */
    static final int MAX_NODE = 200;

    private final boolean postgres;

    HistoryTable(boolean postgres) {
        this.postgres = postgres;
    }

    /** Creates the table if missing (its indexes are {@link StoreIndexes}'): a database from before history gets it when opened. */
    void create(Statement statement) throws SQLException {
        statement.execute("CREATE TABLE IF NOT EXISTS weft_history (seq "
                + (postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY") + ", session_id VARCHAR(64) NOT NULL,"
                + " version BIGINT NOT NULL, started_at BIGINT NOT NULL, node VARCHAR(" + MAX_NODE + "),"
                + " duration_us BIGINT NOT NULL, engine VARCHAR(16), status VARCHAR(16) NOT NULL,"
                + " wait_kind VARCHAR(16), due_at BIGINT, failure TEXT)");
    }

    /**
     * PostgreSQL: {@code write}, a statement that writes a session's row and returns its id
     * ({@code RETURNING id}), and the entry's INSERT, as one statement: the entry is written once
     * per row written, so that the statement's count is the row's (0 if it found no row, and then
     * no entry is written), and it costs no round trip of its own. Its parameters: {@code write}'s,
     * then the entry's ({@link #bind}).
     */
    static String writingWith(String write) {
        return "WITH stored AS (" + write + " RETURNING id) INSERT INTO weft_history (" + COLUMNS + ") SELECT "
                + PARAMETERS + " FROM stored";
    }

    /**
     * Binds {@code entry} to the parameters of {@link #INSERT}, or of {@link #writingWith}'s
     * INSERT, from {@code first} on.
     */
    static void bind(PreparedStatement statement, int first, Entry entry) throws SQLException {
        statement.setString(first, entry.sessionId());
        statement.setLong(first + 1, entry.version());
        statement.setLong(first + 2, entry.startedAt());
        statement.setString(first + 3, entry.node());
        statement.setLong(first + 4, entry.durationMicros());
        statement.setString(first + 5, entry.engine());
        statement.setString(first + 6, entry.status());
        statement.setString(first + 7, entry.waitKind());
        if (entry.dueAt() == null) {
            statement.setNull(first + 8, Types.BIGINT);
        } else {
            statement.setLong(first + 8, entry.dueAt());
        }
        statement.setString(first + 9, entry.failure());
    }

    /** Session {@code id}'s entries, in the order they were written. */
    List<Entry> read(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM weft_history"
                + " WHERE session_id = ? ORDER BY seq")) {
            select.setString(1, id);
            List<Entry> entries = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    long due = rows.getLong(9);
                    Long dueAt = rows.wasNull() ? null : due;
                    entries.add(new Entry(rows.getString(1), rows.getLong(2), rows.getLong(3), rows.getString(4),
                            rows.getLong(5), rows.getString(6), rows.getString(7), rows.getString(8), dueAt,
                            rows.getString(10)));
                }
            }
            return entries;
        }
    }

    /** Deletes session {@code id}'s entries, in the transaction that removes it. */
    void delete(Connection connection, String id) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM weft_history WHERE session_id = ?")) {
            delete.setString(1, id);
            delete.executeUpdate();
        }
    }

    /** Deletes at most {@code batch} entries of steps begun before {@code before}, oldest first: how many. */
    int prune(Connection connection, long before, int batch) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM weft_history WHERE seq IN (SELECT seq"
                + " FROM weft_history WHERE started_at < ? ORDER BY started_at LIMIT ?)")) {
            delete.setLong(1, before);
            delete.setInt(2, batch);
            return delete.executeUpdate();
        }
    }
}
