package dev.weft.bench.peers;

import java.util.Arrays;
import java.util.Locale;

/**
 * What the peers measure and for how long: the same numbers as the Go, Ruby and Python peers
 * (see weft-bench/peers/README.md). Also the helpers every JVM peer shares: the median, the
 * result row, the resident set size.
 */
public final class Plan {
    public static final int[] CHAIN_LENGTHS = {5, 5000};
    public static final int[] FRINGE_LEAVES = {1000, 100000};
    public static final String USAGE = "bench|switch|memory [--quick] [N...]";

    /**
     * The command line every peer takes: {@code MODE [--quick] [N...]}. {@code bench} runs the
     * fiber chain and the same fringe, then the switch ring for each N; {@code switch} only the switch
     * ring for each N; {@code memory} the memory reading for each N (run-peers.sh gives one N per
     * process, so each reading is from a fresh process).
     *
     * <p>A plain class, not a record: Kilim's weaver reads the classes that woven code calls with
     * ASM's version-7 API, which rejects the Record attribute.
     */
    public static final class Args {
        private final String mode;
        private final boolean quick;
        private final int[] counts;

        private Args(String mode, boolean quick, int[] counts) {
            this.mode = mode;
            this.quick = quick;
            this.counts = counts;
        }

        public String mode() {
            return mode;
        }

        public boolean quick() {
            return quick;
        }

        public int[] counts() {
            return counts.clone();
        }

        public static Args parse(String[] args) {
            if (args.length == 0 || !java.util.List.of("bench", "switch", "memory").contains(args[0])) {
                throw new IllegalArgumentException("usage: " + USAGE);
            }
            boolean quick = false;
            java.util.List<Integer> counts = new java.util.ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                if (args[i].equals("--quick")) {
                    quick = true;
                } else {
                    int n = Integer.parseInt(args[i]);
                    if (n <= 0) {
                        throw new IllegalArgumentException("counts must be positive: " + n);
                    }
                    counts.add(n);
                }
            }
            return new Args(args[0], quick, counts.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    public final boolean quick;
    /** Wall time one repetition aims at. */
    public final long targetNanos;
    /** Timed repetitions; the median is reported. */
    public final int reps;
    /** Untimed runs at the calibrated size before the timed ones, for at least this long (JIT warm-up). */
    public final long warmupNanos;
    /** Where a peer is so slow that the repetitions would take longer than this, it does fewer. */
    public final long maxRowNanos;

    public Plan(boolean quick) {
        this.quick = quick;
        this.targetNanos = quick ? 40_000_000L : 250_000_000L;
        this.reps = quick ? 3 : 7;
        this.warmupNanos = quick ? 150_000_000L : 500_000_000L;
        this.maxRowNanos = quick ? 1_500_000_000L : 12_000_000_000L;
    }

    /**
     * One measurement, as a loop the caller drives (so that the timed code may be a Kilim pausable
     * method or a Kotlin suspend function):
     *
     * <pre>
     *   Plan.Measure m = plan.measure(unitsPerCount, firstCount, granule);
     *   while (m.more()) { m.record(run(m.count())); }   // run(count) returns nanoseconds
     *   double[] nsPerUnit = m.results();
     * </pre>
     *
     * <p>First one untimed run at {@code firstCount}, which pays what happens only once (coroutines
     * started, stacks touched, classes loaded). Calibration: counts from {@code firstCount} up by fours until a run takes an eighth of the
     * target, then the count that takes about the target (a multiple of {@code granule} once it
     * reaches one, and never below {@code firstCount}). Warm-up: runs at that count for
     * {@link #warmupNanos}, unless one run alone is longer; the last warm-up run sets the count
     * again (calibration ran cold, and a JIT may since have made the code much faster). Then {@link #reps} timed runs, or fewer
     * where they would take more than {@link #maxRowNanos}. The same steps in every peer.
     */
    public Measure measure(double unitsPerCount, long firstCount, long granule) {
        return new Measure(unitsPerCount, firstCount, granule);
    }

    /** See {@link Plan#measure}. */
    public final class Measure {
        private final double unitsPerCount;
        private final long firstCount;
        private final long granule;
        private long count;
        private int phase = -1; // -1 first run, 0 calibrate, 1 warm up, 2 timed, 3 done
        private long warmed;
        private double[] results;
        private int taken;

        Measure(double unitsPerCount, long firstCount, long granule) {
            this.unitsPerCount = unitsPerCount;
            this.firstCount = firstCount;
            this.granule = Math.max(1, granule);
            this.count = firstCount;
        }

        public boolean more() {
            return phase < 3;
        }

        public long count() {
            return count;
        }

        public void record(long nanos) {
            switch (phase) {
                case -1 -> phase = 0;
                case 0 -> {
                    if (nanos < targetNanos / 8 && count < (1L << 40)) {
                        count *= 4;
                        return;
                    }
                    double estimate = fit(nanos);
                    phase = estimate >= warmupNanos ? 2 : 1;
                }
                case 1 -> {
                    warmed += nanos;
                    if (warmed >= warmupNanos) {
                        fit(nanos); // again, now that a JIT has compiled the code
                        phase = 2;
                    }
                }
                case 2 -> {
                    results[taken++] = nanos / (count * unitsPerCount);
                    if (taken == results.length) {
                        phase = 3;
                    }
                }
                default -> throw new IllegalStateException("measurement already done");
            }
        }

        /**
         * Sets the count that takes about the target, from a run of the current count that took
         * {@code nanos}, and how many timed runs fit; returns the estimated time of one run.
         */
        private double fit(long nanos) {
            double perCount = Math.max(1.0, nanos) / count;
            long c = Math.max(1L, (long) (targetNanos / perCount));
            if (c >= granule) {
                c = Math.max(granule, Math.round((double) c / granule) * granule);
            }
            count = Math.max(firstCount, c);
            double estimate = perCount * count;
            int n = estimate * reps <= maxRowNanos ? reps
                    : (int) Math.max(1, Math.min(reps, maxRowNanos / estimate));
            results = new double[n];
            return estimate;
        }

        /** Nanoseconds per unit, one value per timed run. */
        public double[] results() {
            if (phase != 3) {
                throw new IllegalStateException("measurement not done");
            }
            return results.clone();
        }
    }

    public static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }

    /** One result line: peer, workload, parameter, metric, value, unit, note (tab-separated). */
    public static void row(String peer, String workload, long parameter, String metric, double value,
                           String unit, String note) {
        String v = Math.abs(value) >= 1000 ? String.format(Locale.ROOT, "%.0f", value)
                                           : String.format(Locale.ROOT, "%.3f", value);
        System.out.println(String.join("\t", peer, workload, Long.toString(parameter), metric, v, unit,
                note.replace('\t', ' ').replace('\n', ' ')));
        System.out.flush();
    }

    /** VmRSS of this process in bytes, from /proc/self/status; -1 where there is none. */
    public static long rssBytes() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024L;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** A few full collections, so that the RSS readings before and after compare like with like. */
    public static void settle() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The longest a memory reading waits for the JIT compilers to be idle, in milliseconds. */
    public static final long JIT_QUIET_LIMIT_MILLIS = 20_000;
    /** Compile queue reads before the memory readings (weft-bench's {@code JvmQuiet.WARM_UP_READS}). */
    public static final int JIT_QUIET_WARM_UP_READS = 1_000;
    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

    /**
     * Waits until the JIT compilers have nothing to do (as weft-bench's {@code JvmQuiet}), so that
     * a memory reading does not catch a compile's arena in the resident set; at most
     * {@code limitMillis}, then the reading goes ahead.
     */
    public static void awaitCompilerIdle(long limitMillis) {
        long deadline = System.nanoTime() + limitMillis * 1_000_000L;
        while (!compilerIdle(compilerQueue()) && System.nanoTime() < deadline) {
            if (!pause()) {
                return;
            }
        }
    }

    /**
     * Whether an output of {@code jcmd PID Compiler.queue} lists no task: every line blank, a
     * section's heading (ending in a colon) or {@code Empty}.
     */
    public static boolean compilerIdle(String compilerQueue) {
        for (String line : compilerQueue.split("\\R")) {
            String l = line.strip();
            if (!(l.isEmpty() || l.endsWith(":") || l.equals("Empty"))) {
                return false;
            }
        }
        return true;
    }

    /** What {@code jcmd PID Compiler.queue} would print for this JVM. */
    private static String compilerQueue() {
        return diagnosticCommand("compilerQueue");
    }

    /** Returns the C library's free memory to the system ({@code jcmd PID System.trim_native_heap}). */
    public static void trimNativeHeap() {
        diagnosticCommand("systemTrimNativeHeap");
    }

    private static boolean pause() {
        try {
            Thread.sleep(50);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String diagnosticCommand(String operation) {
        try {
            return (String) java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName(DIAGNOSTIC_COMMAND), operation, new Object[] {new String[0]},
                    new String[] {String[].class.getName()});
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("cannot run " + operation + " through " + DIAGNOSTIC_COMMAND, e);
        }
    }

    /**
     * The memory of this JVM after {@link #settle()}, with the JIT compilers idle
     * ({@link #awaitCompilerIdle}) and the C library's free memory returned
     * ({@link #trimNativeHeap}), as weft-bench reads its own probes: the resident set, and the
     * heap in use and committed. run-peers.sh runs the memory mode with a fixed, pre-touched heap
     * ({@code -Xms} = {@code -Xmx}, {@code -XX:+AlwaysPreTouch}), as weft-bench runs its own
     * memory probes, so that the resident set's growth is native memory only. Immutable.
     */
    public static final class MemoryReading {
        public final long rss;
        public final long heapUsed;
        public final long heapCommitted;

        public MemoryReading(long rss, long heapUsed, long heapCommitted) {
            this.rss = rss;
            this.heapUsed = heapUsed;
            this.heapCommitted = heapCommitted;
        }

        /**
         * Runs the reading's own code before it counts: one reading, then the compile queue read
         * {@link #JIT_QUIET_WARM_UP_READS} times (the JDK's one-time work on that path, which stays
         * in the heap, is then done before the readings) and one pause.
         */
        public static void warmUp() {
            settled();
            for (int i = 0; i < JIT_QUIET_WARM_UP_READS; i++) {
                compilerIdle(compilerQueue());
            }
            pause();
        }

        /** Collects garbage ({@link #settle()}), waits for the compilers, trims the C heap, then reads. */
        public static MemoryReading settled() {
            settle();
            awaitCompilerIdle(JIT_QUIET_LIMIT_MILLIS);
            trimNativeHeap();
            Runtime rt = Runtime.getRuntime();
            return new MemoryReading(rssBytes(), rt.totalMemory() - rt.freeMemory(), rt.totalMemory());
        }

        /**
         * What {@code n} coroutines cost per coroutine between {@code before} and this reading, as
         * weft-bench counts its own: the live heap's growth plus the native growth (the resident
         * set's growth less the committed heap's).
         */
        public double residentPerCoroutine(MemoryReading before, int n) {
            return ((heapUsed - before.heapUsed) + (rss - before.rss) - (heapCommitted - before.heapCommitted)) / (double) n;
        }
    }

    /**
     * The memory rows of {@code n} suspended coroutines: {@code resident-bytes-per-coroutine} (live
     * heap + native growth, the figure compared with Weft's), {@code heap-bytes-per-coroutine}, and
     * the plain resident-set growth {@code rss-bytes-per-coroutine}; {@code what} says how they wait.
     */
    public static void memoryRows(String peer, int n, MemoryReading before, MemoryReading after, String what) {
        String note = what + "; VmRSS " + before.rss / 1024 + " -> " + after.rss / 1024 + " kB, heap used after GC "
                + before.heapUsed / 1024 + " -> " + after.heapUsed / 1024 + " kB, committed " + before.heapCommitted / 1024
                + " -> " + after.heapCommitted / 1024 + " kB; " + jvmNote();
        row(peer, "memory", n, "resident-bytes-per-coroutine", after.residentPerCoroutine(before, n), "B",
                "live heap + native growth; " + note);
        row(peer, "memory", n, "heap-bytes-per-coroutine", (after.heapUsed - before.heapUsed) / (double) n, "B", note);
        row(peer, "memory", n, "rss-bytes-per-coroutine", (after.rss - before.rss) / (double) n, "B", note);
    }

    /**
     * Coroutines a memory run makes and finishes before its first reading, as weft-bench's memory
     * probes do ({@code MemoryProbe.JIT_WARM_UP}): the JIT's compiling their code is then not counted.
     */
    public static final int JIT_WARM_UP = 10_000;

    public static String jvmNote() {
        return "java " + System.getProperty("java.version");
    }
}
