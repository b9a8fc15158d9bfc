package dev.weft.sessions;

import dev.weft.sessions.SessionStore.Row;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The stored sessions as a node reads them without locks: one ({@link Sessions#status} and the
 * like), all of them or a page of a
 * {@link SessionQuery} ({@link Sessions#list}), each with this node's verdict
 * ({@link SessionsCommand}), and counted by build ({@link Sessions#builds()}). The store
 * applies a query's filters; each row it returns is then checked as {@link Sessions#status}
 * checks one: a listing of {@link SessionInfo}s refuses the first row that is not to be trusted,
 * naming it and the column, and a listing with verdicts shows that row's reason instead. Any thread.
 */
final class SessionListing {

    /** One stored session as {@link SessionsCommand} lists it: what the store says, if it is trusted, and this node's verdict. */
    record Listing(String id, SessionInfo info, String refusal) {
    }

    /** A page of what a query lists, and the cursor of the next page, or null. */
    record Page<T>(List<T> items, String next) {
    }

    private final SessionStore store;
    private final RowReader rows;

    SessionListing(SessionStore store, RowReader rows) {
        this.store = store;
        this.rows = rows;
    }

    /** What the store says about session {@code id}; see {@link Sessions#status}. */
    Optional<SessionInfo> status(String id) {
        return info(id).map(rows::info);
    }

    /** The output of session {@code id}'s last step; see {@link Sessions#lastOutput}. */
    Optional<Object> lastOutput(String id) {
        return info(id).map(row -> {
            rows.info(row);
            return rows.readQuietly(row.output());
        });
    }

    /** Why this node would refuse to resume session {@code id}; see {@link Sessions#refusal}. */
    Optional<String> refusal(String id) {
        return info(id).map(rows::refusal);
    }

    /** One session as the console's page shows it, from one read of its row. */
    record Detail(Listing listing, SessionStack stack, Object output) {
    }

    /**
     * Session {@code id} with this node's verdict, its frames ({@link Sessions#stack}) and, if its
     * row is trusted, its last output, all from one read of its row; empty if there is none.
     */
    Optional<Detail> detail(String id) {
        return info(id).map(row -> {
            Listing listing = rows.listing(row);
            return new Detail(listing, rows.stack(row), listing.info() == null ? null : rows.readQuietly(row.output()));
        });
    }

    /** Session {@code id} with this node's verdict, as a listing shows it; empty if there is none. */
    Optional<Listing> one(String id) {
        return info(id).map(rows::listing);
    }

    /** How many sessions have each status the store names, as stored (a tampered name included). */
    java.util.Map<String, Long> statusCounts() {
        try {
            return store.statusCounts();
        } catch (SQLException e) {
            throw StoreFailures.ofStore(store, "cannot count the sessions by status", e);
        }
    }

    /** Session {@code id}'s frames as an operator reads them; see {@link Sessions#stack}. */
    Optional<SessionStack> stack(String id) {
        return info(id).map(rows::stack);
    }

    private Optional<Row> info(String id) {
        try {
            return store.info(id);
        } catch (SQLException e) {
            throw StoreFailures.of(store, id, "cannot read it from " + store, e);
        }
    }

    /** Every stored session, oldest first; see {@link Sessions#list()}. */
    List<SessionInfo> all() {
        return all(rows::info);
    }

    /** Every stored session, oldest first, each with this node's verdict; a row that is not trusted has no info. */
    List<Listing> listing() {
        return all(rows::listing);
    }

    /** The page of sessions {@code query} names; see {@link Sessions#list(SessionQuery)}. */
    SessionPage page(SessionQuery query) {
        Page<SessionInfo> page = page(query, rows::info);
        return new SessionPage(page.items(), page.next());
    }

    /** The page of sessions {@code query} names, each with this node's verdict. */
    Page<Listing> listing(SessionQuery query) {
        return page(query, rows::listing);
    }

    /** One suspended session as {@link SessionsCommand}'s {@code changes} lists it: its build and this node's {@link RowReader#resumeVerdict}. */
    record Change(String id, long version, String build, String verdict) {
    }

    /** The page of suspended sessions {@code query} names, each with how this node would resume it. */
    Page<Change> changes(SessionQuery query) {
        return page(query.status(SessionStatus.SUSPENDED), row -> new Change(row.id(), row.version(), row.build(),
                rows.resumeVerdict(row)));
    }

    private <T> List<T> all(Function<Row, T> read) {
        try {
            return store.list().stream().map(read).toList();
        } catch (SQLException e) {
            throw StoreFailures.ofStore(store, "cannot list the sessions", e);
        }
    }

    /** The rows of {@code query}'s page, each read by {@code read}; the next page's cursor if a row follows them. */
    private <T> Page<T> page(SessionQuery query, Function<Row, T> read) {
        List<Row> found;
        try {
            found = store.select(SessionQueries.page(query));
        } catch (SQLException e) {
            throw StoreFailures.ofStore(store, "cannot list the sessions (" + query + ")", e);
        }
        boolean more = found.size() > query.limit();
        List<Row> page = more ? found.subList(0, query.limit()) : found;
        List<T> items = page.stream().map(read).toList();
        if (!more) {
            return new Page<>(items, null);
        }
        int end = page.size();
        while (end > 0 && !SessionCursor.holds(page.get(end - 1).id())) {
            end--; // a row whose id no session has (a listing with verdicts shows it refused): the next page's
        }
        if (end == 0) {
            Row first = page.get(0);
            throw new SessionRefusedException(first.id(), first.build(), rows.distrust(first) + ": a listing cannot"
                    + " name the position after it; list pages of more sessions", null);
        }
        Row last = page.get(end - 1);
        return new Page<>(items.subList(0, end), new SessionCursor(last.created(), last.id()).text());
    }

    /** The stored sessions by build, most first, each with this node's verdict; see {@link Sessions#builds()}. */
    List<Sessions.BuildSummary> builds() {
        List<SessionStore.BuildCount> counts;
        try {
            counts = store.builds();
        } catch (SQLException e) {
            throw StoreFailures.ofStore(store, "cannot count the sessions by build", e);
        }
        return counts.stream().map(count -> new Sessions.BuildSummary(count.build(), count.sessions(),
                count.build() == null ? null : rows.buildRefusal(count.build(), count.manifest()))).toList();
    }
}
