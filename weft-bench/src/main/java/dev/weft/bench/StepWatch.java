package dev.weft.bench;

import java.time.Instant;
import java.util.function.Consumer;

/**
 * When a session's step commits, seen from the thread that ran it, for the probes of section 9
 * that do not call the step themselves (a worker runs it). A body says, in its step, that the
 * step ran and what it answered ({@link #ran}); the probe's JDBC driver ({@link WatchedJdbc})
 * tells this class when a {@code COMMIT} returns on a thread ({@link #committed}); the first
 * commit on the thread after the body ran is its step's, and {@link #listen the listener} is
 * given what was seen. A rollback on the thread forgets what the body said. The listener runs on
 * the committing thread, so it must be short. Costs the same whoever runs the step: a thread
 * local set and cleared, four clock readings.
 */
public final class StepWatch {

    /**
     * A step seen committed.
     *
     * @param id            the session
     * @param answer        what the body said it answered
     * @param startedAt      when the body said so, early in its step
     * @param startedNanos   the same moment by {@link System#nanoTime()}
     * @param committedAt    when the step's {@code COMMIT} returned
     * @param committedNanos the same moment by {@link System#nanoTime()}
     */
    public record Seen(String id, Object answer, Instant startedAt, long startedNanos, Instant committedAt,
            long committedNanos) {
    }

    /** What the body of the step running on a thread said, until the thread commits or rolls back. */
    private record Ran(String id, Object answer, Instant startedAt, long startedNanos) {
    }

    private static final ThreadLocal<Ran> RAN = new ThreadLocal<>();
    private static volatile Consumer<Seen> listener = seen -> { };

    private StepWatch() {
    }

    /**
     * For a body: the step of session {@code id} running on this thread answers {@code answer};
     * it is seen when this thread next commits.
     */
    public static void ran(String id, Object answer) {
        long nanos = System.nanoTime();
        RAN.set(new Ran(id, answer, Instant.now(), nanos));
    }

    /** Gives every step seen from now on to {@code seen}, on the thread that committed it. */
    static void listen(Consumer<Seen> seen) {
        listener = seen;
    }

    /** A {@code COMMIT} returned on this thread. */
    static void committed() {
        Ran ran = RAN.get();
        if (ran == null) {
            return;
        }
        RAN.remove();
        long nanos = System.nanoTime();
        listener.accept(new Seen(ran.id(), ran.answer(), ran.startedAt(), ran.startedNanos(), Instant.now(), nanos));
    }

    /** This thread's transaction rolled back: its step, if any, is not seen. */
    static void rolledBack() {
        RAN.remove();
    }
}
