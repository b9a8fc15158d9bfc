package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Runs the whole benchmark suite and writes BENCHMARKS.md: {@code ./bench} at the repository root
 * builds this module and runs this class with {@code --mode=full} (or {@code --mode=quick} for
 * {@code ./bench --quick}) and {@code --root=} the repository.
 *
 * <p>Full mode writes {@code BENCHMARKS.md} at the root, and its plots, the raw
 * {@code results.tsv} and the peers' {@code peers.tsv} under {@code bench-results/}; quick mode
 * writes the same under {@code weft-bench/target/bench-quick/} and never touches the committed
 * files. JMH's and the probes' own logs go to {@code weft-bench/target/bench-logs/}, the peers'
 * to {@code weft-bench/target/bench-peers/logs/}. The exit code is 1 when any
 * measurement failed (the report is written all the same), 2 for bad arguments.
 */
public final class Report {

    private Report() {
    }

    public static void main(String[] args) throws IOException {
        boolean quick = false;
        Path root = Path.of(".");
        for (String arg : args) {
            if (arg.equals("--quick") || arg.equals("--mode=quick")) {
                quick = true;
            } else if (arg.equals("--mode=full")) {
                quick = false;
            } else if (arg.startsWith("--root=")) {
                root = Path.of(arg.substring("--root=".length()));
            } else {
                System.err.println("usage: Report [--mode=full|--mode=quick] [--root=REPOSITORY]");
                System.exit(2);
            }
        }
        System.exit(new Report().run(quick, root.toAbsolutePath().normalize()));
    }

    private int run(boolean quick, Path root) throws IOException {
        // 1. where everything goes; the logs and the peers' output of a previous run are dropped
        Settings settings = quick ? Settings.quickRun() : Settings.fullRun();
        Path pageDir = quick ? root.resolve("weft-bench/target/bench-quick") : root;
        Path resultsDir = pageDir.resolve("bench-results");
        Path logDir = root.resolve("weft-bench/target/bench-logs");
        Path peersDir = root.resolve("weft-bench/target/bench-peers");
        recreate(logDir);
        recreate(peersDir);
        Files.createDirectories(resultsDir);
        Files.deleteIfExists(resultsDir.resolve("peers.tsv"));

        // 2. what will run, and for how long
        Machine machine = Machine.describe();
        List<Section> sections = sections(machine);
        int steps = sections.stream().mapToInt(s -> s.plannedSteps(settings)).sum();
        announce(quick, settings, sections, steps);

        // 3. the JVM workloads, one after another
        Progress progress = new Progress(steps);
        Bench bench = new Bench(settings, machine, new JmhRunner(settings, logDir), new ProbeRunner(logDir), progress);
        for (Section s : sections) {
            s.measure(bench);
        }

        // 4. the peers, after them, so that nothing else runs meanwhile
        progress.note("running the peers: weft-bench/peers/run-peers.sh" + (quick ? " --quick" : ""));
        PeerResults peers = PeerResults.run(root, root.resolve("weft-bench/peers/run-peers.sh"), quick,
                peersDir, logDir.resolve("run-peers.log"), settings.peersTimeout());
        if (Files.isRegularFile(peersDir.resolve("peers.tsv"))) { // kept with the results; the peers' logs stay in target/
            Files.copy(peersDir.resolve("peers.tsv"), resultsDir.resolve("peers.tsv"), StandardCopyOption.REPLACE_EXISTING);
        }
        progress.note(peers.notRun() != null ? "peers not run: " + peers.notRun()
                : "peers: " + peers.rows().size() + " rows from " + peers.peers().size() + " peers");

        // 5. the page, its plots and the raw results
        Page page = new Page(pageDir, resultsDir, settings, peers);
        List<Target> targets = new ArrayList<>();
        sections.forEach(s -> targets.addAll(s.targets(peers)));
        ReportText.header(page, machine, settings, quick);
        ReportText.targets(page, targets);
        sections.forEach(s -> s.write(page));
        ReportText.footer(page, bench.failures(), page.problems());
        Path markdown = pageDir.resolve("BENCHMARKS.md");
        Files.writeString(markdown, page.text());
        ResultsFile.write(resultsDir.resolve("results.tsv"), bench.recorded());

        // 6. the summary on the console; failed measurements fail the run
        System.out.println();
        System.out.println("Targets:");
        targets.forEach(t -> System.out.println("  " + t.statusText() + "  " + t.goal() + ": " + t.measured()));
        System.out.printf("Wrote %s and %s in %s%n", root.relativize(markdown), root.relativize(resultsDir),
                minutes(progress.elapsedSeconds()));
        bench.failures().forEach(f -> System.out.println("FAILED " + f.workload() + " " + f.variant() + " "
                + f.parameter() + ": " + f.outcome().failure()));
        return bench.failures().isEmpty() ? 0 : 1;
    }

    private static void announce(boolean quick, Settings settings, List<Section> sections, int steps) {
        System.out.printf(Locale.ROOT, "Weft benchmarks, %s mode: %d measurements, estimated %s for the JVM workloads,"
                        + " then the peers (at most %s)%n", quick ? "quick" : "full", steps,
                minutes(estimate(sections, settings)), minutes(settings.peersTimeout().toSeconds()));
        if (quick) {
            Settings full = Settings.fullRun();
            System.out.printf(Locale.ROOT, "(a full ./bench is estimated at %s for the JVM workloads, plus the peers,"
                    + " at most %s)%n", minutes(estimate(sections, full)), minutes(full.peersTimeout().toSeconds()));
        }
    }

    private static List<Section> sections(Machine machine) {
        MemorySection memory = new MemorySection(machine.platformThreadCap());
        return List.of(new SwitchSection(), new CreationSection(), memory, new MigrationSection(),
                new SerializationSection(), new FiberChainSection(), new SameFringeSection(),
                new RingSection(machine.platformThreadCap(), memory), new SessionsSection(), new PeersSection());
    }

    private static double estimate(List<Section> sections, Settings settings) {
        return sections.stream().mapToDouble(s -> s.estimatedSeconds(settings)).sum();
    }

    private static String minutes(double seconds) {
        long s = Math.round(seconds);
        return s < 120 ? s + " s" : String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }

    private static void recreate(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
    }
}
