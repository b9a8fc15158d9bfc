package dev.weft.sessions;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where sessions are kept: two tables, created on first use: {@code weft_sessions}, one row per
 * session, and {@code weft_builds}, the manifest of each build those rows name, stored once per
 * build (keyed by the build fingerprint) so that a step writes only its build's fingerprint.
 * Rows written before {@code weft_builds} existed hold their manifest themselves, and are read
 * as they are. A row's {@code seal} column holds its {@link RowSeal} when written by a node with
 * a key (a table from before rows were sealed gets the column when opened); its {@code wait_kind}
 * and {@code due_at} columns what the session waits for until when ({@link SessionWait}), indexed
 * by due time for the workers' claims ({@link #claimDue}; added to an older table when opened
 * too). Listings ({@link SessionQuery}) are read by the indexes {@link SessionQueries#INDEXES}
 * names: one in listing order (creation time, id), and one for each column a listing filters on
 * by equality (status, build, point, kind of wait), that column and then the listing order; a
 * table without them gets them when opened: on PostgreSQL built concurrently, so that the
 * other nodes go on writing meanwhile ({@link StoreIndexes}). Beside them, the sessions' inboxes ({@link Inbox}) and their step history
 * ({@code weft_history}, {@link HistoryTable}: created when opened too, so that a database of an
 * earlier version gets it): a statement that stores a step's row writes the step's entry, given
 * one, in the same transaction (on PostgreSQL in the same statement, so in the same round trip),
 * and only if it stored the row; given none, it touches no table but its own. The store reads rows
 * as they are, whatever they hold (a status that names none, say); {@link Sessions} checks them.
 * It keeps the manifests of at most 1,024 builds in memory. Two kinds:
 *
 * <ul>
 * <li>{@link #sqlite(Path)}: the embedded default, a SQLite database in one file, no server.
 *     Write-ahead log, {@code synchronous=FULL}: a step's commit is on disk (fsync) before
 *     {@code resume} returns. Steps of all sessions in one file run one at a time (SQLite has one
 *     writer), which also makes them exclusive across processes sharing the file.
 * <li>{@link #postgres(String, String, String)}: PostgreSQL, for several nodes. A step holds its
 *     session's row lock ({@code SELECT ... FOR UPDATE}) from load to commit; steps of different
 *     sessions run in parallel.
 * </ul>
 *
 * <p>Thread-safe; close it when done (it closes its idle connections).
 */
public final class SessionStore implements AutoCloseable {

    /* Implementation notes: a step is one transaction on one connection. PostgreSQL: autocommit
     * off, the row locked FOR UPDATE (NOWAIT, or with lock_timeout when the caller waits).
     * SQLite: the driver stays in autocommit mode and the store says BEGIN IMMEDIATE / COMMIT
     * itself, so that an idle pooled connection never holds SQLite's write lock (the driver's
     * own non-autocommit mode begins the next transaction right after each commit), each through a
     * statement prepared once per connection, as a step's other statements are. The body's
     * writes are wrapped in a savepoint, so that a body that throws leaves none of them behind
     * and the failure can still be stored in the same transaction; it is set only when the body
     * takes the connection, and COMMIT releases it. */

    /** The SQL each database needs where they differ. */
    private enum Dialect {
        SQLITE("BLOB", "SQLITE_BUSY: another connection holds the database's write lock"),
        POSTGRES("BYTEA", "the session's row is locked by another transaction");

        final String bytes;
        final String busy;

        Dialect(String bytes, String busy) {
            this.bytes = bytes;
            this.busy = busy;
        }
    }

    /**
     * One stored session, as a step reads and writes it: {@code status} is null when the stored
     * {@code statusName} is none of {@link SessionStatus}'s; {@code seal} is the {@link RowSeal},
     * or null for a row written without a key.
     */
    record Row(String id, SessionStatus status, long version, String build, String manifest, String point,
            byte[] pointValues, byte[] state, byte[] output, String failure, long created, long updated,
            String statusName, byte[] seal, String waitKind, Long dueAt, Integer attempts, byte[] retryInput,
            String parentId, Long deadlineAt) {

        /** A row as a step writes it, not yet sealed, waiting for a plain input. */
        Row(String id, SessionStatus status, long version, String build, String manifest, String point,
                byte[] pointValues, byte[] state, byte[] output, String failure, long created, long updated) {
            this(id, status, version, build, manifest, point, pointValues, state, output, failure, created, updated,
                    status.name(), null, null, null, null, null, null, null);
        }

        Row withSeal(byte[] newSeal) {
            return new Row(id, status, version, build, manifest, point, pointValues, state, output, failure, created,
                    updated, statusName, newSeal, waitKind, dueAt, attempts, retryInput, parentId, deadlineAt);
        }

        /**
         * This row, unsealed, holding the frames {@code written} as of {@code now}: moved to
         * another build's code without a step ({@link Sessions#moveToThisBuild}).
         */
        Row withFrames(StateCodec.Written written, long now) {
            return new Row(id, status, version, written.manifest().build(), written.manifest().text(), point,
                    pointValues, written.state(), output, failure, created, now, statusName, null, waitKind, dueAt,
                    attempts, retryInput, parentId, deadlineAt);
        }

        Row withManifest(String newManifest) {
            return new Row(id, status, version, build, newManifest, point, pointValues, state, output, failure,
                    created, updated, statusName, seal, waitKind, dueAt, attempts, retryInput, parentId, deadlineAt);
        }

        /** This row waiting for {@code wait} (null: a plain input). */
        Row withWait(SessionWait wait) {
            return new Row(id, status, version, build, manifest, point, pointValues, state, output, failure,
                    created, updated, statusName, seal, wait == null ? null : wait.kind().name(),
                    wait == null ? null : wait.storedDueAt(), attempts, retryInput, parentId, deadlineAt);
        }

        /**
         * This row, unsealed, with the columns that never change after a session's start: its
         * parent's id and its deadline, as {@code stored} holds them ({@link Children}).
         */
        Row carrying(Row stored) {
            return withFamily(stored.parentId, stored.deadlineAt);
        }

        /** This row, unsealed, with {@code newParentId} and {@code newDeadlineAt}. */
        Row withFamily(String newParentId, Long newDeadlineAt) {
            return new Row(id, status, version, build, manifest, point, pointValues, state, output, failure,
                    created, updated, statusName, null, waitKind, dueAt, attempts, retryInput, newParentId,
                    newDeadlineAt);
        }

        /**
         * This row, unsealed, as a step that failed leaves it: {@code newStatus} at {@code newVersion},
         * its frames as they were, the failure, the attempts made so far at the failed step and its input
         * ({@link Retries}).
         */
        Row failedAt(SessionStatus newStatus, long newVersion, String newFailure, long now, SessionWait wait,
                int attemptsMade, byte[] input) {
            return new Row(id, newStatus, newVersion, build, manifest, point, pointValues, state, output, newFailure,
                    created, now, newStatus.name(), null, null, null, attemptsMade, input, parentId, deadlineAt)
                    .withWait(wait);
        }
    }

    private static final String COLUMNS = "id, status, version, build, manifest, point, point_values, state, output,"
            + " failure, created_at, updated_at, seal, wait_kind, due_at, attempts, retry_input, parent_id, deadline_at";
    /** How many {@link #COLUMNS} there are, as {@link #row} reads them. */
    private static final int COLUMN_COUNT = 19;
    /** {@link #COLUMNS} of the table of sessions joined as {@code s}. */
    private static final String JOINED_COLUMNS = "s." + COLUMNS.replace(", ", ", s.");
    /** A session as listed, its manifest wherever it is stored; FROM {@link #LISTED}. */
    private static final String INFO_COLUMNS = "s.id, s.status, s.version, s.build, COALESCE(s.manifest, b.manifest),"
            + " s.point, s.point_values, s.state, s.output, s.failure, s.created_at, s.updated_at, s.seal, s.wait_kind,"
            + " s.due_at, s.attempts, s.retry_input, s.parent_id, s.deadline_at";
    /** The most manifests of builds kept in memory: a store may name any number of builds. */
    private static final int KNOWN_BUILDS = 1024;
    /** After the table of sessions, as {@code s}: the join of the builds that hold their manifests. */
    private static final String BUILDS_JOINED = " s LEFT JOIN weft_builds b ON b.build = s.build";
    private static final String LISTED = " FROM weft_sessions" + BUILDS_JOINED;

    private final Dialect dialect;
    private final ConnectionPool pool;
    /** The sessions' inboxes, in this store's database. */
    private final Inbox inbox;
    /** The sessions' step history, in this store's database. */
    private final HistoryTable history;
    private final String description;
    /**
     * Per pooled connection, its prepared statements of a step, by SQL (SQLite compiles a
     * statement anew each time one is prepared). A connection is used by one thread at a time;
     * the pool hands it over under its lock. The pool drops a connection's entry when it closes it.
     */
    private final Map<Connection, Map<String, PreparedStatement>> statements =
            Collections.synchronizedMap(new IdentityHashMap<>());
    /** The manifests of builds known to be committed to {@code weft_builds}, by build; immutable once there. */
    private final Map<String, String> storedBuilds = new ConcurrentHashMap<>();
    /** Per connection, the builds its open transaction added to {@code weft_builds}: known once it commits. */
    private final Map<Connection, Map<String, String>> addedBuilds =
            Collections.synchronizedMap(new IdentityHashMap<>());
    /** PostgreSQL: the connections whose open transaction has a notification to send ({@link #notifyDue}). */
    private final java.util.Set<Connection> notifying =
            Collections.newSetFromMap(Collections.synchronizedMap(new IdentityHashMap<>()));

    private SessionStore(Dialect dialect, ConnectionPool.Opener opener, String description) {
        this.dialect = dialect;
        this.inbox = new Inbox(dialect == Dialect.POSTGRES, this::prepared);
        this.history = new HistoryTable(dialect == Dialect.POSTGRES);
        this.pool = new ConnectionPool(opener, 16, statements::remove);
        this.description = description;
        try {
            createTable();
        } catch (SQLException e) {
            pool.close();
            if (isConnectionLost(e)) {
                throw new SessionStoreUnavailableException("cannot reach " + description + " to open the session"
                        + " store, nothing was stored; try again once it can be reached: " + e, e);
            }
            throw new IllegalStateException("cannot create the sessions table in " + description + ": " + e, e);
        }
    }

    /**
     * The embedded store: a SQLite database in {@code file}, created if missing (SQLite keeps
     * its write-ahead log beside it, in {@code FILE-wal} and {@code FILE-shm}). Needs
     * {@code org.xerial:sqlite-jdbc} at run time.
     *
     * @param file the database file, created if missing
     * @return the store
     * @throws IllegalArgumentException if the file's directory does not exist (the store never
     *         creates directories)
     * @throws SessionStoreUnavailableException if the file cannot be opened or read (SQLite's
     *         {@code SQLITE_CANTOPEN} or {@code SQLITE_IOERR}: not writable, a disk error):
     *         nothing was stored
     */
    public static SessionStore sqlite(Path file) {
        Path absolute = file.toAbsolutePath();
        Path directory = absolute.getParent();
        if (directory != null && !java.nio.file.Files.isDirectory(directory)) {
            throw new IllegalArgumentException("cannot open a session store in SQLite database " + absolute + ": its"
                    + " directory " + directory + " does not exist; create it, or name a file in a directory that"
                    + " does");
        }
        Properties properties = new Properties();
        properties.setProperty("journal_mode", "WAL");
        properties.setProperty("synchronous", "FULL");
        properties.setProperty("busy_timeout", "60000");
        String url = "jdbc:sqlite:" + absolute;
        return new SessionStore(Dialect.SQLITE, () -> DriverManager.getConnection(url, properties), "SQLite database "
                + absolute);
    }

    /**
     * A PostgreSQL store at {@code url} ({@code jdbc:postgresql://host:port/database}). Needs
     * {@code org.postgresql:postgresql} at run time.
     *
     * @param url      the JDBC URL of the database
     * @param user     the user to connect as
     * @param password the user's password, or null
     * @return the store
     * @throws SessionStoreUnavailableException if the server cannot be reached (down, refusing
     *         connections, the connection lost): nothing was stored, try again later
     * @throws IllegalStateException if the server refuses the store (a wrong password, no such
     *         database, no right to create its tables)
     */
    public static SessionStore postgres(String url, String user, String password) {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        return new SessionStore(Dialect.POSTGRES, () -> DriverManager.getConnection(url, properties), "PostgreSQL at "
                + url);
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return description;
    }

    // ---------------------------------------------------------------- schema

    private void createTable() throws SQLException {
        String ddl = "CREATE TABLE IF NOT EXISTS weft_sessions (id VARCHAR(64) PRIMARY KEY,"
                + " status VARCHAR(16) NOT NULL, version BIGINT NOT NULL, build VARCHAR(64), manifest TEXT,"
                + " point VARCHAR(200), point_values " + dialect.bytes + ", state " + dialect.bytes + ", output "
                + dialect.bytes + ", failure TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)";
        StoreIndexes.Pending pending;
        Connection connection = begin();
        boolean healthy = false;
        try (Statement statement = connection.createStatement()) {
            Set<String> existing = Set.of();
            if (dialect == Dialect.POSTGRES) {
                // nodes starting together would race on CREATE TABLE IF NOT EXISTS (a unique
                // violation in pg_type): one at a time
                statement.execute("SELECT pg_advisory_xact_lock(7217)");
                existing = StoreIndexes.existingTables(statement);
            }
            statement.execute(ddl);
            addColumn(statement, "seal", dialect.bytes);
            addColumn(statement, "wait_kind", "VARCHAR(16)");
            addColumn(statement, "due_at", "BIGINT");
            addColumn(statement, "attempts", "INTEGER");
            addColumn(statement, "retry_input", dialect.bytes);
            addColumn(statement, "parent_id", "VARCHAR(64)");
            addColumn(statement, "deadline_at", "BIGINT");
            statement.execute("CREATE TABLE IF NOT EXISTS weft_builds (build VARCHAR(64) PRIMARY KEY,"
                    + " manifest TEXT NOT NULL)");
            statement.execute(CREATE_ACCEPTED_BUILDS);
            inbox.create(statement, dialect.bytes);
            addColumn(statement, "weft_messages", "trace_parent", "VARCHAR(" + SessionObserver.MAX_TRACE + ")");
            history.create(statement);
            pending = StoreIndexes.create(statement, existing);
            commit(connection);
            healthy = true;
        } finally {
            if (!healthy) {
                rollbackQuietly(connection);
            }
            pool.give(connection, healthy);
        }
        if (!pending.isEmpty()) {
            buildIndexes(pending);
        }
    }

    /** PostgreSQL: builds and drops {@code pending}'s indexes concurrently, on a connection in autocommit mode ({@link StoreIndexes}). */
    private void buildIndexes(StoreIndexes.Pending pending) throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try {
            StoreIndexes.buildConcurrently(connection, pending);
            healthy = true;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /**
     * Adds column {@code name} to a table created before it existed: {@code seal} before rows
     * were sealed, {@code wait_kind} and {@code due_at} before sessions waited for times,
     * {@code attempts} and {@code retry_input} before failed steps were retried, {@code parent_id} and
     * {@code deadline_at} before sessions had children and deadlines.
     */
    private void addColumn(Statement statement, String name, String type) throws SQLException {
        addColumn(statement, "weft_sessions", name, type);
    }

    /**
     * Adds column {@code name} to {@code table}, created before it existed: {@code weft_messages}'
     * {@code trace_parent} before messages carried their trace context.
     */
    private void addColumn(Statement statement, String table, String name, String type) throws SQLException {
        boolean present = false;
        // PostgreSQL: ALTER TABLE takes the table's exclusive lock even when the column exists,
        // which would queue every other node's steps behind a node that is opening the store
        try (ResultSet columns = statement.executeQuery(dialect == Dialect.POSTGRES
                ? "SELECT column_name AS name FROM information_schema.columns WHERE table_name = '" + table
                        + "' AND table_schema = current_schema()"
                : "PRAGMA table_info(" + table + ")")) {
            while (columns.next()) {
                present |= name.equalsIgnoreCase(columns.getString("name"));
            }
        }
        if (!present) {
            statement.execute("ALTER TABLE " + table + " ADD COLUMN " + name + " " + type);
        }
    }

    // ---------------------------------------------------------------- transactions

    /** A connection in a new transaction; SQLite's waits for the database's write lock. */
    Connection begin() throws SQLException {
        Connection connection = pool.take();
        try {
            if (dialect == Dialect.SQLITE) {
                prepared(connection, "BEGIN IMMEDIATE").execute();
            } else {
                connection.setAutoCommit(false);
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            pool.give(connection, false);
            throw e;
        }
    }

    /**
     * Commits the transaction on {@code connection}.
     *
     * @throws CommitInDoubt if the connection was lost once the COMMIT may have been sent
     */
    void commit(Connection connection) throws SQLException {
        if (connection.isClosed()) {
            throw new SQLException("the connection was closed before the COMMIT was sent", "08003");
        }
        if (notifying.remove(connection)) {
            prepared(connection, NOTIFY).execute(); // no statement of this transaction sent it
        }
        try {
            if (dialect == Dialect.SQLITE) {
                prepared(connection, "COMMIT").execute();
            } else {
                connection.commit();
            }
        } catch (SQLException e) {
            throw inDoubtIfLost(e);
        }
        committed(connection);
    }

    /**
     * The connection was lost (or the server stopped) after a {@code COMMIT} may have been sent
     * and before its reply came: the transaction may have committed or not.
     */
    static final class CommitInDoubt extends SQLException {
        private static final long serialVersionUID = 1L;

        CommitInDoubt(SQLException lost) {
            super("the connection was lost once the COMMIT may have been sent: " + lost.getMessage(),
                    lost.getSQLState(), lost);
        }
    }

    private SQLException inDoubtIfLost(SQLException e) {
        return isConnectionLost(e) ? new CommitInDoubt(e) : e;
    }

    /**
     * Whether {@code e} says that the database cannot be reached or the connection to it was
     * lost, as opposed to a refusal of what was asked: PostgreSQL's SQLSTATE class 08
     * (connection exception) and 57P01-57P03 (the server shutting down, crashed, starting), an
     * I/O exception beneath it, or SQLite's {@code SQLITE_IOERR} and {@code SQLITE_CANTOPEN}.
     */
    boolean isConnectionLost(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.io.IOException) {
                return true;
            }
            if (t instanceof SQLException sql && (isConnectionState(sql.getSQLState())
                    || dialect == Dialect.SQLITE && (sql.getErrorCode() == 10 || sql.getErrorCode() == 14))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConnectionState(String state) {
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03"));
    }

    /** After the transaction on {@code connection} committed: the connection back in autocommit, its new builds known. */
    private void committed(Connection connection) throws SQLException {
        notifying.remove(connection);
        if (dialect == Dialect.POSTGRES) {
            connection.setAutoCommit(true); // no round trip: the driver knows that no transaction is open
        }
        Map<String, String> added = addedBuilds.remove(connection);
        if (added != null) {
            added.forEach(this::know);
        }
    }

    /** Rolls back; returns whether the connection is fit to be kept. */
    boolean rollbackQuietly(Connection connection) {
        addedBuilds.remove(connection);
        notifying.remove(connection);
        try {
            if (dialect == Dialect.SQLITE) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("ROLLBACK");
                }
            } else {
                connection.rollback();
                connection.setAutoCommit(true);
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    void release(Connection connection, boolean healthy) {
        addedBuilds.remove(connection);
        notifying.remove(connection);
        pool.give(connection, healthy);
    }

    /**
     * Marks where the writes of a step's body begin: savepoint {@code name}, a name of the step's
     * own (a child's first step, run inside its parent's, has another, so that rolling back to
     * either undoes what it should).
     */
    void savepoint(Connection connection, String name) throws SQLException {
        execute(connection, "SAVEPOINT " + name);
    }

    void rollbackToSavepoint(Connection connection, String name) throws SQLException {
        execute(connection, "ROLLBACK TO SAVEPOINT " + name);
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Whether {@code e} says that a lock could not be had in time. */
    boolean isBusy(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && ("55P03".equals(sql.getSQLState())
                    || dialect == Dialect.SQLITE && (sql.getErrorCode() == 5 || sql.getErrorCode() == 6))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code e} says that a row with that key exists already. */
    boolean isDuplicate(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && ("23505".equals(sql.getSQLState())
                    || dialect == Dialect.SQLITE && (sql.getErrorCode() == 19 || sql.getErrorCode() == 1555))) {
                return true;
            }
        }
        return false;
    }

    String busyReason() {
        return dialect.busy;
    }

    // ---------------------------------------------------------------- rows

    /** {@code sql} prepared on {@code connection}, once per connection; the caller does not close it. */
    private PreparedStatement prepared(Connection connection, String sql) throws SQLException {
        Map<String, PreparedStatement> prepared = statements.computeIfAbsent(connection, c -> new HashMap<>());
        PreparedStatement statement = prepared.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = connection.prepareStatement(sql);
            prepared.put(sql, statement);
        }
        return statement;
    }

    /**
     * A statement of a worker's look or claim, run once: the one {@link #prepared} on its
     * connection before, or, if it lists the ids of sessions passed over (their number varies,
     * and so does its SQL), prepared for this run and closed after it.
     */
    private record Once(PreparedStatement statement, boolean kept) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            if (!kept) {
                statement.close();
            }
        }
    }

    /** {@code sql} as a {@link Once}: kept on {@code connection} if {@code skipped} is empty, which it lists. */
    private Once once(Connection connection, String sql, java.util.Collection<String> skipped) throws SQLException {
        return skipped.isEmpty() ? new Once(prepared(connection, sql), true)
                : new Once(connection.prepareStatement(sql), false);
    }

    /**
     * The session's row, locked for this transaction: waits at most {@code wait} for another
     * transaction's lock (zero: not at all). Null if there is none. PostgreSQL: {@code FOR NO
     * KEY UPDATE}, which a step's {@code UPDATE} needs and a {@link Inbox send}'s key share
     * does not conflict with.
     */
    Row lock(Connection connection, String id, Duration wait) throws SQLException {
        String sql = "SELECT " + COLUMNS + " FROM weft_sessions WHERE id = ?";
        if (dialect == Dialect.POSTGRES) {
            if (wait.isZero()) {
                sql += " FOR NO KEY UPDATE NOWAIT";
            } else {
                execute(connection, "SET LOCAL lock_timeout = " + Math.max(1, wait.toMillis()));
                sql += " FOR NO KEY UPDATE";
            }
        }
        return rowById(connection, sql, id);
    }

    /** The row {@code sql} reads, its one parameter {@code id}, with its manifest ({@link #withStoredManifest}); null if none. */
    private Row rowById(Connection connection, String sql, String id) throws SQLException {
        PreparedStatement select = prepared(connection, sql);
        select.setString(1, id);
        Row row;
        try (ResultSet rows = select.executeQuery()) {
            row = rows.next() ? row(rows) : null;
        }
        return withStoredManifest(connection, row);
    }

    /** {@code row}, if not null, with its build's manifest from {@code weft_builds} if it holds none itself. */
    private Row withStoredManifest(Connection connection, Row row) throws SQLException {
        return row == null || row.manifest() != null || row.build() == null ? row
                : row.withManifest(manifest(connection, row.build()));
    }

    /**
     * The manifest of {@code build} from {@code weft_builds}, read once per build and store; null
     * if it is not there.
     */
    private String manifest(Connection connection, String build) throws SQLException {
        String known = storedBuilds.get(build);
        if (known != null) {
            return known;
        }
        PreparedStatement select = prepared(connection, "SELECT manifest FROM weft_builds WHERE build = ?");
        select.setString(1, build);
        try (ResultSet rows = select.executeQuery()) {
            if (!rows.next()) {
                return null;
            }
            String manifest = rows.getString(1);
            know(build, manifest);
            return manifest;
        }
    }

    /** Remembers that {@code build}'s manifest is stored; forgets every other once too many are known. */
    private void know(String build, String manifest) {
        if (manifest == null || manifest.length() > Builds.MAX_MANIFEST) {
            return;
        }
        if (storedBuilds.size() >= KNOWN_BUILDS) {
            storedBuilds.clear();
        }
        storedBuilds.put(build, manifest);
    }

    /**
     * Adds {@code row}'s build and manifest to {@code weft_builds} in this transaction, unless
     * they are known to be there already.
     */
    private void addBuild(Connection connection, Row row) throws SQLException {
        if (row.build() == null || storedBuilds.containsKey(row.build())) {
            return;
        }
        PreparedStatement insert = prepared(connection, "INSERT INTO weft_builds (build, manifest) VALUES (?, ?)"
                + " ON CONFLICT (build) DO NOTHING");
        insert.setString(1, row.build());
        insert.setString(2, row.manifest());
        insert.executeUpdate();
        addedBuilds.computeIfAbsent(connection, c -> new HashMap<>()).put(row.build(), row.manifest());
    }

    /**
     * Before a new session's first step: holds its id for this transaction, so that two starts
     * with one id never both run (PostgreSQL: a transaction-scoped advisory lock on the id's
     * hash, at once or within {@code wait}; SQLite: the transaction's write lock does it already).
     *
     * @return false if another transaction holds it (and {@code wait} is zero)
     */
    boolean lockNew(Connection connection, String id, Duration wait) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            return true;
        }
        if (!wait.isZero()) {
            execute(connection, "SET LOCAL lock_timeout = " + Math.max(1, wait.toMillis()));
        }
        try (PreparedStatement lock = connection.prepareStatement(wait.isZero()
                ? "SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0))"
                : "SELECT true FROM (SELECT pg_advisory_xact_lock(hashtextextended(?, 0))) AS locked")) {
            lock.setString(1, id);
            try (ResultSet result = lock.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    private static final String INSERT = "INSERT INTO weft_sessions (" + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    /** How many parameters {@link #INSERT} has: one per column. */
    private static final int INSERT_PARAMETERS = 19;

    /** Inserts a new session's {@code row}, and {@code step}'s entry in the history unless null. */
    void insert(Connection connection, Row row, HistoryTable.Entry step) throws SQLException {
        addBuild(connection, row);
        PreparedStatement insert = prepared(connection, withHistory(INSERT, step) + notifyingWith(connection));
        bind(insert, row);
        written(connection, insert, INSERT_PARAMETERS + 1, step, "");
    }

    /**
     * {@code write}, a statement that writes one session's row, with {@code step}'s entry in
     * the history if not null: on PostgreSQL in the same statement ({@link HistoryTable#writingWith}).
     */
    private String withHistory(String write, HistoryTable.Entry step) {
        return step == null || dialect == Dialect.SQLITE ? write : HistoryTable.writingWith(write);
    }

    /**
     * Runs {@code write}, made by {@link #withHistory} with {@code after} appended and its own
     * parameters bound, its entry's parameters from {@code first} on; on SQLite the entry's INSERT
     * after it, if it wrote a row. Returns the rows written.
     */
    private int written(Connection connection, PreparedStatement write, int first, HistoryTable.Entry step,
            String after) throws SQLException {
        if (step != null && dialect == Dialect.POSTGRES) {
            HistoryTable.bind(write, first, step);
        }
        int count;
        try {
            count = write.executeUpdate();
        } catch (SQLException e) {
            throw after.equals(COMMITTING) ? inDoubtIfLost(e) : e;
        }
        if (step != null && dialect == Dialect.SQLITE && count == 1) {
            record(connection, step);
        }
        return count;
    }

    /** Writes {@code step}'s entry in the history, in this transaction: a step that stored no row of its own. */
    void record(Connection connection, HistoryTable.Entry step) throws SQLException {
        PreparedStatement insert = prepared(connection, HistoryTable.INSERT);
        HistoryTable.bind(insert, 1, step);
        insert.executeUpdate();
    }

    /**
     * A step's new row over the old one: the columns a step changes, and the status and the
     * build only when they change (both are indexed, and SQLite rewrites an index entry whenever
     * its column is set, to an equal value too; the id and creation time never change). A new
     * build's manifest goes to {@code weft_builds}; the row's own manifest column is cleared
     * (rows written before that table existed held it).
     */
    private static final String UPDATE = "UPDATE weft_sessions SET version = ?, point = ?,"
            + " point_values = ?, state = ?, output = ?, failure = ?, updated_at = ?, seal = ?, wait_kind = ?, due_at = ?,"
            + " attempts = ?, retry_input = ?";
    private static final String NEW_STATUS = ", status = ?";
    private static final String NEW_BUILD = ", build = ?, manifest = NULL";

    /**
     * What the store holds for a session a step replaces, as far as the step's {@code UPDATE}
     * needs it: its build and status, which the {@code UPDATE} sets only if they change.
     *
     * @param build  the stored build (null for none)
     * @param status the stored status
     */
    record Over(String build, SessionStatus status) {
        /** What {@code row} holds. */
        static Over of(Row row) {
            return new Over(row.build(), row.status());
        }
    }
    private static final String WHERE_ID = " WHERE id = ?";
    /** What identifies one stored version of a session: a session removed and started again under its id differs. */
    private static final String AT = " AND version = ? AND created_at = ? AND updated_at = ?";
    /**
     * What else a sealed version must still hold to be found: every other sealed column and the
     * seal, as this node stored them ({@link Version#sealed()}). {@code IS NOT DISTINCT FROM} is
     * equality that takes NULL for a value (SQLite has it since 3.39).
     */
    private static final String AT_SEALED = " AND status = ? AND build IS NOT DISTINCT FROM ?"
            + " AND point IS NOT DISTINCT FROM ? AND point_values IS NOT DISTINCT FROM ?"
            + " AND state IS NOT DISTINCT FROM ? AND output IS NOT DISTINCT FROM ?"
            + " AND failure IS NOT DISTINCT FROM ? AND seal = ? AND wait_kind IS NOT DISTINCT FROM ?"
            + " AND due_at IS NOT DISTINCT FROM ? AND attempts IS NOT DISTINCT FROM ?"
            + " AND retry_input IS NOT DISTINCT FROM ? AND parent_id IS NOT DISTINCT FROM ?"
            + " AND deadline_at IS NOT DISTINCT FROM ?";

    /**
     * Replaces the session's row, which this transaction holds and which holds {@code over}, by
     * {@code row}; with {@code step}'s entry in the history unless null.
     */
    void update(Connection connection, Row row, Over over, HistoryTable.Entry step) throws SQLException {
        if (updateRow(connection, row, over, null, step, "") != 1) {
            throw vanished(row);
        }
    }

    private static SQLException vanished(Row row) {
        return new SQLException("session " + row.id() + " vanished while its step held it");
    }

    /**
     * {@link #update} and then {@link #commit}, for a transaction that holds the session's row
     * lock ({@link #lock}) and in which nothing but this store's own statements ran
     * ({@code bodyWrote} false: the step's body took no connection). On PostgreSQL the
     * {@code UPDATE} and the {@code COMMIT} then go to the server together, one round trip:
     * the row is locked by this transaction, and no statement of it but {@link #lock}'s
     * touched it, so the {@code UPDATE} finds it, and a failure of the {@code UPDATE} aborts
     * the transaction before the {@code COMMIT} runs (the server skips what follows an error
     * until the end of the round trip). With {@code bodyWrote}, or on SQLite (no round trips),
     * the two run one after the other, and an {@code UPDATE} that finds no row commits nothing.
     * The step's entry in the history ({@code step}, unless null) goes with the {@code UPDATE}.
     */
    void updateAndCommit(Connection connection, Row row, Over over, boolean bodyWrote, HistoryTable.Entry step)
            throws SQLException {
        if (updateCommitting(connection, row, over, null, bodyWrote, step) != 1) {
            throw vanished(row); // nothing of the step committed
        }
    }

    /**
     * Replaces the stored version {@code previous} of the session, holding {@code over},
     * by {@code row}, without having read it: false, changing nothing, if the store holds another
     * version (or none).
     */
    boolean updateAt(Connection connection, Row row, Over over, Version previous) throws SQLException {
        return updateRow(connection, row, over, previous, null, "") == 1;
    }

    /**
     * {@link #updateAt} and, if it found {@code previous}, {@link #commit}: whether it found it.
     * With {@code bodyWrote} false (the step's body took no connection) on PostgreSQL, the
     * {@code UPDATE} and the {@code COMMIT} go to the server together, one round trip: the
     * {@code UPDATE} is then the transaction's only write (a new build's manifest aside, which is
     * right to keep whatever the row holds), so that when it finds another version the
     * {@code COMMIT} commits nothing of the step, as a rollback would. Otherwise, or on SQLite,
     * the two run one after the other, and a transaction that did not find {@code previous} is
     * left for the caller to roll back. The step's entry in the history ({@code step}, unless
     * null) is written with the {@code UPDATE}, only if it found {@code previous}.
     */
    boolean updateAtAndCommit(Connection connection, Row row, Over over, Version previous, boolean bodyWrote,
            HistoryTable.Entry step) throws SQLException {
        return updateCommitting(connection, row, over, previous, bodyWrote, step) == 1;
    }

    /**
     * The UPDATE of {@code row} (over {@code previous} if not null) and, if it found its row, the
     * COMMIT: together in one round trip on PostgreSQL when the body wrote nothing, else one after
     * the other, a transaction whose UPDATE found nothing left for the caller to roll back.
     * Returns the UPDATE's count.
     */
    private int updateCommitting(Connection connection, Row row, Over over, Version previous,
            boolean bodyWrote, HistoryTable.Entry step) throws SQLException {
        if (dialect == Dialect.SQLITE || bodyWrote) {
            int updated = updateRow(connection, row, over, previous, step, "");
            if (updated == 1) {
                commit(connection);
            }
            return updated;
        }
        int updated = updateRow(connection, row, over, previous, step, COMMITTING);
        committed(connection);
        return updated;
    }

    /** What {@link #updateRow} appends to send the UPDATE with the COMMIT. */
    private static final String COMMITTING = "; COMMIT";

    /**
     * The UPDATE of {@code row}, over {@code previous} if not null, with {@code step}'s entry in
     * the history unless null, and {@code after} appended to its SQL.
     */
    private int updateRow(Connection connection, Row row, Over over, Version previous, HistoryTable.Entry step,
            String after) throws SQLException {
        boolean newBuild = !Objects.equals(over.build(), row.build());
        boolean newStatus = over.status() != row.status();
        if (newBuild) {
            addBuild(connection, row);
        }
        PreparedStatement update = prepared(connection, withHistory(UPDATE + (newStatus ? NEW_STATUS : "")
                + (newBuild ? NEW_BUILD : "") + WHERE_ID + (previous == null ? "" : previous.condition()), step)
                + notifyingWith(connection) + after);
        update.setLong(1, row.version());
        update.setString(2, row.point());
        update.setBytes(3, row.pointValues());
        update.setBytes(4, row.state());
        update.setBytes(5, row.output());
        update.setString(6, row.failure());
        update.setLong(7, row.updated());
        update.setBytes(8, row.seal());
        update.setString(9, row.waitKind());
        setLong(update, 10, row.dueAt());
        setLong(update, 11, row.attempts() == null ? null : (long) row.attempts());
        update.setBytes(12, row.retryInput());
        int next = 13;
        if (newStatus) {
            update.setString(next++, row.status().name());
        }
        if (newBuild) {
            update.setString(next++, row.build());
        }
        update.setString(next++, row.id());
        if (previous != null) {
            next = previous.bind(update, next);
        }
        return written(connection, update, next, step, after);
    }

    /** Deletes session {@code id}'s row, with {@code step}'s entry in the history unless null. */
    void delete(Connection connection, String id, HistoryTable.Entry step) throws SQLException {
        PreparedStatement delete = prepared(connection, withHistory("DELETE FROM weft_sessions WHERE id = ?", step));
        delete.setString(1, id);
        written(connection, delete, 2, step, "");
    }

    /**
     * Deletes the stored version {@code previous} of session {@code id}, with {@code step}'s entry
     * in the history unless null: false, writing neither, if the store holds another (or none).
     */
    boolean deleteAt(Connection connection, String id, Version previous, HistoryTable.Entry step)
            throws SQLException {
        PreparedStatement delete = prepared(connection, withHistory("DELETE FROM weft_sessions WHERE id = ?"
                + previous.condition(), step));
        delete.setString(1, id);
        return written(connection, delete, previous.bind(delete, 2), step, "") == 1;
    }

    /**
     * One stored version of a session, as {@link #updateAt} and {@link #deleteAt} expect to find
     * it: its version and times; and if the row was sealed ({@code sealed}, the row as this node
     * stored it, else null), every other sealed column and the seal as they were stored, so that
     * a sealed row changed in the store since is not found (and is then read and refused as a
     * stored step reads it). Comparing the columns in the statement keeps a resident step at one
     * statement, at the cost of sending the stored row's columns with it.
     */
    record Version(long version, long created, long updated, Row sealed) {
        /** The version {@code row} is, compared column for column if it has a seal. */
        static Version of(Row row) {
            return new Version(row.version(), row.created(), row.updated(), row.seal() == null ? null : row);
        }

        /** The statement's condition on the stored row, after {@code WHERE id = ?}. */
        String condition() {
            return sealed == null ? AT : AT + AT_SEALED;
        }

        /** Binds the parameters of {@link #condition()} from {@code first} on; returns the index after them. */
        int bind(PreparedStatement statement, int first) throws SQLException {
            statement.setLong(first, version);
            statement.setLong(first + 1, created);
            statement.setLong(first + 2, updated);
            if (sealed != null) {
                statement.setString(first + 3, sealed.statusName());
                statement.setString(first + 4, sealed.build());
                statement.setString(first + 5, sealed.point());
                statement.setBytes(first + 6, sealed.pointValues());
                statement.setBytes(first + 7, sealed.state());
                statement.setBytes(first + 8, sealed.output());
                statement.setString(first + 9, sealed.failure());
                statement.setBytes(first + 10, sealed.seal());
                statement.setString(first + 11, sealed.waitKind());
                setLong(statement, first + 12, sealed.dueAt());
                setLong(statement, first + 13, sealed.attempts() == null ? null : (long) sealed.attempts());
                statement.setBytes(first + 14, sealed.retryInput());
                statement.setString(first + 15, sealed.parentId());
                setLong(statement, first + 16, sealed.deadlineAt());
                return first + 17;
            }
            return first + 3;
        }
    }

    private static void bind(PreparedStatement statement, Row row) throws SQLException {
        statement.setString(1, row.id());
        statement.setString(2, row.status().name());
        statement.setLong(3, row.version());
        statement.setString(4, row.build());
        statement.setString(5, null); // in weft_builds
        statement.setString(6, row.point());
        statement.setBytes(7, row.pointValues());
        statement.setBytes(8, row.state());
        statement.setBytes(9, row.output());
        statement.setString(10, row.failure());
        statement.setLong(11, row.created());
        statement.setLong(12, row.updated());
        statement.setBytes(13, row.seal());
        statement.setString(14, row.waitKind());
        setLong(statement, 15, row.dueAt());
        setLong(statement, 16, row.attempts() == null ? null : (long) row.attempts());
        statement.setBytes(17, row.retryInput());
        statement.setString(18, row.parentId());
        setLong(statement, 19, row.deadlineAt());
    }

    private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, java.sql.Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }

    /** A row as stored, whatever it holds: its columns are checked by whoever trusts them. */
    private static Row row(ResultSet rows) throws SQLException {
        String status = rows.getString(2);
        return new Row(rows.getString(1), status(status), rows.getLong(3), rows.getString(4), rows.getString(5),
                rows.getString(6), rows.getBytes(7), rows.getBytes(8), rows.getBytes(9), rows.getString(10),
                rows.getLong(11), rows.getLong(12), status, rows.getBytes(13), rows.getString(14), longOrNull(rows, 15),
                attempts(longOrNull(rows, 16)), rows.getBytes(17), rows.getString(18), longOrNull(rows, 19));
    }

    /** Column {@code attempts} as a row holds it: a count out of an int's range as -1, which no row is trusted with. */
    private static Integer attempts(Long stored) {
        return stored == null ? null : stored == stored.intValue() ? stored.intValue() : -1;
    }

    private static Long longOrNull(ResultSet rows, int column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }

    /** The status named {@code name}, or null if it names none. */
    private static SessionStatus status(String name) {
        for (SessionStatus status : SessionStatus.values()) {
            if (status.name().equals(name)) {
                return status;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- waits

    /**
     * The rows a worker may resume once due: suspended, with a wait; read by the index of exactly
     * these rows in due order ({@link StoreIndexes}), on SQLite by name: with no statistics, its
     * planner takes the index of statuses, and reads every suspended session to find the first
     * due (a PostgreSQL table not yet analyzed did the same, which the index's predicate, the
     * query's own, now prevents).
     */
    private String waiting() {
        return " FROM weft_sessions" + (dialect == Dialect.SQLITE ? " INDEXED BY weft_sessions_due_claims" : "")
                + " WHERE " + WAITING_ROWS;
    }

    /** The condition of {@link #waiting()}: also the predicate of the index of them ({@link StoreIndexes}). */
    static final String WAITING_ROWS = "wait_kind IS NOT NULL AND due_at IS NOT NULL AND status = 'SUSPENDED'";

    /** The condition of {@link #running()}: also the predicate of the index of them ({@link StoreIndexes}). */
    static final String RUNNING_ROWS = "deadline_at IS NOT NULL AND status IN ('SUSPENDED', 'FAILED')";

    /**
     * The rows a worker cancels once their deadline has passed: not yet ended, with a deadline;
     * read by the index of deadlines (as {@link #waiting()}).
     */
    private String running() {
        return " FROM weft_sessions" + (dialect == Dialect.SQLITE ? " INDEXED BY weft_sessions_deadline_claims" : "")
                + " WHERE " + RUNNING_ROWS;
    }

    /**
     * The earliest due time of a waiting session, or deadline of a session not yet ended, but
     * those in {@code skipped}, read without a lock (the rows may change before a worker claims
     * one); null if none waits. A session that waits for a message and has one is due at once
     * ({@link Long#MIN_VALUE}). One statement, each of its three parts read by its index.
     */
    Long nextDue(java.util.Collection<String> skipped) throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (Once select = once(connection, "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due" + waiting()
                + notIn("id", skipped) + " UNION ALL SELECT MIN(deadline_at)" + running() + notIn("id", skipped)
                + " UNION ALL SELECT CAST(? AS BIGINT) WHERE EXISTS (SELECT 1" + inbox.delivering(skipped) + ")) due",
                skipped)) {
            int next = bindIds(select.statement(), bindIds(select.statement(), 1, skipped), skipped);
            select.statement().setLong(next, Long.MIN_VALUE);
            bindIds(select.statement(), next + 1, skipped);
            Long due;
            try (ResultSet rows = select.statement().executeQuery()) {
                due = rows.next() ? longOrNull(rows, 1) : null;
            }
            healthy = true;
            return due;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /**
     * The earliest due time after {@code after} of a waiting session, or deadline after it of a
     * session not yet ended, but those in {@code skipped}, read without a lock; null if there is
     * none. For a worker that found the sessions due by {@code after} held by other transactions:
     * the next one it may claim.
     */
    Long nextDueAfter(java.util.Collection<String> skipped, long after) throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (Once select = once(connection, "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due" + waiting()
                + " AND due_at > ?" + notIn("id", skipped) + " UNION ALL SELECT MIN(deadline_at)" + running()
                + " AND deadline_at > ?" + notIn("id", skipped) + ") due", skipped)) {
            select.statement().setLong(1, after);
            int next = bindIds(select.statement(), 2, skipped);
            select.statement().setLong(next, after);
            bindIds(select.statement(), next + 1, skipped);
            Long due;
            try (ResultSet rows = select.statement().executeQuery()) {
                due = rows.next() ? longOrNull(rows, 1) : null;
            }
            healthy = true;
            return due;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /**
     * How many sessions are due at {@code now}, read without a lock: whose wait's due time or
     * whose deadline has passed, or that wait for a message and have one; each counted once, each
     * part read by its index ({@code due_at}'s, {@code deadline_at}'s, and the inbox's).
     */
    long countDue(long now) throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM (SELECT id" + waiting()
                + " AND due_at <= ? UNION SELECT id" + running() + " AND deadline_at <= ? UNION SELECT s.id"
                + inbox.deliverable() + ") due")) {
            select.setLong(1, now);
            select.setLong(2, now);
            long due;
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                due = rows.getLong(1);
            }
            healthy = true;
            return due;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /**
     * Claims, for this transaction, the session whose deadline has passed longest at {@code now}
     * (a worker cancels it), else the session whose wait has been due longest, else the one that
     * waits for a message and has had one longest, but those in {@code skipped}, or null if none
     * is due; one statement, prepared once per connection (unless it lists skipped ids).
     * PostgreSQL: its row is locked ({@code FOR NO KEY UPDATE SKIP LOCKED}: a row another
     * transaction holds is passed over, so that workers of many nodes claim different sessions),
     * each kind's query run only if the kinds before it found none, and if it waits for a message
     * its oldest one is taken in the same statement ({@link Inbox#claimingAndTaking}); SQLite:
     * the transaction holds the database's write lock already, and the message is left for the
     * step to take.
     */
    Claimed claimDue(Connection connection, long now, java.util.Collection<String> skipped) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            Row row = claimed(connection, sqliteClaimDue(skipped), skipped, now, now, null);
            return Claimed.of(withStoredManifest(connection, row));
        }
        String skipLocked = " FOR NO KEY UPDATE SKIP LOCKED";
        String claim = "SELECT * FROM (SELECT " + COLUMNS + running() + " AND deadline_at <= ?" + notIn("id", skipped)
                + " ORDER BY deadline_at LIMIT 1" + skipLocked + ") deadline UNION ALL SELECT * FROM (SELECT "
                + COLUMNS + waiting() + " AND due_at <= ?" + notIn("id", skipped) + " ORDER BY due_at LIMIT 1"
                + skipLocked + ") due UNION ALL SELECT * FROM (" + inbox.claim(JOINED_COLUMNS, skipped)
                + ") message LIMIT 1";
        return claimedAndTaken(connection, Inbox.claimingAndTaking(claim), skipped,
                select -> bindParts(select, skipped, now, now, null));
    }

    /**
     * SQLite's {@link #claimDue}, one statement (the transaction holds the write lock, so no row
     * is held by another): the session whose deadline has passed longest, else the one due
     * longest, else the one with the oldest message, but those in {@code skipped}. Its three parts
     * take, in this order, now and the skipped ids, now and the skipped ids, the skipped ids.
     */
    private String sqliteClaimDue(java.util.Collection<String> skipped) {
        return "SELECT " + COLUMNS + " FROM (SELECT * FROM (SELECT " + COLUMNS + ", 0 AS claim_order" + running()
            + " AND deadline_at <= ?" + notIn("id", skipped) + " ORDER BY deadline_at LIMIT 1) UNION ALL SELECT *"
            + " FROM (SELECT " + COLUMNS + ", 1" + waiting() + " AND due_at <= ?" + notIn("id", skipped)
            + " ORDER BY due_at LIMIT 1) UNION ALL SELECT * FROM (" + inbox.claim(JOINED_COLUMNS + ", 2", skipped)
            + ")) ORDER BY claim_order LIMIT 1";
    }

    /**
     * A session that a worker's claim locked for its transaction: its row, read as {@link #lock}
     * reads it; whether the claim also took the oldest message of its inbox if it waits for one
     * ({@code took}: PostgreSQL's claims), and that message, deleted in this transaction as
     * {@link Inbox#takeOldest} deletes it (null if none was taken).
     */
    record Claimed(Row row, boolean took, Inbox.Message message) {
        /** {@code row} claimed, its inbox untouched; null if null. */
        static Claimed of(Row row) {
            return row == null ? null : new Claimed(row, false, null);
        }
    }

    /**
     * Claims session {@code id} for this transaction if it waits for a message and no other
     * transaction holds it, or null. PostgreSQL: {@code FOR NO KEY UPDATE SKIP LOCKED}, and the
     * oldest message of its inbox taken in the same statement ({@link Inbox#claimingAndTaking}),
     * one round trip for both; SQLite: the transaction holds the write lock already, and the
     * message is left for the step to take.
     */
    Claimed claimMessaged(Connection connection, String id) throws SQLException {
        String claim = "SELECT " + COLUMNS + " FROM weft_sessions WHERE id = ? AND status = 'SUSPENDED'"
                + " AND wait_kind = '" + SessionWait.Kind.MESSAGE.name() + "'";
        if (dialect == Dialect.SQLITE) {
            return Claimed.of(rowById(connection, claim, id));
        }
        return claimedAndTaken(connection, Inbox.claimingAndTaking(claim + " FOR NO KEY UPDATE SKIP LOCKED"),
                java.util.List.of(), select -> select.setString(1, id));
    }

    /** Binds the parameters of a statement. */
    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /**
     * PostgreSQL: the session that {@code sql}, made by {@link Inbox#claimingAndTaking}, claims,
     * with the message it took; null if it claimed none. Its parameters bound by {@code binder};
     * {@code skipped}, the ids it lists.
     */
    private Claimed claimedAndTaken(Connection connection, String sql, java.util.Collection<String> skipped,
            Binder binder) throws SQLException {
        Row row;
        Inbox.Message message;
        try (Once select = once(connection, sql, skipped)) {
            binder.bind(select.statement());
            try (ResultSet rows = select.statement().executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                row = row(rows);
                message = Inbox.message(rows, COLUMN_COUNT + 1, row.id());
            }
        }
        return new Claimed(withStoredManifest(connection, row), true, message);
    }

    /**
     * The row that {@code sql} claims, if any: its parameters are, for each of its parts, that
     * part's time of {@code nows} (none if null) and then the ids of {@code skipped}.
     */
    private Row claimed(Connection connection, String sql, java.util.Collection<String> skipped, Long... nows)
            throws SQLException {
        try (Once select = once(connection, sql, skipped)) {
            bindParts(select.statement(), skipped, nows);
            try (ResultSet found = select.statement().executeQuery()) {
                return found.next() ? row(found) : null;
            }
        }
    }

    /** Binds, for each part of a claim, its time of {@code nows} (none if null), then the ids of {@code skipped}. */
    private static void bindParts(PreparedStatement statement, java.util.Collection<String> skipped, Long... nows)
            throws SQLException {
        int next = 1;
        for (Long now : nows) {
            if (now != null) {
                statement.setLong(next++, now);
            }
            next = bindIds(statement, next, skipped);
        }
    }

    /**
     * The ids of session {@code parentId}'s children that have not ended (suspended or failed),
     * oldest first, read in this transaction (by the index of listings by parent, {@link SessionQueries#INDEXES}).
     */
    List<String> children(Connection connection, String parentId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT id FROM weft_sessions WHERE parent_id = ?"
                + " AND status IN ('SUSPENDED', 'FAILED') ORDER BY created_at, id")) {
            select.setString(1, parentId);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        }
    }

    /** The sessions' inboxes, whose statements run in this store's transactions. */
    Inbox inbox() {
        return inbox;
    }

    // ---------------------------------------------------------------- history

    /** Deletes session {@code id}'s history, in the transaction that removes it. */
    void deleteHistory(Connection connection, String id) throws SQLException {
        history.delete(connection, id);
    }

    /** Session {@code id}'s history, in the order its entries were written, read without a lock. */
    List<HistoryTable.Entry> history(String id) throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try {
            List<HistoryTable.Entry> entries = history.read(connection, id);
            healthy = true;
            return entries;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /**
     * Deletes, in a transaction of its own, at most {@code batch} entries of the history of steps
     * begun before {@code before} (epoch milliseconds), oldest first: how many it deleted.
     */
    int pruneHistory(long before, int batch) throws SQLException {
        Connection connection = begin();
        boolean committed = false;
        boolean healthy = false;
        try {
            int deleted = history.prune(connection, before, batch);
            commit(connection);
            committed = true;
            healthy = true;
            return deleted;
        } finally {
            if (!committed) {
                healthy = rollbackQuietly(connection) && healthy;
            }
            release(connection, healthy);
        }
    }

    /** The channel on which PostgreSQL nodes tell each other that a session waits. */
    static final String DUE_CHANNEL = "weft_sessions_due";

    /** Whether this store tells other nodes of waits as they commit (PostgreSQL's {@code NOTIFY}). */
    boolean notifies() {
        return dialect == Dialect.POSTGRES;
    }

    /**
     * PostgreSQL: a notification, in this transaction, to the nodes that {@link #listen}: the
     * server sends it when the transaction commits, and drops it if it rolls back. It costs no
     * round trip of its own: a {@code NOTIFY} goes in the message of the transaction's next
     * statement that writes a session's row ({@link #update} and kin, {@link #insert}), or else
     * just before its {@link #commit}. SQLite: nothing (its nodes share one file, and poll).
     */
    void notifyDue(Connection connection) {
        if (dialect == Dialect.POSTGRES) {
            notifying.add(connection);
        }
    }

    /** The notification of {@link #notifyDue}: a statement with no result, so that it goes with a write's. */
    private static final String NOTIFY = "NOTIFY " + DUE_CHANNEL;

    /**
     * What a statement that writes a session's row appends to send the notification that this
     * transaction has to send, if any (then sent: no longer to send); else nothing.
     */
    private String notifyingWith(Connection connection) {
        return notifying.remove(connection) ? "; " + NOTIFY : "";
    }

    /**
     * PostgreSQL: a connection of its own that listens for {@link #notifyDue}'s notifications,
     * for {@link #awaitNotifications}; give it back with {@link #stopListening}.
     */
    Connection listen() throws SQLException {
        Connection connection = pool.take();
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + DUE_CHANNEL);
            return connection;
        } catch (SQLException | RuntimeException e) {
            pool.give(connection, false);
            throw e;
        }
    }

    /**
     * Waits at most {@code millis} for notifications on {@code listening}: null if none came,
     * else the ids of the sessions they say were sent a message ({@link Inbox#add}; the others
     * name none). Through pgjdbc's {@code PGConnection.getNotifications(int)} and
     * {@code PGNotification.getParameter()}, reached by reflection, as the PostgreSQL driver is
     * optional.
     */
    List<String> awaitNotifications(Connection listening, int millis) throws SQLException {
        try {
            ClassLoader driver = listening.getClass().getClassLoader();
            Class<?> pg = Class.forName("org.postgresql.PGConnection", false, driver);
            Object notifications = pg.getMethod("getNotifications", int.class).invoke(listening.unwrap(pg), millis);
            int count = notifications == null ? 0 : java.lang.reflect.Array.getLength(notifications);
            if (count == 0) {
                return null;
            }
            java.lang.reflect.Method parameter = Class.forName("org.postgresql.PGNotification", false, driver)
                    .getMethod("getParameter");
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Object id = parameter.invoke(java.lang.reflect.Array.get(notifications, i));
                if (id instanceof String named && !named.isEmpty()) {
                    sent.add(named);
                }
            }
            return sent;
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException("cannot wait for notifications: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new SQLException("cannot wait for notifications with this PostgreSQL driver: " + e, e);
        }
    }

    /** Closes a connection that {@link #listen}ed: it is not kept for other work. */
    void stopListening(Connection listening) {
        pool.give(listening, false);
    }

    /** {@code AND column NOT IN (?, ...)}, a parameter for each of {@code ids} ({@link #bindIds}); nothing for none. */
    static String notIn(String column, java.util.Collection<String> ids) {
        return ids.isEmpty() ? "" : " AND " + column + " NOT IN (" + String.join(", ", Collections.nCopies(ids.size(),
                "?")) + ")";
    }

    /** Binds {@code ids} to the parameters of {@link #notIn} from {@code first} on; returns the index after them. */
    static int bindIds(PreparedStatement statement, int first, java.util.Collection<String> ids) throws SQLException {
        int index = first;
        for (String id : ids) {
            statement.setString(index++, id);
        }
        return index;
    }


    // ---------------------------------------------------------------- reading and removing, no lock

    /** A session's row, its manifest wherever it is stored, read without a lock; or empty. */
    Optional<Row> info(String id) throws SQLException {
        List<Row> found = query("SELECT " + INFO_COLUMNS + LISTED + " WHERE s.id = ?", List.of(id));
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** The stored output of session {@code id}'s last step; null if none. */
    byte[] output(String id) throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (PreparedStatement select = connection.prepareStatement("SELECT output FROM weft_sessions WHERE id = ?")) {
            select.setString(1, id);
            byte[] output = null;
            try (ResultSet rows = select.executeQuery()) {
                if (rows.next()) {
                    output = rows.getBytes(1);
                }
            }
            healthy = true;
            return output;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /** Every session's row, oldest first, as {@link #info(String)} reads one. */
    List<Row> list() throws SQLException {
        return query("SELECT " + INFO_COLUMNS + LISTED + SessionQueries.ORDER, List.of());
    }

    /**
     * The rows {@code select} picks, in its order, as {@link #info(String)} reads one.
     *
     * @throws IllegalArgumentException on PostgreSQL, for a text with a NUL character (a made-up
     *         cursor's id, a filter's value), which its text cannot hold, nor so any row
     */
    List<Row> select(SessionQueries.Select select) throws SQLException {
        if (dialect == Dialect.POSTGRES && select.parameters().stream().anyMatch(
                parameter -> parameter instanceof String text && text.indexOf('\0') >= 0)) {
            throw new IllegalArgumentException("cannot list sessions by a text with a NUL character (in a filter, or"
                    + " the id of a cursor): PostgreSQL's text holds none, so no session of " + description
                    + " has one");
        }
        return query(sql(select), select.parameters());
    }

    /** The statement that reads the rows {@code select} picks. */
    static String sql(SessionQueries.Select select) {
        return "SELECT " + INFO_COLUMNS + " FROM " + select.source() + BUILDS_JOINED + select.sql();
    }

    /** How many sessions have one build (null: ended sessions), and that build's manifest. */
    record BuildCount(String build, long sessions, String manifest) {
    }

    /**
     * What each node accepted of other builds' code ({@link Sessions#acceptedBuilds()}): a row per
     * build whose sessions a node took on its changed code, and node, with when that node did so
     * first.
     */
    private static final String CREATE_ACCEPTED_BUILDS = "CREATE TABLE IF NOT EXISTS weft_accepted_builds ("
            + "build VARCHAR(64) NOT NULL, node VARCHAR(" + HistoryTable.MAX_NODE + ") NOT NULL,"
            + " first_at BIGINT NOT NULL, PRIMARY KEY (build, node))";

    /**
     * Records, in this transaction, that {@code node} took frames of {@code build} on its changed
     * code at {@code at}; kept once per build and node.
     */
    void recordAccepted(Connection connection, String build, String node, long at) throws SQLException {
        PreparedStatement insert = prepared(connection, "INSERT INTO weft_accepted_builds (build, node, first_at)"
                + " VALUES (?, ?, ?) ON CONFLICT (build, node) DO NOTHING");
        insert.setString(1, build);
        insert.setString(2, node);
        insert.setLong(3, at);
        insert.executeUpdate();
    }

    /** Every build a node accepted on changed code, the earliest first. */
    List<Sessions.AcceptedBuild> acceptedBuilds() throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT build, node, first_at FROM weft_accepted_builds"
                        + " ORDER BY first_at, build, node")) {
            List<Sessions.AcceptedBuild> accepted = new ArrayList<>();
            while (rows.next()) {
                accepted.add(new Sessions.AcceptedBuild(rows.getString(1), rows.getString(2),
                        java.time.Instant.ofEpochMilli(rows.getLong(3))));
            }
            healthy = true;
            return accepted;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /** The sessions counted by build, most first. */
    List<BuildCount> builds() throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT s.build, COUNT(*), MIN(COALESCE(s.manifest, b.manifest))"
                        + LISTED + " GROUP BY s.build ORDER BY COUNT(*) DESC, s.build")) {
            List<BuildCount> counts = new ArrayList<>();
            while (rows.next()) {
                counts.add(new BuildCount(rows.getString(1), rows.getLong(2), rows.getString(3)));
            }
            healthy = true;
            return counts;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /** How many sessions have each status named in the store (a status no session has is left out). */
    Map<String, Long> statusCounts() throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT status, COUNT(*) FROM weft_sessions GROUP BY status"
                        + " ORDER BY status")) {
            Map<String, Long> counts = new java.util.LinkedHashMap<>();
            while (rows.next()) {
                counts.put(String.valueOf(rows.getString(1)), rows.getLong(2));
            }
            healthy = true;
            return counts;
        } finally {
            pool.give(connection, healthy);
        }
    }

    /** The rows {@code sql} selects, its parameters bound from {@code parameters}: strings, longs, ints. */
    private List<Row> query(String sql, List<Object> parameters) throws SQLException {
        Connection connection = pool.take();
        boolean healthy = false;
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            int index = 1;
            for (Object parameter : parameters) {
                if (parameter instanceof String text) {
                    select.setString(index++, text);
                } else if (parameter instanceof Long number) {
                    select.setLong(index++, number);
                } else {
                    select.setInt(index++, (Integer) parameter);
                }
            }
            List<Row> found = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.add(row(rows));
                }
            }
            healthy = true;
            return found;
        } finally {
            pool.give(connection, healthy);
        }
    }
}
