package dev.weft.sessions;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The store's connections: idle ones are kept for the next operation, at most {@code maxIdle} of
 * them; a connection that saw an error is closed rather than kept. A connection given back that
 * the driver has closed died with its server or its link (an outage, a restart), as the idle ones
 * opened before it most likely did: they are closed too, so that after an outage one operation
 * fails on a dead connection, not one for each idle one. Any thread.
 */
final class ConnectionPool implements AutoCloseable {

    /** Opens a new connection. */
    interface Opener {
        Connection open() throws SQLException;
    }

    private final Opener opener;
    private final int maxIdle;
    private final java.util.function.Consumer<Connection> onClose;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private boolean closed;

    /** A pool that calls {@code onClose} for each connection it closes. */
    ConnectionPool(Opener opener, int maxIdle, java.util.function.Consumer<Connection> onClose) {
        this.opener = opener;
        this.maxIdle = maxIdle;
        this.onClose = onClose;
    }

    Connection take() throws SQLException {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the session store is closed");
            }
            Connection connection = idle.pollFirst();
            if (connection != null) {
                return connection;
            }
        }
        return opener.open();
    }

    /** Gives {@code connection} back; {@code healthy} false closes it, and the idle ones too if it died. */
    void give(Connection connection, boolean healthy) {
        if (healthy) {
            synchronized (this) {
                if (!closed && idle.size() < maxIdle) {
                    idle.addFirst(connection);
                    return;
                }
            }
        }
        if (!healthy && isDead(connection)) {
            dropIdle();
        }
        closeQuietly(connection);
    }

    private static boolean isDead(Connection connection) {
        try {
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    private void dropIdle() {
        List<Connection> dropped;
        synchronized (this) {
            dropped = List.copyOf(idle);
            idle.clear();
        }
        dropped.forEach(this::closeQuietly);
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            idle.forEach(this::closeQuietly);
            idle.clear();
        }
    }

    private void closeQuietly(Connection connection) {
        onClose.accept(connection);
        try {
            connection.close();
        } catch (SQLException e) {
            // it is being dropped: nothing depends on how it ends
        }
    }
}
