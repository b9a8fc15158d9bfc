package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A two-step body whose second step throws its first {@code failures} runs: it writes a ledger
 * row (which the failure rolls back), then throws {@code IllegalStateException("attempt N")}, or
 * an {@code UncheckedIOException} with {@code io}. The runs are counted in this JVM, by session
 * (the step's own writes roll back, so it cannot count them in the database). Its second step
 * begins as {@code how} says: a caller's input, a sleep's end, or a message.
 */
public final class Flaky implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    /** How the failing step begins (strings: a stored body holds JDK values and its own class only). */
    public static final String INPUT = "input";
    public static final String SLEEP = "sleep";
    public static final String MESSAGE = "message";

    private static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    private final int failures;
    private final String how;
    private final boolean io;

    public Flaky(int failures, String how, boolean io) {
        this.failures = failures;
        this.how = how;
        this.io = io;
    }

    /** How many times the failing step of session {@code id} ran in this JVM. */
    public static int runs(String id) {
        AtomicInteger runs = RUNS.get(id);
        return runs == null ? 0 : runs.get();
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        if (how.equals(SLEEP)) {
            StepContext.current().sleep(Duration.ZERO);
        } else if (how.equals(MESSAGE)) {
            StepContext.current().awaitMessage();
        }
        Object input = self.ret("first");
        StepContext context = StepContext.current();
        int run = RUNS.computeIfAbsent(context.sessionId(), id -> new AtomicInteger()).incrementAndGet();
        Ledger.write(context.step(), "run " + run + " with " + input + ", timed out " + context.timedOut());
        if (run <= failures) {
            if (io) {
                throw new UncheckedIOException(new IOException("attempt " + run));
            }
            throw new IllegalStateException("attempt " + run);
        }
        return "done at run " + run + " with " + input + ", timed out " + context.timedOut();
    }
}
