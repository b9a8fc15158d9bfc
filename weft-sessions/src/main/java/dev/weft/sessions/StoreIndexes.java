package dev.weft.sessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every index of the store's tables, and how a store opened on a database gets those it lacks,
 * so that a database written by an older version of Weft gets the indexes of this one without
 * stopping its other nodes.
 *
 * <p>SQLite, and a table created by the opening transaction itself: each index is created in
 * that transaction ({@code CREATE INDEX IF NOT EXISTS}), as the table is. PostgreSQL, on a table
 * that was there before: a missing index is built after that transaction, with
 * {@code CREATE INDEX CONCURRENTLY}, which lets the other nodes go on writing the table while it
 * is built (a plain {@code CREATE INDEX} would block every step for as long as the build of a
 * large table takes); one node at a time builds ({@code pg_try_advisory_lock}: a node that finds
 * another building goes on without the index, and the next node opened builds what is still
 * missing); an index a build left invalid (its node was killed, or the build failed) is dropped
 * and built again. An index of an older version that nothing reads any more ({@link #RETIRED})
 * is dropped the same way: in the opening transaction, or concurrently after it. The SQL only;
 * stateless; any thread.
 */
final class StoreIndexes {

    /**
     * One index: its name, its table, and its columns and predicate ({@code (columns) [WHERE ...]}).
     *
     * @param name    the index's name, unique in the database
     * @param table   the table it indexes
     * @param columns its columns, and the predicate of a partial index
     */
    record Index(String name, String table, String columns) {

        /** The statement that creates it if missing; {@code concurrently}: PostgreSQL's build that blocks no writer. */
        String create(boolean concurrently) {
            return "CREATE INDEX " + (concurrently ? "CONCURRENTLY " : "") + "IF NOT EXISTS " + name + " ON " + table + " "
                    + columns;
        }
    }

    /** The advisory lock the node that builds indexes concurrently holds (the tables' creation holds 7217). */
    private static final int BUILDING = 7218;

    /**
     * Indexes that older versions created and nothing reads any more, which cost every write of
     * their table: {@code weft_history_started}, which pruned the history by time before it was
     * pruned in the order written ({@link HistoryTable#prune}).
     */
    static final List<String> RETIRED = List.of("weft_history_started");

    /** Every index, the listings' included ({@link SessionQueries#INDEXES}). */
    static final List<Index> ALL = all();

    private static List<Index> all() {
        List<Index> all = new ArrayList<>(List.of(
                new Index("weft_sessions_build", "weft_sessions", "(build)"),
                new Index("weft_sessions_due", "weft_sessions", "(due_at) WHERE due_at IS NOT NULL"),
                new Index("weft_sessions_deadline", "weft_sessions",
                        "(deadline_at) WHERE deadline_at IS NOT NULL")));
        all.addAll(claims());
        all.addAll(SessionQueries.INDEXES);
        all.add(new Index("weft_messages_session", "weft_messages", "(session_id, seq)"));
        all.add(new Index("weft_history_session", "weft_history", "(session_id, seq)"));
        return List.copyOf(all);
    }

    /**
     * An index of exactly the rows of each kind a worker claims in order (waits due, deadlines:
     * {@link SessionStore#WAITING_ROWS}, {@link SessionStore#RUNNING_ROWS}), ordered as it claims
     * them. Without them, on a table whose statistics are missing or stale (new, or grown since it
     * was last analyzed), PostgreSQL's planner estimated that few sessions are suspended and read
     * them all by the index of statuses at every look and claim; a partial index whose predicate
     * is the query's own is read in order with nothing left to filter, whatever the statistics say.
     */
    private static List<Index> claims() {
        return List.of(new Index("weft_sessions_due_claims", "weft_sessions", "(due_at) WHERE " + SessionStore.WAITING_ROWS),
                new Index("weft_sessions_deadline_claims", "weft_sessions", "(deadline_at) WHERE " + SessionStore.RUNNING_ROWS));
    }

    private StoreIndexes() {
    }

    /** PostgreSQL: the tables of {@link #ALL} that exist, read in the opening transaction before it creates any. */
    static Set<String> existingTables(Statement statement) throws SQLException {
        Set<String> existing = new HashSet<>();
        String tables = String.join("', '", ALL.stream().map(Index::table).distinct().toList());
        try (ResultSet found = statement.executeQuery("SELECT t FROM unnest(ARRAY['" + tables + "']) t"
                + " WHERE to_regclass(t) IS NOT NULL")) {
            while (found.next()) {
                existing.add(found.getString(1));
            }
        }
        return existing;
    }

    /**
     * What the opening transaction leaves to do on PostgreSQL, outside any transaction, to tables
     * that existed: indexes to build (missing or invalid) and retired indexes to drop.
     */
    record Pending(List<Index> missing, List<String> retired) {

        static final Pending NONE = new Pending(List.of(), List.of());

        boolean isEmpty() {
            return missing.isEmpty() && retired.isEmpty();
        }
    }

    /**
     * Creates, in the opening transaction, the indexes of the tables that are not in
     * {@code buildLater} (all of them on SQLite), and drops {@link #RETIRED} indexes there; returns
     * what is left for {@link #buildConcurrently}: the indexes of the tables in {@code buildLater}
     * that are missing or invalid, and the retired ones they have (PostgreSQL).
     */
    static Pending create(Statement statement, Set<String> buildLater) throws SQLException {
        for (Index index : ALL) {
            if (!buildLater.contains(index.table())) {
                statement.execute(index.create(false));
            }
        }
        if (buildLater.isEmpty()) {
            for (String retired : RETIRED) {
                statement.execute("DROP INDEX IF EXISTS " + retired);
            }
            return Pending.NONE;
        }
        Map<String, Boolean> present = indexes(statement);
        return new Pending(ALL.stream().filter(index -> buildLater.contains(index.table())
                        && !present.getOrDefault(index.name(), false)).toList(),
                RETIRED.stream().filter(present::containsKey).toList());
    }

    /** PostgreSQL: the indexes the session's search path sees, each with whether it is valid. */
    private static Map<String, Boolean> indexes(Statement statement) throws SQLException {
        Map<String, Boolean> present = new HashMap<>();
        try (ResultSet indexes = statement.executeQuery("SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c"
                + " ON c.oid = i.indexrelid WHERE pg_table_is_visible(c.oid)")) {
            while (indexes.next()) {
                present.put(indexes.getString(1), indexes.getBoolean(2));
            }
        }
        return present;
    }

    /**
     * PostgreSQL: drops {@code pending}'s retired indexes and builds its missing ones on
     * {@code connection}, in autocommit mode, concurrently, unless another node is doing so; an
     * invalid index is dropped first. Returns whether this node did (false: another node holds
     * the builders' lock).
     */
    static boolean buildConcurrently(Connection connection, Pending pending) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            try (ResultSet locked = statement.executeQuery("SELECT pg_try_advisory_lock(" + BUILDING + ")")) {
                if (!locked.next() || !locked.getBoolean(1)) {
                    return false;
                }
            }
            try {
                for (String retired : pending.retired()) {
                    statement.execute("DROP INDEX CONCURRENTLY IF EXISTS " + retired);
                }
                for (Index index : pending.missing()) {
                    if (isInvalid(connection, index)) {
                        statement.execute("DROP INDEX CONCURRENTLY IF EXISTS " + index.name());
                    }
                    statement.execute(index.create(true));
                }
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + BUILDING + ")");
            }
            return true;
        }
    }

    private static boolean isInvalid(Connection connection, Index index) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT NOT i.indisvalid FROM pg_index i"
                + " JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ? AND pg_table_is_visible(c.oid)")) {
            select.setString(1, index.name());
            try (ResultSet found = select.executeQuery()) {
                return found.next() && found.getBoolean(1);
            }
        }
    }
}
