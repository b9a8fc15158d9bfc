package dev.weft.sessions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The SQL of a {@link SessionQuery}: its filters and position as a {@code WHERE} clause whose
 * every value is a parameter, in listing order, one row more than a page (so that a page knows
 * whether another follows); and the indexes that let a store of any size be paged so. Stateless.
 */
final class SessionQueries {

    /*
     * Keyset paging: a page is the rows after the last one of the page before, by (created_at,
     * id), which never change: WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT n.
     * Each equality filter has an index that leads with its column and goes on in listing order,
     * so that a filtered page is a range of one index too; the kinds of wait are bound by name
     * from the enum, whatever kinds it has.
     */

    /** The indexes a listing needs, each created if missing when a store is opened. */
    static final List<String> INDEXES = List.of(
            "CREATE INDEX IF NOT EXISTS weft_sessions_created ON weft_sessions (created_at, id)",
            "CREATE INDEX IF NOT EXISTS weft_sessions_status ON weft_sessions (status, created_at, id)",
            "CREATE INDEX IF NOT EXISTS weft_sessions_build_created ON weft_sessions (build, created_at, id)",
            "CREATE INDEX IF NOT EXISTS weft_sessions_point ON weft_sessions (point, created_at, id)"
                    + " WHERE point IS NOT NULL",
            "CREATE INDEX IF NOT EXISTS weft_sessions_waiting ON weft_sessions (wait_kind, created_at, id)"
                    + " WHERE wait_kind IS NOT NULL");

    /** The listing order, for every listing. */
    static final String ORDER = " ORDER BY s.created_at, s.id";

    private SessionQueries() {
    }

    /** A statement's tail (after {@code SELECT ... FROM ...}) and its parameters: strings, longs and ints. */
    record Select(String sql, List<Object> parameters) {
    }

    /** The rows of {@code query}'s page, and one more if there is one: its filters, position, order and limit. */
    static Select page(SessionQuery query) {
        List<String> conditions = new ArrayList<>();
        List<Object> parameters = new ArrayList<>();
        in(conditions, parameters, "s.status", query.statuses().stream().map(Enum::name).toList());
        if (query.build() != null) {
            conditions.add("s.build = ?");
            parameters.add(query.build());
        }
        if (query.point() != null) {
            conditions.add("s.point = ?");
            parameters.add(query.point());
        }
        if (query.waits() != null && query.waits().isEmpty()) {
            conditions.add("s.wait_kind IS NULL");
        } else if (query.waits() != null) {
            in(conditions, parameters, "s.wait_kind", query.waits().stream().map(Enum::name).toList());
        }
        if (query.dueBefore() != null) {
            conditions.add("s.due_at < ?");
            parameters.add(millis(query.dueBefore()));
        }
        SessionCursor position = query.position();
        if (position != null) {
            conditions.add("(s.created_at, s.id) > (?, ?)");
            parameters.add(position.created());
            parameters.add(position.id());
        }
        parameters.add(query.limit() + 1);
        return new Select((conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions)) + ORDER
                + " LIMIT ?", Collections.unmodifiableList(parameters));
    }

    /** {@code column} is one of {@code values}, if any are given. */
    private static void in(List<String> conditions, List<Object> parameters, String column, Collection<String> values) {
        if (values.isEmpty()) {
            return;
        }
        conditions.add(values.size() == 1 ? column + " = ?" : column + " IN (" + String.join(", ",
                Collections.nCopies(values.size(), "?")) + ")");
        parameters.addAll(values);
    }

    /** {@code time} in epoch milliseconds, those beyond a long's range as its ends (every due time is within). */
    private static long millis(Instant time) {
        try {
            return time.toEpochMilli();
        } catch (ArithmeticException e) {
            return time.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
