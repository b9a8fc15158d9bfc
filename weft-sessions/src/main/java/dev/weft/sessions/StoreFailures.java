package dev.weft.sessions;

import java.sql.SQLException;

/**
 * What a failed call to the store means for the caller, as the exception it gets. Three cases,
 * told apart by {@link SessionStore}, which knows its database's errors:
 *
 * <ul>
 * <li>the connection was lost once a {@code COMMIT} may have been sent
 *     ({@link SessionStore.CommitInDoubt}): {@link SessionOutcomeUnknownException}, the step may
 *     be stored;
 * <li>the store cannot be reached, or the connection was lost before any {@code COMMIT} was sent
 *     ({@link SessionStore#isConnectionLost}): {@link SessionStoreUnavailableException}, nothing
 *     is stored, retry;
 * <li>anything else, a refusal by the database: a plain {@link SessionException}, nothing is
 *     stored, and retrying as it was will not help.
 * </ul>
 *
 * Stateless; any thread.
 */
final class StoreFailures {

    private StoreFailures() {
    }

    /**
     * Why a step of session {@code id} from version {@code versionBefore} (0 for a start) was
     * not stored, or may not have been.
     *
     * @param notStored what the caller is told when nothing is stored, naming the session's state
     */
    static SessionException ofStep(SessionStore store, String id, long versionBefore, SQLException e,
            String notStored) {
        if (e instanceof SessionStore.CommitInDoubt) {
            assert versionBefore >= 0 : "session " + id + ": a COMMIT in doubt, but no version it committed from";
            return new SessionOutcomeUnknownException(id, versionBefore, versionBefore + 1, store.toString(),
                    e.getCause());
        }
        return of(store, id, notStored, e);
    }

    /** Why an operation on session {@code id} failed: what it did is not committed, or may be if its COMMIT was sent. */
    static SessionException of(SessionStore store, String id, String what, SQLException e) {
        if (e instanceof SessionStore.CommitInDoubt) {
            return new SessionException(id, what + ", or it may have: the connection was lost after its COMMIT was"
                    + " sent; status(\"" + id + "\") says where the session is: " + e, e);
        }
        if (store.isConnectionLost(e)) {
            return new SessionStoreUnavailableException(id, unreachable(store, what, e), e);
        }
        return new SessionException(id, what + ": " + e, e);
    }

    /** Why reading the store as a whole (the sessions listed, counted) failed. */
    static RuntimeException ofStore(SessionStore store, String what, SQLException e) {
        if (store.isConnectionLost(e)) {
            return new SessionStoreUnavailableException(unreachable(store, what, e), e);
        }
        return new IllegalStateException(what + " in " + store + ": " + e, e);
    }

    private static String unreachable(SessionStore store, String what, SQLException e) {
        return store + " cannot be reached, or the connection to it was lost before anything was committed: " + what
                + "; try again once it can be reached: " + e;
    }
}
