package dev.weft.bench;

import java.time.Duration;
import java.util.List;

/**
 * The sizes and JMH settings of one run of the suite: {@link #fullRun()} for BENCHMARKS.md (about
 * an hour on two cores, then the peers), {@link #quickRun()} for a smoke run of seconds.
 *
 * @param libraryRounds section 10's rounds: one JMH fork per library, unwoven and woven, each
 * @param libraryWarmups section 10's warm-up iterations per fork: woven methods are larger and
 *        take longer to compile
 * @param libraryStarts section 10's fresh JVMs per library, unwoven and woven, each
 */
record Settings(
        boolean quick,
        int forks,
        int warmupIterations,
        Duration warmupTime,
        int measurementIterations,
        Duration measurementTime,
        int singleShotWarmups,
        int singleShotMeasurements,
        List<Integer> switchCounts,
        List<Integer> memoryCounts,
        List<Integer> migrationFrames,
        List<Integer> chainLengths,
        List<Integer> fringeLeaves,
        List<Integer> ringCounts,
        Duration ringWarmup,
        Duration ringMeasure,
        Duration peersTimeout,
        int memoryRepeats,
        int libraryRounds,
        int libraryWarmups,
        int libraryStarts) {

    /** Seconds a forked JMH JVM takes to start and set up, for the estimate (about 0.4 s seen here). */
    private static final double FORK_SECONDS = 0.6;

    static Settings fullRun() {
        return new Settings(false, 2, 2, Duration.ofMillis(500), 6, Duration.ofMillis(500), 20, 20,
                List.of(2, 10, 100, 1_000, 10_000, 100_000, 1_000_000),
                List.of(1, 10, 100, 1_000, 10_000, 100_000, 1_000_000),
                List.of(1, 10, 100, 1_000),
                List.of(5, 5_000),
                List.of(1_000, 10_000, 100_000),
                List.of(100, 1_000, 5_000, 10_000, 20_000, 30_000, 40_000, 50_000),
                Duration.ofSeconds(1), Duration.ofSeconds(2),
                Duration.ofMinutes(20), // the peers took 11 to 12 min in session 13: one run of two passed 12
                5,
                7, 5, 10);
    }

    static Settings quickRun() {
        return new Settings(true, 1, 1, Duration.ofMillis(60), 2, Duration.ofMillis(60), 3, 3,
                List.of(2, 100),
                List.of(10, 1_000),
                List.of(1, 10),
                List.of(5),
                List.of(1_000),
                List.of(100, 1_000),
                Duration.ofMillis(100), Duration.ofMillis(200),
                Duration.ofSeconds(240),
                2,
                1, 1, 2);
    }

    /**
     * The fresh JVMs of a memory probe at {@code count}: {@link #memoryRepeats}, but at most 3 at a
     * million and more, where the growth is hundreds of MiB and a few MiB of noise is under 1%.
     */
    int memoryRepeats(int count) {
        return count >= 1_000_000 ? Math.min(3, memoryRepeats) : memoryRepeats;
    }

    /** Estimated seconds of one time-based JMH run (all forks). */
    double averageTimeRunSeconds() {
        return forks * (FORK_SECONDS + warmupIterations * warmupTime.toMillis() / 1000.0
                + measurementIterations * measurementTime.toMillis() / 1000.0);
    }

    /** Estimated seconds of one single-shot JMH run, whose iterations cost their set-up mostly. */
    double singleShotRunSeconds() {
        return forks * (FORK_SECONDS + (singleShotWarmups + singleShotMeasurements) * 0.05);
    }

    /** The JMH settings in words, for the report's method section. */
    String describeJmh() {
        return String.format("%d fork%s per benchmark and parameter; %d warm-up iteration%s of %d ms, then %d measured"
                        + " iterations of %d ms (single-shot benchmarks: %d warm-up and %d measured iterations)",
                forks, forks == 1 ? "" : "s", warmupIterations, warmupIterations == 1 ? "" : "s", warmupTime.toMillis(),
                measurementIterations, measurementTime.toMillis(), singleShotWarmups, singleShotMeasurements);
    }
}
