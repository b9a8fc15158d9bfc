package dev.weft.sessions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which stored sessions {@link Sessions#list(SessionQuery)} finds, and which page of them: the
 * sessions that pass every filter set, oldest first (by creation time, then id), at most
 * {@link #limit(int) limit} of them after the position a cursor names.
 *
 * <pre>{@code
 * SessionQuery asleep = SessionQuery.all().status(SessionStatus.SUSPENDED)
 *         .waitingFor(SessionInfo.WaitKind.SLEEP).dueBefore(Instant.now().plus(Duration.ofDays(1)));
 * for (SessionPage page = sessions.list(asleep); ; page = sessions.list(asleep.after(page.next()))) {
 *     page.sessions().forEach(info -> System.out.println(info.id() + " wakes at " + info.waiting().until()));
 *     if (page.next() == null) {
 *         break;
 *     }
 * }
 * }</pre>
 *
 * <p>Filters: {@link #status}, {@link #build}, {@link #point}, {@link #parent}, what a session
 * waits for ({@link #waitingFor}, {@link #waitingForNothing}), {@link #dueBefore},
 * {@link #failureContaining} and {@link #createdBefore}; each names one column's values, all of
 * them must hold, and the store applies them. Each of status, build,
 * point, parent and kind of wait has an index that goes on in listing order (see {@link SessionStore}),
 * so that a page is read as a range of one index (of several statuses or kinds, a range of it
 * for each, at most a page from each, merged); the other filters are compared on the way, so a
 * page of a filter that few sessions pass reads the sessions the index gives until it has a page
 * (a due time, with no kind named, is read by the index of each kind of wait).
 * {@link #waitingForNothing()} has no index of its own: it is read in listing order. A filter
 * is compared with the row as stored: a
 * row changed in the store so that a filter passes over it is not listed; a row listed is
 * checked as {@link Sessions#list()} checks each (with a key, its seal).
 *
 * <p>Paging: a page's {@link SessionPage#next() next()} is the position after its last session;
 * {@link #after(String)} starts the next page there. A position is a session's creation time
 * and id, which never change, so paging through a store, however large, reads each page by its
 * index (page 1,000 costs what page 1 does) and lists each session at most once, in order, even
 * as sessions are started, stepped and removed meanwhile: a session that passes the filters when
 * its page is read is listed, one that does not is not, one started after the listing began is
 * listed if it sorts after the position (sessions started later by a node whose clock is
 * behind may sort before it). A cursor is only a position, so it may be given to a query with
 * other filters.
 *
 * <p>Immutable and thread-safe: each method returns a new query.
 */
public final class SessionQuery {

    /** How many sessions a page holds unless {@link #limit(int)} says otherwise. */
    public static final int DEFAULT_LIMIT = 100;
    /** The most sessions a page holds. */
    public static final int MAX_LIMIT = 1_000;

    private static final SessionQuery ALL = new SessionQuery(Set.of(), null, null, null, null, DEFAULT_LIMIT, null,
            null, null, null);

    /** The statuses a session may have; empty: any. */
    private final Set<SessionStatus> statuses;
    private final String build;
    private final String point;
    /** The kinds of wait a session may have; null: any or none, empty: none. */
    private final Set<SessionInfo.WaitKind> waits;
    private final Instant dueBefore;
    private final int limit;
    private final SessionCursor after;
    private final String parent;
    private final String failure;
    private final Instant createdBefore;

    private SessionQuery(Set<SessionStatus> statuses, String build, String point, Set<SessionInfo.WaitKind> waits,
            Instant dueBefore, int limit, SessionCursor after, String parent, String failure, Instant createdBefore) {
        this.statuses = statuses;
        this.build = build;
        this.point = point;
        this.waits = waits;
        this.dueBefore = dueBefore;
        this.limit = limit;
        this.after = after;
        this.parent = parent;
        this.failure = failure;
        this.createdBefore = createdBefore;
    }

    /**
     * Every stored session, oldest first, a first page of {@value #DEFAULT_LIMIT}.
     *
     * @return the query with no filters
     */
    public static SessionQuery all() {
        return ALL;
    }

    /**
     * Only sessions with one of {@code statuses}; none given: any status.
     *
     * @param statuses the statuses to list
     * @return the query so filtered
     */
    public SessionQuery status(SessionStatus... statuses) {
        Set<SessionStatus> chosen = EnumSet.noneOf(SessionStatus.class);
        for (SessionStatus status : statuses) {
            chosen.add(Objects.requireNonNull(status, "status"));
        }
        return new SessionQuery(Collections.unmodifiableSet(chosen), build, point, waits, dueBefore, limit, after,
                parent, failure, createdBefore);
    }

    /**
     * Only sessions stored by the build {@code build} ({@link SessionInfo#build()}); null: any
     * build. Ended sessions have none: find them by {@link #status}.
     *
     * @param build a build fingerprint, or null
     * @return the query so filtered
     */
    public SessionQuery build(String build) {
        return new SessionQuery(statuses, build, point, waits, dueBefore, limit, after, parent, failure, createdBefore);
    }

    /**
     * Only sessions suspended at the named point {@code point} ({@link SessionInfo#point()});
     * null: at any point, or none.
     *
     * @param point a point's name, or null
     * @return the query so filtered
     */
    public SessionQuery point(String point) {
        return new SessionQuery(statuses, build, point, waits, dueBefore, limit, after, parent, failure, createdBefore);
    }

    /**
     * Only the children of session {@code parent} ({@link SessionInfo#parent()},
     * {@link StepContext#startChild}); null: any session, a child or not.
     *
     * @param parent a session's id, or null
     * @return the query so filtered
     */
    public SessionQuery parent(String parent) {
        return new SessionQuery(statuses, build, point, waits, dueBefore, limit, after, parent, failure, createdBefore);
    }

    /**
     * Only sessions that wait for one of {@code kinds} ({@link SessionInfo#waiting()}); none
     * given: whatever they wait for, or nothing. Replaces {@link #waitingForNothing()}.
     *
     * @param kinds the kinds of wait to list
     * @return the query so filtered
     */
    public SessionQuery waitingFor(SessionInfo.WaitKind... kinds) {
        Set<SessionInfo.WaitKind> chosen = EnumSet.noneOf(SessionInfo.WaitKind.class);
        for (SessionInfo.WaitKind kind : kinds) {
            chosen.add(Objects.requireNonNull(kind, "kind"));
        }
        return new SessionQuery(statuses, build, point, chosen.isEmpty() ? null
                : Collections.unmodifiableSet(chosen), dueBefore, limit, after, parent, failure, createdBefore);
    }

    /**
     * Only sessions that wait for none of {@link SessionInfo.WaitKind}'s ({@link SessionInfo#waiting()}
     * null): suspended sessions that wait for a plain input with no deadline, and ended ones.
     * Replaces {@link #waitingFor}.
     *
     * @return the query so filtered
     */
    public SessionQuery waitingForNothing() {
        return new SessionQuery(statuses, build, point, Set.of(), dueBefore, limit, after, parent, failure,
                createdBefore);
    }

    /**
     * Only sessions that wait for something due strictly before {@code time}
     * ({@link SessionInfo.Waiting#until()}); null: due whenever, or waiting for nothing.
     *
     * @param time the instant the wait must be due before, or null
     * @return the query so filtered
     */
    public SessionQuery dueBefore(Instant time) {
        return new SessionQuery(statuses, build, point, waits, time, limit, after, parent, failure, createdBefore);
    }

    /**
     * Only failed sessions whose failure ({@link SessionInfo#failure()}: the exception's class,
     * message and stack trace) contains {@code text}, ignoring the case of ASCII letters; null:
     * any session, failed or not.
     *
     * @param text the text to find, or null
     * @return the query so filtered
     */
    public SessionQuery failureContaining(String text) {
        return new SessionQuery(statuses, build, point, waits, dueBefore, limit, after, parent,
                text == null || text.isEmpty() ? null : text, createdBefore);
    }

    /**
     * Only sessions started strictly before {@code time} ({@link SessionInfo#created()}): those
     * older than an age; null: started whenever.
     *
     * @param time the instant they must have been started before, or null
     * @return the query so filtered
     */
    public SessionQuery createdBefore(Instant time) {
        return new SessionQuery(statuses, build, point, waits, dueBefore, limit, after, parent, failure, time);
    }

    /**
     * At most {@code sessions} sessions a page.
     *
     * @param sessions how many, 1 to {@value #MAX_LIMIT}
     * @return the query with that page size
     * @throws IllegalArgumentException if {@code sessions} is not in that range
     */
    public SessionQuery limit(int sessions) {
        if (sessions < 1 || sessions > MAX_LIMIT) {
            throw new IllegalArgumentException("a page holds 1 to " + MAX_LIMIT + " sessions, not " + sessions
                    + "; page through more with the next() of each page");
        }
        return new SessionQuery(statuses, build, point, waits, dueBefore, sessions, after, parent, failure,
                createdBefore);
    }

    /**
     * The page after the position {@code cursor} names: the sessions that sort after it; null:
     * the first page.
     *
     * @param cursor a page's {@link SessionPage#next()}, or null
     * @return the query of that page
     * @throws IllegalArgumentException if {@code cursor} is not a page's {@code next()} (cut,
     *         changed, or made up), saying why; nothing is read
     */
    public SessionQuery after(String cursor) {
        return new SessionQuery(statuses, build, point, waits, dueBefore, limit, cursor == null ? null
                : SessionCursor.of(cursor), parent, failure, createdBefore);
    }

    /**
     * How many sessions a page holds at most.
     *
     * @return the page size
     */
    public int limit() {
        return limit;
    }

    Set<SessionStatus> statuses() {
        return statuses;
    }

    String build() {
        return build;
    }

    String point() {
        return point;
    }

    String parent() {
        return parent;
    }

    String failure() {
        return failure;
    }

    Instant createdBefore() {
        return createdBefore;
    }

    /** The kinds of wait listed: null for any or none, empty for none. */
    Set<SessionInfo.WaitKind> waits() {
        return waits;
    }

    Instant dueBefore() {
        return dueBefore;
    }

    /** The position the page starts after, or null for the first page. */
    SessionCursor position() {
        return after;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SessionQuery query && statuses.equals(query.statuses)
                && Objects.equals(build, query.build) && Objects.equals(point, query.point)
                && Objects.equals(waits, query.waits) && Objects.equals(dueBefore, query.dueBefore)
                && limit == query.limit && Objects.equals(after, query.after) && Objects.equals(parent, query.parent)
                && Objects.equals(failure, query.failure) && Objects.equals(createdBefore, query.createdBefore);
    }

    @Override
    public int hashCode() {
        return Objects.hash(statuses, build, point, waits, dueBefore, limit, after, parent, failure, createdBefore);
    }

    /** The filters set, the page size and whether it starts after a position, for messages and logs. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (!statuses.isEmpty()) {
            parts.add("status " + statuses);
        }
        if (build != null) {
            parts.add("build " + build);
        }
        if (point != null) {
            parts.add("point " + point);
        }
        if (parent != null) {
            parts.add("parent " + parent);
        }
        if (waits != null) {
            parts.add(waits.isEmpty() ? "waiting for nothing" : "waiting for " + waits);
        }
        if (dueBefore != null) {
            parts.add("due before " + dueBefore);
        }
        if (failure != null) {
            parts.add("failure containing '" + failure + "'");
        }
        if (createdBefore != null) {
            parts.add("created before " + createdBefore);
        }
        parts.add("limit " + limit);
        if (after != null) {
            parts.add("after " + after.text());
        }
        return "SessionQuery[" + String.join(", ", parts) + "]";
    }
}
