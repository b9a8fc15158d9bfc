package dev.weft.sessions;

import dev.weft.sessions.SessionStore.Row;

import java.time.Clock;
import java.time.Instant;

/**
 * What a step whose body threw leaves in the store, by this node's {@link RetryPolicy}: the
 * session as it was stored, due again for a retry of the step ({@link SessionWait.Kind#RETRY},
 * with the step's input in column {@code retry_input} and the attempts made in {@code attempts});
 * or, with no retry left, {@link SessionStatus#FAILED} with its frames kept, so that
 * {@link Sessions#retry} can run the step again. A step whose input cannot be stored is not
 * retried. Stateless but for its settings; any thread.
 */
final class Retries {

    private final RetryPolicy policy;
    private final Clock clock;

    Retries(RetryPolicy policy, Clock clock) {
        this.policy = policy;
        this.clock = clock;
    }

    /**
     * The row, unsealed, after step {@code versionBefore + 1} of {@code stored}'s session threw,
     * run with {@code input} (or timed out), after {@code attemptsBefore} failed runs of it.
     */
    Row afterFailure(Row stored, long versionBefore, StepRun<?> failed, Object input, boolean timedOut,
            int attemptsBefore) {
        byte[] inputBytes = input == null ? null : StateCodec.value(input);
        boolean storable = input == null || inputBytes != null;
        SessionWait.Kind kind = timedOut ? SessionWait.Kind.RETRY_TIMEOUT : SessionWait.Kind.RETRY;
        int attempt = attemptsBefore + 1;
        long now = clock.millis();
        if (storable && policy.retries(failed.thrown, attempt)) {
            long due = now + policy.delay(attempt).toMillis();
            return stored.failedAt(SessionStatus.SUSPENDED, versionBefore, failed.failure, now,
                    new SessionWait(kind, due), attempt, inputBytes);
        }
        return stored.failedAt(SessionStatus.FAILED, versionBefore + 1, failed.failure, now,
                storable ? new SessionWait(kind, SessionWait.NEVER) : null, attempt, inputBytes);
    }

    /** What the caller of the failed step gets, once {@code stored} is: a retry to come, or the failure. */
    SessionException reply(Row stored, StepRun<?> failed) {
        if (stored.status() == SessionStatus.SUSPENDED) {
            return new SessionRetryingException(stored.id(), stored.version() + 1, stored.attempts(),
                    policy.attempts(), Instant.ofEpochMilli(stored.dueAt()), failed.failure, failed.thrown);
        }
        return new SessionFailedException(stored.id(), stored.version(), failed.failure, failed.thrown);
    }
}
