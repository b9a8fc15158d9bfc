package dev.weft.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What {@code count} suspended coroutines of one kind cost in memory, from the repeats of its
 * memory probe, each in a fresh JVM whose heap is fixed and pre-touched
 * ({@link ProcessMemory#fixedHeapOptions}).
 *
 * <p>The figure a process pays per coroutine is the <em>resident</em> one: the live heap's growth
 * after a full collection (the coroutines' objects and stack chunks, which a default-sized heap
 * would have to make resident) plus the native growth, the resident set's growth less the growth
 * of the committed heap (thread stacks, code, malloc). With the heap pre-touched, heap pages are
 * resident before and after, so the resident set's growth is native memory only and the JVM's
 * heap sizing no longer moves it by megabytes.
 *
 * <p>Each figure is the median over the repeats; its noise is their median absolute deviation,
 * and a figure smaller than {@link #NOISE_FACTOR} times its noise is {@linkplain Spread#withinNoise()
 * within noise}: the repeats disagree by as much as the figure itself.
 *
 * <p>Immutable; safe to share between threads.
 *
 * @param count the coroutines each probe made (positive)
 * @param probes one growth per repeat, at least one
 */
record ResidentGrowth(int count, List<Probe> probes) {

    /** A figure is within noise when it is under this many times its median absolute deviation. */
    static final double NOISE_FACTOR = 3;

    ResidentGrowth {
        if (count <= 0) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        if (probes.isEmpty()) {
            throw new IllegalArgumentException("no probe for count " + count);
        }
        probes = List.copyOf(probes);
    }

    /**
     * What one probe's JVM grew by, in bytes in all, while it made the coroutines.
     *
     * @param heapUsed live heap after a full collection
     * @param rss the resident set ({@code VmRSS})
     * @param heapCommitted the heap the JVM had committed (zero with a fixed heap)
     */
    record Probe(double heapUsed, double rss, double heapCommitted) {

        /** The growth a memory probe printed ({@code before-*} and {@code after-*} lines). */
        static Probe of(Map<String, String> output) throws ProbeRunner.ProbeFailure {
            return new Probe(growth(output, "heap-used"), growth(output, "rss"), growth(output, "heap-committed"));
        }

        private static double growth(Map<String, String> output, String key) throws ProbeRunner.ProbeFailure {
            return ProbeRunner.number(output, "after-" + key) - ProbeRunner.number(output, "before-" + key);
        }

        /** The resident set's growth outside the heap. */
        double nativeBytes() {
            return rss - heapCommitted;
        }

        /** What the process pays: live heap plus native growth. */
        double residentBytes() {
            return heapUsed + nativeBytes();
        }
    }

    /**
     * One figure per coroutine over the repeats.
     *
     * @param median the figure
     * @param min and {@code max}: the range of the repeats
     * @param noise the median absolute deviation of the repeats from the median
     * @param repeats how many probes
     */
    record Spread(double median, double min, double max, double noise, int repeats) {

        static Spread of(double[] values) {
            if (values.length == 0) {
                throw new IllegalArgumentException("no values");
            }
            double median = median(values);
            double[] deviations = Arrays.stream(values).map(v -> Math.abs(v - median)).toArray();
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            return new Spread(median, sorted[0], sorted[sorted.length - 1], median(deviations), values.length);
        }

        private static double median(double[] values) {
            double[] s = values.clone();
            Arrays.sort(s);
            int n = s.length;
            return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        }

        /** Whether the repeats disagree by as much as the figure: {@code |median| < NOISE_FACTOR * noise}. */
        boolean withinNoise() {
            return Math.abs(median) < NOISE_FACTOR * noise;
        }

        /** The median, as an outcome of {@code repeats} samples. */
        Outcome outcome() {
            return Outcome.measured(median, "B", repeats);
        }

        /** The median, and the range when there was more than one repeat: {@code 231 (219–240)}. */
        String text() {
            return repeats == 1 || min == max ? Format.number(median)
                    : Format.number(median) + " (" + Format.number(min) + "–" + Format.number(max) + ")";
        }
    }

    /** Live heap plus native growth per coroutine: what the process pays. */
    Spread resident() {
        return perCoroutine(Probe::residentBytes);
    }

    /** Live heap growth per coroutine. */
    Spread heap() {
        return perCoroutine(Probe::heapUsed);
    }

    /** Native growth per coroutine (resident set outside the committed heap). */
    Spread nativeMemory() {
        return perCoroutine(Probe::nativeBytes);
    }

    /** The plain resident-set growth per coroutine, as the process saw it. */
    Spread rss() {
        return perCoroutine(Probe::rss);
    }

    private Spread perCoroutine(ToDoubleFunction<Probe> growth) {
        return Spread.of(probes.stream().mapToDouble(p -> growth.applyAsDouble(p) / count).toArray());
    }
}
