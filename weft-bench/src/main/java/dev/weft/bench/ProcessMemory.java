package dev.weft.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The memory of the running JVM as the probes read it: the resident set from
 * {@code /proc/self/status} (what the operating system charges for heap and native memory
 * alike) and the Java heap after a full collection.
 */
record ProcessMemory(long rssBytes, long heapUsedBytes, long heapCommittedBytes) {

    /** The smallest fixed heap a memory probe gets, in MiB: room for the JVM's own objects. */
    static final int FIXED_HEAP_BASE_MIB = 256;
    /** Fixed heap per coroutine above the base, in bytes: the fattest kind holds under 1 KiB live after GC. */
    static final int FIXED_HEAP_PER_COROUTINE = 2048;

    /**
     * The JVM options that fix the heap of a probe making {@code count} coroutines and touch
     * every page of it at start-up ({@code -Xms} = {@code -Xmx}, {@code -XX:+AlwaysPreTouch}):
     * the heap is then resident and committed before and after, and the resident set grows by
     * native memory only. The size grows with the count (2 KiB each above 128 MiB, at least
     * 256 MiB: 2,082 MiB at 1,000,000), so that the largest count still fits with room for
     * the collector; the same rule sizes the JVM peers' heaps in {@code run-peers.sh}.
     */
    static List<String> fixedHeapOptions(int count) {
        long mib = fixedHeapMebibytes(count);
        return List.of("-Xms" + mib + "m", "-Xmx" + mib + "m", "-XX:+AlwaysPreTouch");
    }

    /** The fixed heap of a probe making {@code count} coroutines, in MiB (see {@link #fixedHeapOptions}). */
    static long fixedHeapMebibytes(int count) {
        long perCoroutine = ((long) count * FIXED_HEAP_PER_COROUTINE + (1 << 20) - 1) >> 20;
        return Math.max(FIXED_HEAP_BASE_MIB, 128 + perCoroutine);
    }

    /** Runs the reading's own code before it counts: one reading, and {@link JvmQuiet#warmUp}. */
    static void warmUp() {
        settled();
        JvmQuiet.warmUp();
    }

    /** The longest a reading waits for the JIT compilers to be idle. */
    static final Duration JIT_QUIET_LIMIT = Duration.ofSeconds(20);

    /**
     * Collects garbage until the used heap stops shrinking, waits until the JIT compilers are idle
     * ({@link JvmQuiet}, at most {@link #JIT_QUIET_LIMIT}), then reads the numbers.
     */
    static ProcessMemory settled() {
        long previous = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long used = heap().getUsed();
            if (used >= previous) {
                break;
            }
            previous = used;
        }
        JvmQuiet.await(JIT_QUIET_LIMIT);
        JvmQuiet.trimNativeHeap();
        MemoryUsage heap = heap();
        return new ProcessMemory(residentBytes(), heap.getUsed(), heap.getCommitted());
    }

    private static MemoryUsage heap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    }

    /** VmRSS of this process, in bytes. */
    static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS line in /proc/self/status");
    }

    /** Prints the numbers as {@code key=value} lines with the given prefix, for the report to parse. */
    void print(String prefix) {
        System.out.println(prefix + "-rss=" + rssBytes);
        System.out.println(prefix + "-heap-used=" + heapUsedBytes);
        System.out.println(prefix + "-heap-committed=" + heapCommittedBytes);
    }
}
