package dev.weft.sessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;

/**
 * The sessions' durable inboxes: table {@code weft_messages}, one row per message sent and not
 * yet consumed, numbered in the order the sends were made ({@code seq}, the database's own
 * counter). A message is consumed by the step that takes it, in that step's transaction: gone
 * when the step commits, still there if it rolls back. A session's messages are deleted with the
 * session. Column {@code trace_parent} holds the trace context a message was sent in, when the
 * sending node has observers that give one ({@link SessionObserver#messageTrace()}), else NULL
 * (added to a table from before it when a store is opened). All statements run in the caller's
 * transaction; stateless; any thread.
 *
 * <p>Sending never waits for a running step of the session. PostgreSQL: a send reads the
 * session's row {@code FOR KEY SHARE}, which a step's {@code FOR NO KEY UPDATE} does not block,
 * while the {@code DELETE} that ends a session waits for the sends under way; the messages are
 * deleted after the session's row, by a statement that sees those sends committed, so that no
 * message outlives its session. SQLite: one writer at a time does the same.
 */
final class Inbox {

    /** One message as stored. */
    record Message(long seq, String sessionId, byte[] payload, long sentAt, byte[] seal, String trace) {
    }

    private final boolean postgres;

    Inbox(boolean postgres) {
        this.postgres = postgres;
    }

    /** Creates the table if missing (its index is {@link StoreIndexes}'). */
    void create(Statement statement, String bytes) throws SQLException {
        statement.execute("CREATE TABLE IF NOT EXISTS weft_messages (seq "
                + (postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT")
                + ", session_id VARCHAR(64) NOT NULL, payload " + bytes + " NOT NULL, sent_at BIGINT NOT NULL, seal "
                + bytes + ")");
    }

    /**
     * The stored status of session {@code id}, read for a send (PostgreSQL: holding its key, so
     * that the session's row is not deleted before the send commits); null if there is none.
     */
    String statusForSend(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT status FROM weft_sessions WHERE id = ?"
                + (postgres ? " FOR KEY SHARE" : ""))) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    /**
     * Adds a message to session {@code id}'s inbox, with the trace context it was sent in (null
     * for none); on PostgreSQL, with a notification that wakes every node's workers when this
     * transaction commits, on {@link SessionStore#notifyDue}'s channel, its payload the
     * session's id, which the workers claim first.
     */
    void add(Connection connection, String id, byte[] payload, long sentAt, byte[] seal, String trace)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO weft_messages (session_id, payload,"
                + " sent_at, seal, trace_parent) VALUES (?, ?, ?, ?, ?)")) {
            insert.setString(1, id);
            insert.setBytes(2, payload);
            insert.setLong(3, sentAt);
            insert.setBytes(4, seal);
            insert.setString(5, trace);
            insert.executeUpdate();
        }
        if (postgres) {
            try (PreparedStatement notify = connection.prepareStatement("SELECT pg_notify('" + SessionStore.DUE_CHANNEL
                    + "', ?)")) {
                notify.setString(1, id);
                notify.execute();
            }
        }
    }

    /**
     * Deletes the oldest message of session {@code id} in this transaction, which consumes it
     * when it commits, and returns it; null if the inbox is empty. One statement
     * ({@code DELETE ... RETURNING}): a caller that will not take the message rolls the
     * transaction back, which leaves it in the inbox.
     */
    Message takeOldest(Connection connection, String id) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM weft_messages WHERE seq = (SELECT seq"
                + " FROM weft_messages WHERE session_id = ? ORDER BY seq LIMIT 1) RETURNING seq, payload, sent_at, seal,"
                + " trace_parent")) {
            delete.setString(1, id);
            try (ResultSet rows = delete.executeQuery()) {
                return rows.next() ? new Message(rows.getLong(1), id, rows.getBytes(2), rows.getLong(3),
                        rows.getBytes(4), rows.getString(5)) : null;
            }
        }
    }

    /** Deletes every message of session {@code id}, after its row was deleted in this transaction, or it ended. */
    void clear(Connection connection, String id) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM weft_messages WHERE session_id = ?")) {
            delete.setString(1, id);
            delete.executeUpdate();
        }
    }

    /** Sessions that wait for a message and have one, but those in {@code skipped}: FROM and WHERE. */
    private static String delivering(Collection<String> skipped) {
        return " FROM weft_messages m JOIN weft_sessions s ON s.id = m.session_id WHERE s.status = 'SUSPENDED'"
                + " AND s.wait_kind = '" + SessionWait.Kind.MESSAGE.name() + "'" + SessionStore.notIn("s.id", skipped);
    }

    /** Sessions that wait for a message and have one (FROM and WHERE, the session as {@code s}): those due for one. */
    String deliverable() {
        return delivering(java.util.List.of());
    }

    /** Whether a session but those in {@code skipped} waits for a message and has one, read without a lock. */
    boolean anyDeliverable(Connection connection, Collection<String> skipped) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT 1" + delivering(skipped) + " LIMIT 1")) {
            SessionStore.bindIds(select, 1, skipped);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        }
    }

    /**
     * The query that claims, for its transaction, the session that waits for a message and has
     * had one the longest, but those in {@code skipped} (its parameters: their ids): the columns
     * {@code columns} of its row ({@code s}), or none. PostgreSQL: its row is locked, rows other
     * transactions hold passed over ({@code SKIP LOCKED}); SQLite: the transaction holds the
     * write lock already.
     */
    String claim(String columns, Collection<String> skipped) {
        return "SELECT " + columns + delivering(skipped) + " ORDER BY m.seq LIMIT 1"
                + (postgres ? " FOR NO KEY UPDATE OF s SKIP LOCKED" : "");
    }
}
