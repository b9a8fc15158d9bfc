package dev.weft.sessions;

import java.util.List;

/**
 * One page of the sessions a {@link SessionQuery} finds ({@link Sessions#list(SessionQuery)}),
 * oldest first, and where the next page starts. Immutable (its list cannot be changed), so any
 * thread may read it.
 *
 * @param sessions the page's sessions, at most the query's limit, in listing order (creation
 *                 time, then id); empty if none passes the filters after the query's position
 * @param next     the cursor of the next page ({@link SessionQuery#after(String)}), or null if
 *                 no session passed the filters after this page's last one when it was read:
 *                 an opaque text (URL-safe, at most a few hundred characters) that names a
 *                 position, not the filters, and stays valid for as long as the store does
 */
public record SessionPage(List<SessionInfo> sessions, String next) {

    /**
     * Copies {@code sessions}.
     *
     * @throws NullPointerException if {@code sessions} is null or holds null
     */
    public SessionPage {
        sessions = List.copyOf(sessions);
    }

    /**
     * Whether there is a next page.
     *
     * @return whether {@link #next()} is not null
     */
    public boolean hasNext() {
        return next != null;
    }
}
