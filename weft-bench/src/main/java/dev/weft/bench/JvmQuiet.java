package dev.weft.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Quiets this JVM's native memory before a memory reading. Two things moved the resident set by
 * up to a hundred pages between the two readings around a hundred suspended coroutines, none of
 * it the coroutines' (Native Memory Tracking: the compiler's arena, and malloc, which the C
 * library kept): a JIT compile still running or queued from the warm-up (its arena is hundreds of
 * KiB to megabytes of malloc while it runs), and memory freed to the C library but not returned
 * to the system. So a reading first {@linkplain #await waits} until the compilers are idle, then
 * {@linkplain #trimNativeHeap trims} the C heap.
 *
 * <p>Idle means what the {@code Compiler.queue} diagnostic command prints has no task: nothing
 * being compiled and every compile queue empty. Stateless; safe to call from any thread.
 */
final class JvmQuiet {

    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";
    private static final Duration POLL = Duration.ofMillis(50);
    /**
     * Times {@link #warmUp} reads the compile queue: the JDK's own one-time work on that path
     * (method handles and hidden classes made after so many calls, which stay in the heap) is then
     * done before the readings, whose waits read it a few hundred times at most.
     */
    static final int WARM_UP_READS = 1_000;

    private JvmQuiet() {
    }

    /** Waits until the compilers are idle, or until {@code limit} has passed (then the reading goes ahead). */
    static void await(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!idle(compilerQueue()) && System.nanoTime() < deadline) {
            if (!pause()) {
                return;
            }
        }
    }

    /** Sleeps one poll; false if interrupted (the interrupt is kept). */
    private static boolean pause() {
        try {
            Thread.sleep(POLL);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Reads the compile queue {@link #WARM_UP_READS} times, so that the readings' waits leave nothing in the heap. */
    static void warmUp() {
        for (int i = 0; i < WARM_UP_READS; i++) {
            idle(compilerQueue());
        }
        pause();
    }

    /**
     * Whether an output of {@code Compiler.queue} lists no task: every line blank, a section's
     * heading (ending in a colon) or {@code Empty}.
     */
    static boolean idle(String compilerQueue) {
        return compilerQueue.lines().map(String::strip)
                .allMatch(line -> line.isEmpty() || line.endsWith(":") || line.equals("Empty"));
    }

    /** What {@code jcmd PID Compiler.queue} would print for this JVM. */
    static String compilerQueue() {
        return diagnosticCommand("compilerQueue");
    }

    /** Returns the C library's free memory to the system ({@code jcmd PID System.trim_native_heap}). */
    static String trimNativeHeap() {
        return diagnosticCommand("systemTrimNativeHeap");
    }

    private static String diagnosticCommand(String operation) {
        try {
            return (String) ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(DIAGNOSTIC_COMMAND),
                    operation, new Object[] {new String[0]}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            throw new IllegalStateException("cannot run " + operation + " through " + DIAGNOSTIC_COMMAND, e);
        }
    }
}
