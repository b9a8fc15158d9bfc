package dev.weft;

import java.util.Objects;

/**
 * One coroutine as a {@link CoroutineDump} saw it: a snapshot, which does not keep the coroutine
 * alive and does not change as it runs on. Immutable: {@link #stackTrace()} returns a copy.
 *
 * @param name       its {@linkplain CoroutineBase#getName() name}
 * @param kind       symmetric ({@link Coroutine}) or asymmetric ({@link AsymCoroutine})
 * @param engine     the {@linkplain CoroutineBase#engine() engine} it runs on
 * @param state      its state when it was read: running, calling, suspended or busy
 * @param owner      the thread it belongs to
 * @param stackTrace its {@linkplain CoroutineBase#getStackTrace() stack}, innermost first; empty
 *                   where that method gives no frames
 */
public record CoroutineInfo(String name, Kind kind, Engine engine, CoroutineBase.State state, Thread owner,
        StackTraceElement[] stackTrace) {

    /** Whether a coroutine is symmetric or asymmetric. */
    public enum Kind {
        /** A {@link Coroutine}: passes control round its thread's ring. */
        SYMMETRIC,
        /** An {@link AsymCoroutine}: called, and rets back to its caller. */
        ASYMMETRIC
    }

    /**
     * Checks that no component is null, and copies the stack trace.
     *
     * @throws NullPointerException naming the component that is null
     */
    public CoroutineInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(owner, "owner");
        stackTrace = Objects.requireNonNull(stackTrace, "stackTrace").clone();
    }

    /** Reads {@code c} now: its stack first, then its state. */
    static CoroutineInfo of(CoroutineBase c) {
        StackTraceElement[] stack = c.getStackTrace();
        return new CoroutineInfo(c.getName(), c instanceof Coroutine ? Kind.SYMMETRIC : Kind.ASYMMETRIC, c.engine(),
                c.getState(), c.owner().thread, stack);
    }

    /**
     * Its stack, innermost frame first.
     *
     * @return a copy, which the caller may change
     */
    @Override
    public StackTraceElement[] stackTrace() {
        return stackTrace.clone();
    }

    /**
     * The coroutine as a thread dump shows a thread: a header line, then one line per frame.
     *
     * <pre>
     * "producer" asymmetric woven suspended, thread "main" #1
     *     at com.example.Producer.run(Producer.java:14)
     * </pre>
     */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        text.append('"').append(name).append("\" ").append(lower(kind)).append(' ').append(lower(engine)).append(' ')
                .append(lower(state)).append(", thread \"").append(owner.getName()).append("\" #").append(owner.getId());
        for (StackTraceElement e : stackTrace) {
            text.append(System.lineSeparator()).append("    at ").append(e);
        }
        return text.toString();
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(java.util.Locale.ROOT);
    }
}
