package dev.weft.sessions;

import java.time.Duration;
import java.util.List;

/**
 * How a node retries a session's step whose body threw ({@link Sessions.Builder#retry}): at most
 * {@link #attempts()} runs of the step in all, the {@code n}-th retry due {@code first * factor^(n-1)}
 * after the failure, never more than {@code max}; only for exceptions of the given classes (and
 * their subclasses). A step that fails is rolled back, its writes with it, and the session stays
 * at its last stored suspension, due again after the backoff with the input the step had; once
 * the attempts are spent (or the exception is not retried), it is {@link SessionStatus#FAILED},
 * and {@link Sessions#retry(String)} can still run it again. Immutable; any thread.
 *
 * <pre>{@code
 * RetryPolicy policy = RetryPolicy.attempts(5)
 *         .backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1))    // 1 s, 2 s, 4 s, 8 s
 *         .retryOn(java.io.IOException.class, java.sql.SQLTransientException.class);
 * }</pre>
 *
 * @param attempts how many times a step runs at most, the first included: 1 for no retry
 * @param first    the wait before the first retry
 * @param factor   what each further wait is multiplied by, 1 or more
 * @param max      the longest wait
 * @param retryOn  the exception classes retried; any exception if empty
 */
public record RetryPolicy(int attempts, Duration first, double factor, Duration max,
        List<Class<? extends Throwable>> retryOn) {

    /** No retry: a step that throws fails its session at once, as it always did. */
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, List.of());

    /**
     * Checks the policy.
     *
     * @throws IllegalArgumentException if a value is out of range
     */
    public RetryPolicy {
        if (attempts < 1) {
            throw new IllegalArgumentException("a step runs at least once: " + attempts + " attempts");
        }
        if (first == null || max == null || retryOn == null) {
            throw new NullPointerException(first == null ? "first" : max == null ? "max" : "retryOn");
        }
        if (first.isNegative() || max.isNegative() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("a backoff from " + first + " to at most " + max
                    + ": both zero or more, the first no longer than the longest");
        }
        if (!(factor >= 1) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("a backoff factor of " + factor + ": 1 or more");
        }
        retryOn = List.copyOf(retryOn);
    }

    /**
     * Runs a failing step at most {@code attempts} times, the first included, retrying any
     * exception at once; set the waits with {@link #backoff}.
     *
     * @param attempts how many times a step runs at most, 1 or more
     * @return the policy
     */
    public static RetryPolicy attempts(int attempts) {
        return new RetryPolicy(attempts, Duration.ZERO, 1, Duration.ZERO, List.of());
    }

    /**
     * This policy with waits growing from {@code first} by {@code factor} up to {@code max}.
     *
     * @param first  the wait before the first retry
     * @param factor the growth of each further wait, 1 or more
     * @param max    the longest wait
     * @return the policy
     */
    public RetryPolicy backoff(Duration first, double factor, Duration max) {
        return new RetryPolicy(attempts, first, factor, max, retryOn);
    }

    /**
     * This policy retrying only exceptions of these classes and their subclasses.
     *
     * @param classes the exception classes retried
     * @return the policy
     */
    @SafeVarargs
    public final RetryPolicy retryOn(Class<? extends Throwable>... classes) {
        return new RetryPolicy(attempts, first, factor, max, List.of(classes));
    }

    /** Whether a step that threw {@code thrown} at attempt {@code attempt} (1 for its first run) runs again. */
    boolean retries(Throwable thrown, int attempt) {
        if (attempt >= attempts) {
            return false;
        }
        return retryOn.isEmpty() || retryOn.stream().anyMatch(type -> type.isInstance(thrown));
    }

    /** The wait before retry {@code retry} (1 for the first). */
    Duration delay(int retry) {
        double millis = first.toMillis() * Math.pow(factor, retry - 1);
        return millis >= max.toMillis() ? max : Duration.ofMillis((long) millis);
    }
}
