package dev.weft.sessions;

import dev.weft.sessions.SessionStore.Row;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Workflow-level deadlines, for {@link Sessions}: a session started with one
 * ({@link Sessions.Builder#deadline}, {@link Sessions#start(String, dev.weft.AsymRunnable, Object,
 * Duration)}) stores it in column {@code deadline_at}, set at its start and never changed, sealed
 * with the row (WRS4, {@link RowSeal}). Once it has passed, a worker of any node claims the
 * session ({@link SessionStore#claimDue}, before any wait that is due) and cancels it as
 * {@link Sessions#cancel} does, with its children, in a step of its own; its failure says that
 * the deadline passed. Until a worker gets to it, a caller's resume or retry is refused, and
 * nothing runs. A session that ended before its deadline keeps the column, and is not claimed.
 * Stateless.
 */
final class Deadlines {

    private Deadlines() {
    }

    /** The deadline {@code deadline} from now on {@code clock}, for session {@code id}, in epoch milliseconds. */
    static long after(Clock clock, Duration deadline, String id) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("session " + id + ": a deadline must be more than zero from its start,"
                    + " not " + deadline + "; nothing ran or was stored");
        }
        try {
            return clock.instant().plus(deadline).toEpochMilli();
        } catch (java.time.DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException("session " + id + ": a deadline of " + deadline + " ends beyond what a"
                    + " due time can hold; nothing ran or was stored", e);
        }
    }

    /** Whether {@code row}'s session has not ended and its deadline has passed at {@code now}. */
    static boolean passed(Row row, long now) {
        return row.deadlineAt() != null && row.deadlineAt() <= now
                && (row.status() == SessionStatus.SUSPENDED || row.status() == SessionStatus.FAILED);
    }

    /** What a session cancelled for its deadline stores as its failure. */
    static String reason(Row row) {
        return "its deadline, " + Instant.ofEpochMilli(row.deadlineAt()) + ", passed: cancelled by a worker";
    }

    /** The refusal of a caller's step of {@code row}'s session, whose deadline has passed. */
    static SessionException refusal(Row row) {
        return new SessionException(row.id(), "its deadline, " + Instant.ofEpochMilli(row.deadlineAt()) + ", has"
                + " passed, and a worker cancels it; nothing ran", null);
    }
}
