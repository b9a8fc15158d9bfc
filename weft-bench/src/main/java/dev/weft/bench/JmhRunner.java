package dev.weft.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs one JMH benchmark method with fixed parameters through JMH's Java API, in forked JVMs of
 * the running JDK, and reduces its result to the median of the per-iteration scores of all
 * forks, as JMH's own statistics give it. JMH's output for the run goes to a log file of its
 * own, and its result, in JMH's JSON format, to a file beside it.
 *
 * <p>Threading: one run at a time, from one thread (the report's): a spec with a class path of
 * its own ({@link Spec#withClassPath}) sets this JVM's {@code java.class.path} while JMH forks.
 */
final class JmhRunner {

    /** One benchmark method with its parameters; {@code opsPerInvocation} turns JMH's score into time per operation. */
    record Spec(Class<?> benchmark, String method, Map<String, String> params, int opsPerInvocation,
                boolean singleShot, List<String> extraJvmArgs, int maxForks, String classPath, int warmups) {

        static Spec of(Class<?> benchmark, String method, Map<String, String> params, int opsPerInvocation) {
            return new Spec(benchmark, method, params, opsPerInvocation, false, List.of(), Integer.MAX_VALUE, null, -1);
        }

        Spec singleShotMode() {
            return new Spec(benchmark, method, params, opsPerInvocation, true, extraJvmArgs, maxForks, classPath, warmups);
        }

        Spec withJvmArgs(String... args) {
            return new Spec(benchmark, method, params, opsPerInvocation, singleShot, List.of(args), maxForks, classPath, warmups);
        }

        /** At most {@code forks} forks, for benchmarks whose set-up dominates a fork's time. */
        Spec withMaxForks(int forks) {
            return new Spec(benchmark, method, params, opsPerInvocation, singleShot, extraJvmArgs, forks, classPath, warmups);
        }

        /**
         * Forks whose class path is {@code forkClassPath} instead of this JVM's: it must hold
         * JMH, the benchmark and what it calls (section 10 swaps a library's jars for their
         * woven copies).
         */
        Spec withClassPath(String forkClassPath) {
            return new Spec(benchmark, method, params, opsPerInvocation, singleShot, extraJvmArgs, maxForks,
                    forkClassPath, warmups);
        }

        /** {@code iterations} warm-up iterations instead of the settings', for code that compiles slowly. */
        Spec withWarmupIterations(int iterations) {
            return new Spec(benchmark, method, params, opsPerInvocation, singleShot, extraJvmArgs, maxForks, classPath,
                    iterations);
        }

        String label() {
            StringBuilder s = new StringBuilder(benchmark.getSimpleName()).append('.').append(method);
            params.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
            return s.toString();
        }
    }

    /**
     * The property JMH reads, when it starts a fork, for the fork's {@code -cp}: a spec with a
     * class path of its own sets it for its run and puts this JVM's back after it (the property
     * changes nothing in this JVM's own class loading, fixed at its start).
     */
    private static final String CLASS_PATH = "java.class.path";

    private final Settings settings;
    private final Path logDir;

    JmhRunner(Settings settings, Path logDir) {
        this.settings = settings;
        this.logDir = logDir;
    }

    Outcome run(Spec spec) {
        String name = unusedName(spec.label().replaceAll("[^A-Za-z0-9.=_-]+", "_"));
        Path log = logDir.resolve(name + ".jmh.log");
        String hostClassPath = System.getProperty(CLASS_PATH);
        try {
            if (spec.classPath() != null) {
                System.setProperty(CLASS_PATH, spec.classPath());
            }
            Collection<RunResult> results = new Runner(options(spec, log, logDir.resolve(name + ".jmh.json"))).run();
            if (results.size() != 1) {
                return Outcome.failed("JMH returned " + results.size() + " results, expected 1 (log: " + log + ")");
            }
            return median(results.iterator().next());
        } catch (RunnerException | RuntimeException e) {
            return Outcome.failed(rootMessage(e) + " (log: " + log + ")");
        } finally {
            System.setProperty(CLASS_PATH, hostClassPath);
        }
    }

    /** {@code name}, or, if a run of this report logged under it already, {@code name-2}, {@code name-3}... */
    private String unusedName(String name) {
        String unused = name;
        for (int n = 2; java.nio.file.Files.exists(logDir.resolve(unused + ".jmh.log")); n++) {
            unused = name + "-" + n;
        }
        return unused;
    }

    /** JMH's options for {@code spec}: its output to {@code log}, its result as JSON to {@code json}. */
    private Options options(Spec spec, Path log, Path json) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(spec.benchmark().getName() + "." + spec.method()) + "$")
                .forks(Math.min(settings.forks(), spec.maxForks()))
                .jvmArgs(baseJvmArgs().toArray(String[]::new))
                .jvmArgsAppend(spec.extraJvmArgs().isEmpty() ? new String[] {"-Dweft.bench.fork=true"}
                        : spec.extraJvmArgs().toArray(String[]::new))
                .operationsPerInvocation(spec.opsPerInvocation())
                .timeUnit(TimeUnit.NANOSECONDS)
                .shouldFailOnError(true)
                .output(log.toString())
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString());
        spec.params().forEach(options::param);
        return spec.singleShot() ? singleShot(options).build() : averageTime(options, spec).build();
    }

    private ChainedOptionsBuilder singleShot(ChainedOptionsBuilder options) {
        return options.mode(Mode.SingleShotTime)
                .warmupIterations(settings.singleShotWarmups())
                .measurementIterations(settings.singleShotMeasurements())
                .warmupBatchSize(1)
                .measurementBatchSize(1);
    }

    private ChainedOptionsBuilder averageTime(ChainedOptionsBuilder options, Spec spec) {
        return options.mode(Mode.AverageTime)
                .warmupIterations(spec.warmups() < 0 ? settings.warmupIterations() : spec.warmups())
                .warmupTime(TimeValue.milliseconds(settings.warmupTime().toMillis()))
                .measurementIterations(settings.measurementIterations())
                .measurementTime(TimeValue.milliseconds(settings.measurementTime().toMillis()));
    }

    /** The options every benchmark JVM gets: Weft's export, and quiet about JMH's own use of Unsafe. */
    static List<String> baseJvmArgs() {
        List<String> args = new ArrayList<>(List.of(Jvm.EXPORTS));
        if (Runtime.version().feature() >= 23) {
            args.add("--sun-misc-unsafe-memory-access=allow");
        }
        return args;
    }

    /** The median of the per-iteration scores, over every fork: JMH's statistics of the primary result. */
    static Outcome median(RunResult result) {
        Result<?> primary = result.getPrimaryResult();
        return median(primary.getStatistics(), primary.getScoreUnit());
    }

    static Outcome median(Statistics iterations, String unit) {
        if (iterations.getN() == 0) {
            return Outcome.failed("no measured iterations");
        }
        return Outcome.measured(iterations.getPercentile(50), unit, (int) iterations.getN());
    }

    private static String rootMessage(Throwable t) {
        String message = t.getMessage();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null) {
                message = c.getClass().getSimpleName() + ": " + c.getMessage();
            }
            for (Throwable s : c.getSuppressed()) {
                if (s.getMessage() != null) {
                    message = s.getClass().getSimpleName() + ": " + s.getMessage();
                }
            }
        }
        String oneLine = String.valueOf(message).lines().findFirst().orElse("");
        return oneLine.length() > 200 ? oneLine.substring(0, 200) + "…" : oneLine;
    }
}
