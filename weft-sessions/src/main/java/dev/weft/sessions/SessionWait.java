package dev.weft.sessions;

import java.time.Instant;

/**
 * What a suspended session waits for, stored with it in the columns {@code wait_kind} and
 * {@code due_at}: a time ({@link Kind#SLEEP}: only a worker resumes it, once due), or an input
 * with a deadline ({@link Kind#INPUT}: a caller's input before the deadline, else a worker at
 * the deadline, as timed out). A session with neither waits for an input with no deadline, as
 * sessions always did. Immutable.
 *
 * @param kind  what it waits for
 * @param dueAt when a worker resumes it, in epoch milliseconds of the nodes' clock
 */
record SessionWait(SessionWait.Kind kind, long dueAt) {

    /*
     * A stored session's wait, and who may resume it:
     *   none   -> an input resumes it, whenever it comes        // as before timers
     *   SLEEP  -> a worker resumes it once due_at has passed    // an input is refused
     *   INPUT  -> an input resumes it until due_at; from then on a worker does, as timed out
     */

    /**
     * What a session waits for besides a plain input, stored by name in {@code wait_kind}; the
     * API shows it as {@link SessionInfo.WaitKind}, which names the same kinds.
     */
    enum Kind {
        /** a time: the body sleeps until then */
        SLEEP,
        /** an input, until a deadline */
        INPUT
    }

    /**
     * The wait stored in {@code row}, or null if it stores none. Call after {@link #distrust}
     * has passed the row.
     */
    static SessionWait of(SessionStore.Row row) {
        return row.waitKind() == null ? null : new SessionWait(Kind.valueOf(row.waitKind()), row.dueAt());
    }

    /**
     * Why {@code row}'s wait columns cannot be taken as a wait, naming the column; null if they
     * can: both NULL, or a kind of {@link Kind} with a due time.
     */
    static String distrust(SessionStore.Row row) {
        if (row.waitKind() == null) {
            return row.dueAt() == null ? null : "column due_at holds " + row.dueAt()
                    + ", but column wait_kind is NULL: a due time of no wait";
        }
        boolean known = false;
        for (Kind kind : Kind.values()) {
            known |= kind.name().equals(row.waitKind());
        }
        if (!known) {
            String shown = row.waitKind().length() <= 40 ? row.waitKind() : row.waitKind().substring(0, 40) + "...";
            return "column wait_kind holds '" + shown + "', not one of " + java.util.Arrays.toString(Kind.values());
        }
        return row.dueAt() == null ? "column due_at is NULL, but column wait_kind says " + row.waitKind() : null;
    }

    /**
     * This wait as {@link SessionInfo} shows it: the public kind of the same name (the two
     * enums name the same kinds, in the same order).
     */
    SessionInfo.Waiting waiting() {
        return new SessionInfo.Waiting(SessionInfo.WaitKind.valueOf(kind.name()), Instant.ofEpochMilli(dueAt));
    }

    /** Whether a worker may resume the session at {@code now}. */
    boolean due(long now) {
        return dueAt <= now;
    }

    /**
     * Refuses an input to a session that waits for this, at {@code now}: a session asleep, or one
     * whose deadline for an input has passed (a worker resumes it as timed out).
     */
    void admitInput(String id, long now) {
        if (kind == Kind.SLEEP) {
            throw new SessionWaitingException(id, kind, Instant.ofEpochMilli(dueAt), "it sleeps until "
                    + Instant.ofEpochMilli(dueAt) + ", and only a worker resumes it then; an input cannot wake it");
        }
        if (due(now)) {
            throw new SessionWaitingException(id, kind, Instant.ofEpochMilli(dueAt), "its deadline for an input"
                    + " passed at " + Instant.ofEpochMilli(dueAt) + "; a worker resumes it as timed out");
        }
    }
}
