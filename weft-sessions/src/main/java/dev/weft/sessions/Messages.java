package dev.weft.sessions;

import dev.weft.sessions.SessionStore.Row;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;

/**
 * Messages to sessions, for {@link Sessions}: sent into a session's {@link Inbox} (in a
 * transaction of their own or the caller's), and taken by the step of a session that waits for
 * one. A message is stored as a step's output is ({@link StateCodec#value}) and, on a node with
 * a key, sealed ({@link RowSeal#sealMessage}), and with observers, with the trace context it was
 * sent in ({@link SessionObserver#messageTrace()}: not sealed, it names a trace and nothing more);
 * a message that is not trusted or cannot be read
 * here is refused with {@link SessionRefusedException} and left in the inbox. Stateless but for
 * its settings; any thread.
 */
final class Messages {

    private final SessionStore store;
    private final Inbox inbox;
    private final RowSeal seal;
    private final StateCodec codec;
    private final Clock clock;
    /** Gives a message the trace context it is sent in, and its taker that context; null with no observers. */
    private final StepObservations observations;

    Messages(SessionStore store, RowSeal seal, StateCodec codec, Clock clock, StepObservations observations) {
        this.store = store;
        this.inbox = store.inbox();
        this.seal = seal;
        this.codec = codec;
        this.clock = clock;
        this.observations = observations;
    }

    /** Sends {@code message} to session {@code id} in a transaction of its own, committed on return. */
    void send(String id, Object message) {
        byte[] payload = payload(id, message);
        Connection connection;
        try {
            connection = store.begin();
        } catch (SQLException e) {
            throw StoreFailures.of(store, id, "cannot begin a transaction to send it a message in " + store
                    + "; the message is not stored", e);
        }
        boolean committed = false;
        boolean healthy = true;
        try {
            add(connection, id, payload);
            store.commit(connection);
            committed = true;
        } catch (SQLException e) {
            healthy = false;
            throw StoreFailures.of(store, id, "its message could not be stored", e);
        } finally {
            if (!committed) {
                healthy = store.rollbackQuietly(connection) && healthy;
            }
            store.release(connection, healthy);
        }
    }

    /** Sends {@code message} to session {@code id} in the transaction of the caller's {@code connection}. */
    void send(Connection connection, String id, Object message) {
        if (connection == null) {
            throw new NullPointerException("session " + id + ": the connection to send a message in");
        }
        byte[] payload = payload(id, message);
        try {
            add(connection, id, payload);
        } catch (SQLException e) {
            throw StoreFailures.of(store, id, "its message could not be stored in the caller's transaction", e);
        }
    }

    /**
     * Puts {@code message} in session {@code id}'s inbox in this transaction, whatever the
     * session's status (the caller knows it takes messages: a child's outcome, {@link Children}).
     */
    void deliver(Connection connection, String id, Object message) throws SQLException {
        insert(connection, id, payload(id, message));
    }

    private void insert(Connection connection, String id, byte[] payload) throws SQLException {
        long now = clock.millis();
        inbox.add(connection, id, payload, now, seal.sealing() ? seal.sealMessage(id, now, payload) : null,
                observations == null ? null : observations.messageTrace());
    }

    private static byte[] payload(String id, Object message) {
        if (message == null) {
            throw new NullPointerException("session " + id + ": a message cannot be null (a step that times out"
                    + " waiting for one gets null)");
        }
        byte[] payload = StateCodec.value(message);
        if (payload == null) {
            throw new IllegalArgumentException("session " + id + ": a message of class " + message.getClass()
                    .getName() + " cannot be stored: it must be Serializable, and so must everything it holds;"
                    + " nothing is sent");
        }
        return payload;
    }

    private void add(Connection connection, String id, byte[] payload) throws SQLException {
        String status = inbox.statusForSend(connection, id);
        if (status == null) {
            throw new SessionNotFoundException(id);
        }
        if (SessionStatus.FINISHED.name().equals(status) || SessionStatus.CANCELLED.name().equals(status)) {
            throw new SessionException(id, "it has " + (status.equals("FINISHED") ? "finished" : "been cancelled")
                    + ", so no step of it will take a message; nothing is sent", null);
        }
        insert(connection, id, payload);
    }

    /**
     * For the step of {@code row}'s session, which waits for a message: its oldest message,
     * deleted in this transaction (consumed when it commits); null if its inbox is empty.
     *
     * @throws SessionRefusedException if that message is not to be trusted or cannot be read
     *         here: the caller rolls the transaction back, which leaves it in the inbox, and the
     *         step does not run
     */
    Object take(Connection connection, Row row) throws SQLException {
        return taken(row, inbox.takeOldest(connection, row.id()));
    }

    /**
     * For the step of {@code row}'s session: {@code message}, the oldest of its inbox, deleted in
     * this transaction as its claim took it ({@link SessionStore#claimMessaged}); null if there
     * was none. As {@link #take}, and refused as it would be.
     */
    Object taken(Row row, Inbox.Message message) {
        if (message == null) {
            return null;
        }
        String mismatch = seal.messageMismatch(message);
        if (mismatch != null) {
            throw refused(row, message, mismatch, null);
        }
        Object value;
        try {
            value = codec.readValue(message.payload());
        } catch (IOException | RuntimeException e) {
            throw refused(row, message, "it cannot be read here: " + e, e);
        }
        if (value == null) {
            throw refused(row, message, "its payload holds no value", null);
        }
        if (observations != null) {
            observations.messageTaken(message.trace());
        }
        return value;
    }

    private static SessionRefusedException refused(Row row, Inbox.Message message, String why, Throwable cause) {
        return new SessionRefusedException(row.id(), row.build(), "message " + message.seq() + " of its inbox (sent at "
                + Instant.ofEpochMilli(message.sentAt()) + "), the one its next step would take: " + why
                + "; it stays in the inbox", cause);
    }

    /** Deletes the messages of session {@code id}, which this transaction ends (its row deleted, or finished). */
    void ended(Connection connection, String id) throws SQLException {
        inbox.clear(connection, id);
    }
}
