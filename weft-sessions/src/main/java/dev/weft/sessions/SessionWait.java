package dev.weft.sessions;

import java.time.Instant;

/**
 * What a suspended session waits for, stored with it in the columns {@code wait_kind} and
 * {@code due_at}: a time ({@link Kind#SLEEP}: only a worker resumes it, once due), an input
 * with a deadline ({@link Kind#INPUT}: a caller's input before the deadline, else a worker at
 * the deadline, as timed out), or a message ({@link Kind#MESSAGE}: a worker resumes it with the
 * oldest message of its inbox, or at the deadline, if it has one, as timed out). A session with
 * none of these waits for an input with no deadline, as sessions always did. Immutable.
 *
 * @param kind  what it waits for
 * @param dueAt when a worker resumes it as timed out, in epoch milliseconds of the nodes' clock;
 *              {@link #NEVER} for a message awaited with no deadline (stored as NULL)
 */
record SessionWait(SessionWait.Kind kind, long dueAt) {

    /*
     * A stored session's wait, and who may resume it:
     *   none   -> an input resumes it, whenever it comes        // as before timers
     *   SLEEP  -> a worker resumes it once due_at has passed    // an input is refused
     *   INPUT  -> an input resumes it until due_at; from then on a worker does, as timed out
     *   MESSAGE-> a worker resumes it with its oldest message; if due_at is set and passes
     *             first, with none, as timed out                // an input is refused
     *   RETRY  -> a worker runs its failed step again once due_at has passed, with the input
     *             that step had (column retry_input)             // an input is refused
     *   RETRY_TIMEOUT -> the same, for a step that ran because a wait was due: timed out again
     * A FAILED session keeps the retry kind of its last step, with no due time, for Sessions.retry.
     */

    /** The due time of a message awaited with no deadline: never (stored as NULL). */
    static final long NEVER = Long.MAX_VALUE;

    /**
     * What a session waits for besides a plain input, stored by name in {@code wait_kind}; the
     * API shows it as {@link SessionInfo.WaitKind}, which names the same kinds.
     */
    enum Kind {
        /** a time: the body sleeps until then */
        SLEEP,
        /** an input, until a deadline */
        INPUT,
        /** a message in the session's inbox ({@link Sessions#send}), until a deadline or for ever */
        MESSAGE,
        /** a retry of a failed step, with the input it had ({@link RetryPolicy}) */
        RETRY,
        /** a retry of a failed step that ran because a wait came due, timed out again */
        RETRY_TIMEOUT;

        /** Whether this is a retry of a failed step. */
        boolean retry() {
            return this == RETRY || this == RETRY_TIMEOUT;
        }
    }

    /** The value of column {@code due_at} for this wait: null for none. */
    Long storedDueAt() {
        return dueAt == NEVER ? null : dueAt;
    }

    /**
     * The wait stored in {@code row}, or null if it stores none. Call after {@link #distrust}
     * has passed the row.
     */
    static SessionWait of(SessionStore.Row row) {
        if (row.waitKind() == null) {
            return null;
        }
        return new SessionWait(Kind.valueOf(row.waitKind()), row.dueAt() == null ? NEVER : row.dueAt());
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
        if (row.dueAt() == null) {
            Kind kind = Kind.valueOf(row.waitKind());
            return kind == Kind.MESSAGE || kind.retry() && row.status() == SessionStatus.FAILED ? null
                    : "column due_at is NULL, but column wait_kind says " + row.waitKind();
        }
        return row.dueAt() == NEVER ? "column due_at holds " + NEVER + ", which no wait is due at" : null;
    }

    /**
     * This wait as {@link SessionInfo} shows it: the public kind of the same name (the two
     * enums name the same kinds, in the same order).
     */
    SessionInfo.Waiting waiting() {
        return new SessionInfo.Waiting(SessionInfo.WaitKind.valueOf(kind.name()),
                dueAt == NEVER ? null : Instant.ofEpochMilli(dueAt));
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
        if (kind.retry()) {
            throw new SessionWaitingException(id, kind, Instant.ofEpochMilli(dueAt), "its last step failed, and a"
                    + " worker runs it again at " + Instant.ofEpochMilli(dueAt) + " with the input it had; an input"
                    + " cannot run it before");
        }
        if (kind == Kind.MESSAGE) {
            throw new SessionWaitingException(id, kind, dueAt == NEVER ? null : Instant.ofEpochMilli(dueAt), "it"
                    + " waits for a message" + (dueAt == NEVER ? "" : " until " + Instant.ofEpochMilli(dueAt))
                    + ", which a worker resumes it with: send it one (Sessions.send), not an input");
        }
        if (due(now)) {
            throw new SessionWaitingException(id, kind, Instant.ofEpochMilli(dueAt), "its deadline for an input"
                    + " passed at " + Instant.ofEpochMilli(dueAt) + "; a worker resumes it as timed out");
        }
    }
}
