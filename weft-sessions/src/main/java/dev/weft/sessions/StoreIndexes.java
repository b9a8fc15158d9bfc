package dev.weft.sessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
 * and built again. The SQL only; stateless; any thread.
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

    /** Every index, the listings' included ({@link SessionQueries#INDEXES}). */
    static final List<Index> ALL = all();

    private static List<Index> all() {
        List<Index> all = new ArrayList<>(List.of(
                new Index("weft_sessions_build", "weft_sessions", "(build)"),
                new Index("weft_sessions_due", "weft_sessions", "(due_at) WHERE due_at IS NOT NULL"),
                new Index("weft_sessions_deadline", "weft_sessions",
                        "(deadline_at) WHERE deadline_at IS NOT NULL")));
        all.addAll(SessionQueries.INDEXES);
        all.add(new Index("weft_messages_session", "weft_messages", "(session_id, seq)"));
        all.add(new Index("weft_history_session", "weft_history", "(session_id, seq)"));
        all.add(new Index("weft_history_started", "weft_history", "(started_at)"));
        return List.copyOf(all);
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
     * Creates, in the opening transaction, the indexes of the tables that are not in
     * {@code buildLater} (all of them on SQLite); returns those left to build: the indexes of
     * the tables in {@code buildLater} that are missing or invalid (PostgreSQL).
     */
    static List<Index> create(Statement statement, Set<String> buildLater) throws SQLException {
        for (Index index : ALL) {
            if (!buildLater.contains(index.table())) {
                statement.execute(index.create(false));
            }
        }
        if (buildLater.isEmpty()) {
            return List.of();
        }
        Set<String> valid = validIndexes(statement);
        return ALL.stream().filter(index -> buildLater.contains(index.table()) && !valid.contains(index.name()))
                .toList();
    }

    /** PostgreSQL: the names of the valid indexes the session's search path sees. */
    private static Set<String> validIndexes(Statement statement) throws SQLException {
        Set<String> valid = new HashSet<>();
        try (ResultSet indexes = statement.executeQuery("SELECT c.relname FROM pg_index i JOIN pg_class c"
                + " ON c.oid = i.indexrelid WHERE i.indisvalid AND pg_table_is_visible(c.oid)")) {
            while (indexes.next()) {
                valid.add(indexes.getString(1));
            }
        }
        return valid;
    }

    /**
     * PostgreSQL: builds {@code missing} on {@code connection}, in autocommit mode, concurrently,
     * unless another node is building indexes; an invalid one is dropped first. Returns whether
     * this node built them (false: another node holds the builders' lock).
     */
    static boolean buildConcurrently(Connection connection, List<Index> missing) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            try (ResultSet locked = statement.executeQuery("SELECT pg_try_advisory_lock(" + BUILDING + ")")) {
                if (!locked.next() || !locked.getBoolean(1)) {
                    return false;
                }
            }
            try {
                for (Index index : missing) {
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
