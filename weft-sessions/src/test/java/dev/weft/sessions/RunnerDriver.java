package dev.weft.sessions;

import dev.weft.Engine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test's way into the store, as an application's: starts sessions and sends them messages,
 * each exactly once however often the store goes away meanwhile, through sessions of its own with
 * no workers (one per engine, taken in turn, so that first steps run on both).
 *
 * <ul>
 * <li>A start names its session: one that fails with the store unreachable stored nothing, and is
 *     made again; one whose outcome is unknown (its {@code COMMIT} was sent as the server died)
 *     is made again too, and a {@link SessionConflictException} then says that the first one was
 *     stored.
 * <li>A send goes in the driver's own transaction, with a row of table {@code sent} keyed by the
 *     message's id ({@link Sessions#send(Connection, String, Object)}): the two commit together
 *     or not at all, so after any failure, once the store can be reached again, that row says
 *     whether the message is stored, and only a message that is not is sent again. (The store
 *     goes away here only by the server's death, which ends every transaction of the old
 *     connection: what the new connection reads is the outcome.)
 * </ul>
 *
 * Counts the starts and sends whose outcome had to be found out this way, for the report. Any
 * thread.
 */
final class RunnerDriver implements AutoCloseable {

    /** Opens a connection to the store's database. */
    @FunctionalInterface
    interface Connect {
        Connection get() throws SQLException;
    }

    /** How long the driver waits for the store to come back before it fails the test. */
    private static final long PATIENCE_MILLIS = TimeUnit.MINUTES.toMillis(3);

    private final SessionStore store;
    private final Sessions[] starters;
    private final Connect connect;
    private final AtomicInteger turn = new AtomicInteger();
    /** Starts or sends that failed with the store unreachable, and were made again. */
    final AtomicInteger unreachable = new AtomicInteger();
    /** Starts or sends whose outcome was unknown, found stored. */
    final AtomicInteger inDoubtStored = new AtomicInteger();
    /** Starts or sends whose outcome was unknown, found not stored, and made again. */
    final AtomicInteger inDoubtLost = new AtomicInteger();

    RunnerDriver(SessionStore store, Connect connect) {
        this.store = store;
        this.connect = connect;
        this.starters = new Sessions[] {RunnerNode.settings(store).engine(Engine.NATIVE).build(),
            RunnerNode.settings(store).engine(Engine.WOVEN).build()};
    }

    /** Creates the tables the workload writes: the ledger, and the driver's marks of its sends. */
    static void createTables(Connection connection, boolean postgres) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE ledger (seq " + (postgres ? "BIGSERIAL PRIMARY KEY"
                    : "INTEGER PRIMARY KEY AUTOINCREMENT") + ", session VARCHAR(64), step INT, input VARCHAR(100))");
            statement.execute("CREATE TABLE sent (id VARCHAR(100) PRIMARY KEY)");
        }
    }

    /** Starts {@code session}, exactly once. */
    void start(RunnerWorkload.Planned session) {
        Sessions starter = starters[turn.getAndIncrement() % starters.length];
        boolean inDoubt = false;
        for (int tries = 1;; tries++) {
            try {
                starter.start(session.id(), session.body(), null);
                if (inDoubt) {
                    inDoubtLost.incrementAndGet();
                }
                return;
            } catch (SessionConflictException e) {
                if (!inDoubt) {
                    throw new AssertionError("session " + session.id() + " was stored before the driver started it", e);
                }
                inDoubtStored.incrementAndGet();
                return;
            } catch (SessionOutcomeUnknownException e) {
                inDoubt = true;
            } catch (SessionStoreUnavailableException | SessionBusyException e) {
                unreachable.incrementAndGet();
                giveUpAfter(tries, "start session " + session.id(), e);
            }
            awaitReachable();
        }
    }

    /** Sends {@code send}'s message, exactly once. */
    void send(RunnerWorkload.Send send) {
        for (int tries = 1;; tries++) {
            try {
                sendMarked(send);
                return;
            } catch (SQLException | SessionStoreUnavailableException e) {
                giveUpAfter(tries, "send " + send.id(), e);
            }
            awaitReachable();
            if (marked(send.id())) {
                inDoubtStored.incrementAndGet();
                return;
            }
            unreachable.incrementAndGet();
        }
    }

    /** The message and its mark, in one transaction of the driver's own. */
    private void sendMarked(RunnerWorkload.Send send) throws SQLException {
        try (Connection connection = connect.get()) {
            connection.setAutoCommit(false);
            try (PreparedStatement mark = connection.prepareStatement("INSERT INTO sent (id) VALUES (?)")) {
                mark.setString(1, send.id());
                mark.executeUpdate();
            }
            starters[0].send(connection, send.session(), send.message());
            connection.commit();
        }
    }

    /** Whether the mark of send {@code id} is stored (and so its message); waits for the store to answer. */
    private boolean marked(String id) {
        for (int tries = 1;; tries++) {
            try (Connection connection = connect.get();
                    PreparedStatement select = connection.prepareStatement("SELECT 1 FROM sent WHERE id = ?")) {
                select.setString(1, id);
                try (ResultSet rows = select.executeQuery()) {
                    return rows.next();
                }
            } catch (SQLException e) {
                giveUpAfter(tries, "read whether " + id + " was sent", e);
                awaitReachable();
            }
        }
    }

    /** How many rows the ledger holds, or -1 if the store cannot be read now. */
    long ledgerRows() {
        return count("SELECT COUNT(*) FROM ledger");
    }

    /** How many sessions have not finished, or -1 if the store cannot be read now. */
    long unfinished() {
        return count("SELECT COUNT(*) FROM weft_sessions WHERE status <> 'FINISHED'");
    }

    private long count(String query) {
        try (Connection connection = connect.get(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    /** Returns once the store answers a query; fails the test after {@link #PATIENCE_MILLIS}. */
    void awaitReachable() {
        long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
        SQLException last = null;
        while (System.currentTimeMillis() < deadline) {
            try (Connection connection = connect.get(); Statement statement = connection.createStatement()) {
                statement.execute("SELECT 1");
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + store, e);
            }
        }
        throw new AssertionError(store + " could not be reached for " + PATIENCE_MILLIS + " ms", last);
    }

    /** A failure that repeats this often is not an outage: the test fails with it. */
    private static void giveUpAfter(int tries, String what, Exception e) {
        if (tries >= 50) {
            throw new AssertionError("the driver could not " + what + " in " + tries + " tries: " + e, e);
        }
    }

    /**
     * What {@code read} reads through the driver's sessions, read again if the store could not be
     * reached (a connection kept from before the server died fails once).
     */
    <T> T read(java.util.function.Function<Sessions, T> read) {
        for (int tries = 1;; tries++) {
            try {
                return read.apply(starters[0]);
            } catch (SessionStoreUnavailableException e) {
                giveUpAfter(tries, "read the store", e);
            }
            awaitReachable();
        }
    }

    @Override
    public void close() {
        for (Sessions starter : starters) {
            starter.close();
        }
    }
}
