package dev.weft.sessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Rows of {@code weft_sessions} and {@code weft_builds} as the database holds them, read and
 * written behind the sessions' back, as someone with access to the store would: every column
 * by its name, as text, a number or bytes.
 */
final class StoredRows {

    /** The columns of {@code weft_sessions} and how each is stored. */
    enum Kind { TEXT, NUMBER, BYTES }

    static final Map<String, Kind> COLUMNS = columns();

    private StoredRows() {
    }

    /** The rows the {@code Ledger} body wrote for session {@code id}, as {@code step:input}, in step order. */
    static List<String> ledger(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT step, input FROM ledger WHERE session = ? ORDER BY step")) {
            select.setString(1, id);
            List<String> rows = new java.util.ArrayList<>();
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getInt(1) + ":" + result.getString(2));
                }
            }
            return rows;
        }
    }

    private static Map<String, Kind> columns() {
        Map<String, Kind> columns = new LinkedHashMap<>();
        for (String text : List.of("id", "status", "build", "manifest", "point", "failure", "wait_kind", "parent_id")) {
            columns.put(text, Kind.TEXT);
        }
        for (String number : List.of("version", "created_at", "updated_at", "due_at", "attempts", "deadline_at")) {
            columns.put(number, Kind.NUMBER);
        }
        for (String bytes : List.of("point_values", "state", "output", "seal", "retry_input")) {
            columns.put(bytes, Kind.BYTES);
        }
        return Map.copyOf(columns);
    }

    /** Session {@code id}'s row, column by column; null if there is none. */
    static Map<String, Object> read(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT * FROM weft_sessions WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                Map<String, Object> row = new LinkedHashMap<>();
                for (Map.Entry<String, Kind> column : COLUMNS.entrySet()) {
                    String name = column.getKey();
                    row.put(name, switch (column.getValue()) {
                        case TEXT -> rows.getString(name);
                        case NUMBER -> rows.getObject(name) == null ? null : rows.getLong(name);
                        case BYTES -> rows.getBytes(name);
                    });
                }
                return row;
            }
        }
    }

    /** Sets {@code column} of session {@code id}'s row to {@code value}; returns the rows changed. */
    static int set(Connection connection, String id, String column, Object value) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE weft_sessions SET " + column
                + " = ? WHERE id = ?")) {
            bind(update, 1, COLUMNS.get(column), value);
            update.setString(2, id);
            int changed = update.executeUpdate();
            commit(connection);
            return changed;
        }
    }

    /** Puts {@code row} back as it was under its id, whatever the store holds under {@code id} now. */
    static void put(Connection connection, String id, Map<String, Object> row) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM weft_sessions WHERE id = ? OR id = ?")) {
            delete.setString(1, id);
            delete.setString(2, (String) row.get("id"));
            delete.executeUpdate();
        }
        List<String> names = List.copyOf(row.keySet());
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO weft_sessions ("
                + String.join(", ", names) + ") VALUES (" + String.join(", ", names.stream().map(n -> "?").toList())
                + ")")) {
            for (int i = 0; i < names.size(); i++) {
                bind(insert, i + 1, COLUMNS.get(names.get(i)), row.get(names.get(i)));
            }
            insert.executeUpdate();
        }
        commit(connection);
    }

    /** Every build's manifest in {@code weft_builds}. */
    static Map<String, String> builds(Connection connection) throws SQLException {
        Map<String, String> builds = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT build, manifest FROM weft_builds");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                builds.put(rows.getString(1), rows.getString(2));
            }
        }
        return builds;
    }

    /** Sets {@code build}'s manifest in {@code weft_builds} (null: deletes it). */
    static void setBuild(Connection connection, String build, String manifest) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM weft_builds WHERE build = ?")) {
            delete.setString(1, build);
            delete.executeUpdate();
        }
        if (manifest != null) {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO weft_builds (build, manifest) VALUES (?, ?)")) {
                insert.setString(1, build);
                insert.setString(2, manifest);
                insert.executeUpdate();
            }
        }
        commit(connection);
    }

    /** Whether two rows (or two columns' values) hold the same bytes. */
    static boolean same(Object one, Object other) {
        if (one instanceof Map<?, ?> a && other instanceof Map<?, ?> b) {
            return a.keySet().equals(b.keySet()) && a.keySet().stream().allMatch(k -> same(a.get(k), b.get(k)));
        }
        if (one instanceof byte[] a && other instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return Objects.equals(one, other);
    }

    /** A row as a failing case prints it: bytes by length and hash. */
    static String describe(Map<String, Object> row) {
        if (row == null) {
            return "(no row)";
        }
        StringBuilder text = new StringBuilder("{");
        row.forEach((name, value) -> text.append(name).append('=').append(value instanceof byte[] bytes
                ? bytes.length + " bytes #" + Integer.toHexString(Arrays.hashCode(bytes))
                : value instanceof String s && s.length() > 80 ? s.substring(0, 80) + "...(" + s.length() + ")"
                : value).append(", "));
        return text.append('}').toString();
    }

    private static void bind(PreparedStatement statement, int index, Kind kind, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, switch (kind) {
                case TEXT -> Types.VARCHAR;
                case NUMBER -> Types.BIGINT;
                case BYTES -> Types.BINARY;
            });
            return;
        }
        switch (kind) {
            case TEXT -> statement.setString(index, (String) value);
            case NUMBER -> statement.setLong(index, (Long) value);
            case BYTES -> statement.setBytes(index, (byte[]) value);
        }
    }

    private static void commit(Connection connection) throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }
}
