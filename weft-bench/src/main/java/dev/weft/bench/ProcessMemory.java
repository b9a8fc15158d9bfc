package dev.weft.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The memory of the running JVM as the probes read it: the resident set from
 * {@code /proc/self/status} (what the operating system charges for heap and native memory
 * alike) and the Java heap after a full collection.
 */
record ProcessMemory(long rssBytes, long heapUsedBytes, long heapCommittedBytes) {

    /** Collects garbage until the used heap stops shrinking, then reads the numbers. */
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
