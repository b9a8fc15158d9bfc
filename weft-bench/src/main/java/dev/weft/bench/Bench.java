package dev.weft.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the sections measure with: the settings, the machine, the JMH and probe runners, and
 * the record of every outcome (for the raw results file and the list of failures).
 */
final class Bench {

    /** One measured value, as written to {@code results.tsv}, with the section that measured it. */
    record Recorded(String workload, String variant, String parameter, Outcome outcome, String section) {
    }

    private final Settings settings;
    private final Machine machine;
    private final JmhRunner jmh;
    private final ProbeRunner probes;
    private final Progress progress;
    private final List<Recorded> recorded = new ArrayList<>();
    /** The section measuring now ({@link Section#id}), named with each value it records. */
    private String section = "";

    Bench(Settings settings, Machine machine, JmhRunner jmh, ProbeRunner probes, Progress progress) {
        this.settings = settings;
        this.machine = machine;
        this.jmh = jmh;
        this.probes = probes;
        this.progress = progress;
    }

    Settings settings() {
        return settings;
    }

    Machine machine() {
        return machine;
    }

    /** Runs a JMH benchmark, records its outcome and reports it on the console. */
    Outcome jmh(String workload, String variant, String parameter, JmhRunner.Spec spec) {
        Outcome o = jmh.run(spec);
        record(workload, variant, parameter, o);
        progress.report(workload + ": " + variant + " " + parameter, o);
        return o;
    }

    /**
     * Runs a probe in a fresh JVM. A failure is reported on the console here; on success the
     * caller records what it derives and reports it with {@link #probed}.
     */
    Map<String, String> probe(String label, Class<?> main, List<String> args, List<String> jvmOptions, Duration timeout)
            throws ProbeRunner.ProbeFailure {
        try {
            return probes.run(main, args, jvmOptions, timeout);
        } catch (ProbeRunner.ProbeFailure e) {
            progress.report(label, Outcome.failed(e.getMessage()));
            throw e;
        }
    }

    /** Runs a probe in a fresh JVM on {@code classPath} instead of this JVM's, as {@link #probe} does. */
    Map<String, String> probe(String label, Class<?> main, List<String> args, List<String> jvmOptions, String classPath,
            Duration timeout) throws ProbeRunner.ProbeFailure {
        try {
            return probes.run(main, args, jvmOptions, classPath, timeout);
        } catch (ProbeRunner.ProbeFailure e) {
            progress.report(label, Outcome.failed(e.getMessage()));
            throw e;
        }
    }

    /** Reports on the console what a probe found. */
    void probed(String label, String result) {
        progress.report(label, result);
    }

    void record(String workload, String variant, String parameter, Outcome outcome) {
        recorded.add(new Recorded(workload, variant, parameter, outcome, section));
    }

    /** Runs {@code section}'s measurements, its values recorded under its name. */
    void measure(Section section) {
        this.section = section.id();
        try {
            section.measure(this);
        } finally {
            this.section = "";
        }
    }

    void note(String message) {
        progress.note(message);
    }

    List<Recorded> recorded() {
        return List.copyOf(recorded);
    }

    List<Recorded> failures() {
        return recorded.stream().filter(r -> !r.outcome().ok()).toList();
    }
}
