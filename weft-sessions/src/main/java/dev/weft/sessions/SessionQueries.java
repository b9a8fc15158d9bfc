package dev.weft.sessions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The SQL of a {@link SessionQuery}: its filters and position as {@code WHERE} clauses whose
 * every value is a parameter, in listing order, one row more than a page (so that a page knows
 * whether another follows); and the indexes that let a store of any size be paged so, each
 * page a range of an index, or for several statuses or kinds of wait a range of an index for
 * each. Stateless.
 */
final class SessionQueries {

    /*
     * Keyset paging: a page is the rows after the last one of the page before, by (created_at,
     * id), which never change: WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT n.
     * Each equality filter has an index that leads with its column and goes on in listing order,
     * so that a filtered page is a range of one index too; the kinds of wait are bound by name
     * from the enum, whatever kinds it has. Several values of one column would be a sort of all
     * the rows that pass (an index gives each value's rows in order, not their merge): a union of
     * one arm per value instead reads at most a page from each, and sorts those.
     */

    /** The indexes a listing needs, each created if missing when a store is opened ({@link StoreIndexes}). */
    static final List<StoreIndexes.Index> INDEXES = List.of(
            listing("weft_sessions_created", "(created_at, id)", ""),
            listing("weft_sessions_status", "(status, created_at, id)", ""),
            listing("weft_sessions_build_created", "(build, created_at, id)", ""),
            listing("weft_sessions_point", "(point, created_at, id)", " WHERE point IS NOT NULL"),
            listing("weft_sessions_parent", "(parent_id, created_at, id)", " WHERE parent_id IS NOT NULL"),
            listing("weft_sessions_waiting", "(wait_kind, created_at, id)", " WHERE wait_kind IS NOT NULL"));

    private static StoreIndexes.Index listing(String name, String columns, String where) {
        return new StoreIndexes.Index(name, "weft_sessions", columns + where);
    }

    /** The listing order, for every listing. */
    static final String ORDER = " ORDER BY s.created_at, s.id";

    private SessionQueries() {
    }

    /**
     * A listing's statement but for what it selects: the table it reads as {@code s} (the table
     * itself, or a union of arms), what follows the join of builds, and its parameters in order:
     * strings, longs and ints.
     */
    record Select(String source, String sql, List<Object> parameters) {
    }

    /**
     * The rows of {@code query}'s page, and one more if there is one: its filters, position,
     * order and limit. A filter of several statuses or kinds of wait is a union of arms, one per
     * status and kind, each read in listing order from its index up to the page's size, and the
     * page the first rows of their merge; so is a due time with no kind named (an arm per kind:
     * only a session that waits has a due time).
     */
    static Select page(SessionQuery query) {
        int rows = query.limit() + 1;
        List<String> statuses = names(query.statuses());
        Collection<SessionInfo.WaitKind> waits = query.waits() == null && query.dueBefore() != null
                ? List.of(SessionInfo.WaitKind.values()) : query.waits();
        List<String> kinds = waits == null || waits.isEmpty() ? Collections.singletonList(null) : names(waits);
        List<Object> parameters = new ArrayList<>();
        if (statuses.size() * kinds.size() == 1) {
            String where = where(query, statuses.get(0), kinds.get(0), parameters);
            parameters.add(rows);
            return new Select("weft_sessions", where + ORDER + " LIMIT ?", Collections.unmodifiableList(parameters));
        }
        List<String> arms = new ArrayList<>();
        for (String status : statuses) {
            for (String kind : kinds) {
                arms.add("SELECT * FROM (SELECT * FROM weft_sessions s" + where(query, status, kind, parameters)
                        + ORDER + " LIMIT ?) arm" + arms.size());
                parameters.add(rows);
            }
        }
        parameters.add(rows);
        return new Select("(" + String.join(" UNION ALL ", arms) + ")", ORDER + " LIMIT ?",
                Collections.unmodifiableList(parameters));
    }

    /** The names of {@code values}, or one null for none. */
    private static List<String> names(Collection<? extends Enum<?>> values) {
        return values.isEmpty() ? Collections.singletonList(null) : values.stream().map(Enum::name).toList();
    }

    /** The WHERE clause of one arm of {@code query}: of {@code status} and {@code kind} (null: any). */
    private static String where(SessionQuery query, String status, String kind, List<Object> parameters) {
        List<String> conditions = new ArrayList<>();
        equal(conditions, parameters, "s.status", status);
        equal(conditions, parameters, "s.build", query.build());
        equal(conditions, parameters, "s.point", query.point());
        equal(conditions, parameters, "s.parent_id", query.parent());
        if (query.waits() != null && query.waits().isEmpty()) {
            conditions.add("s.wait_kind IS NULL");
        }
        equal(conditions, parameters, "s.wait_kind", kind);
        if (query.dueBefore() != null) {
            conditions.add("s.due_at < ?");
            parameters.add(millis(query.dueBefore()));
        }
        if (query.failure() != null) {
            conditions.add("LOWER(s.failure) LIKE ? ESCAPE '!'");
            parameters.add("%" + likeEscaped(query.failure().toLowerCase(java.util.Locale.ROOT)) + "%");
        }
        if (query.createdBefore() != null) {
            conditions.add("s.created_at < ?");
            parameters.add(millis(query.createdBefore()));
        }
        SessionCursor position = query.position();
        if (position != null) {
            conditions.add("(s.created_at, s.id) > (?, ?)");
            parameters.add(position.created());
            parameters.add(position.id());
        }
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    /** {@code text} with the characters that {@code LIKE} gives a meaning escaped by {@code !}. */
    private static String likeEscaped(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
    }

    /** {@code column} is {@code value}, if it is not null. */
    private static void equal(List<String> conditions, List<Object> parameters, String column, String value) {
        if (value != null) {
            conditions.add(column + " = ?");
            parameters.add(value);
        }
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
