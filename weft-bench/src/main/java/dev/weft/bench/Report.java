package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs the whole benchmark suite and writes BENCHMARKS.md: {@code ./bench} at the repository root
 * builds this module and runs this class with {@code --mode=full} (or {@code --mode=quick} for
 * {@code ./bench --quick}) and {@code --root=} the repository.
 *
 * <p>Full mode writes {@code BENCHMARKS.md} at the root, and its plots, the raw
 * {@code results.tsv}, the targets by section ({@code targets.tsv}) and the peers'
 * {@code peers.tsv} under {@code bench-results/}; quick mode writes the same under
 * {@code weft-bench/target/bench-quick/} and never touches the committed files. With
 * {@code --only=NAME[,NAME...]} ({@code ./bench --only=NAME}) it measures those sections only and
 * splices them into the page of the last run of the same mode ({@link SectionOnlyRun}). JMH's and the probes' own logs go to {@code weft-bench/target/bench-logs/} (with JMH's
 * JSON result of each run), the peers'
 * to {@code weft-bench/target/bench-peers/logs/}. The exit code is 1 when any
 * measurement failed (the report is written all the same), 2 for bad arguments.
 */
public final class Report {

    private Report() {
    }

    public static void main(String[] args) throws IOException {
        boolean quick = false;
        Path root = Path.of(".");
        List<String> only = List.of();
        for (String arg : args) {
            if (arg.equals("--quick") || arg.equals("--mode=quick")) {
                quick = true;
            } else if (arg.equals("--mode=full")) {
                quick = false;
            } else if (arg.startsWith("--root=")) {
                root = Path.of(arg.substring("--root=".length()));
            } else if (arg.startsWith("--only=")) {
                only = Stream.of(arg.substring("--only=".length()).split(",")).filter(n -> !n.isBlank()).toList();
            } else {
                System.err.println("usage: Report [--mode=full|--mode=quick] [--root=REPOSITORY] [--only=SECTION,...]");
                System.exit(2);
            }
        }
        System.exit(new Report().run(quick, root.toAbsolutePath().normalize(), only));
    }

    /** Where a run writes: the page and its results (plots, raw results), the logs, the peers' output. */
    private record Places(Path root, Path page, Path results, Path logs, Path peers) {

        /**
         * The places of a run; the logs of a previous run are dropped, and unless this run
         * measures some sections only, the peers' output too.
         */
        static Places prepare(Path root, boolean quick, boolean sectionsOnly) throws IOException {
            Path page = quick ? root.resolve("weft-bench/target/bench-quick") : root;
            Places places = new Places(root, page, page.resolve("bench-results"),
                    root.resolve("weft-bench/target/bench-logs"), root.resolve("weft-bench/target/bench-peers"));
            recreate(places.logs());
            Files.createDirectories(places.results());
            if (!sectionsOnly) {
                recreate(places.peers());
                Files.deleteIfExists(places.results().resolve("peers.tsv"));
            }
            return places;
        }
    }

    private int run(boolean quick, Path root, List<String> only) throws IOException {
        // 1. where everything goes
        Settings settings = quick ? Settings.quickRun() : Settings.fullRun();
        Places places = Places.prepare(root, quick, !only.isEmpty());

        // 2. what will run, and for how long
        Machine machine = Machine.describe();
        List<Section> sections = sections(machine, places);
        if (!only.isEmpty()) {
            return runOnly(quick, settings, places, machine, sections, only);
        }
        int steps = sections.stream().mapToInt(s -> s.plannedSteps(settings)).sum();
        announce(quick, settings, sections, steps);

        // 3. the JVM workloads, one after another
        Progress progress = new Progress(steps);
        Bench bench = new Bench(settings, machine, new JmhRunner(settings, places.logs()), new ProbeRunner(places.logs()),
                progress);
        sections.forEach(bench::measure);

        // 4. the raw results, then the peers, after them, so that nothing else runs meanwhile; the results
        // first, since the peers' install rebuilds the reactor's jars if a source changed during the run
        ResultsFile.write(places.results().resolve("results.tsv"), bench.recorded());
        PeerResults peers = runPeers(places, quick, settings, progress);

        // 5. the page and its plots, and the targets by section for later section-only runs
        Page page = new Page(places.page(), places.results(), settings, peers);
        Map<String, List<Target>> bySection = SectionOnlyRun.bySection(sections, peers);
        List<Target> targets = write(page, sections, bySection, machine, bench, quick);
        Path markdown = places.page().resolve("BENCHMARKS.md");
        Files.writeString(markdown, page.text());
        TargetsFile.write(places.results().resolve("targets.tsv"), bySection);

        // 6. the summary on the console; failed measurements fail the run
        summarize(targets, bench, places, markdown, progress);
        return bench.failures().isEmpty() ? 0 : 1;
    }

    /** Runs the peers' script; their results are kept with the page's, their logs stay in target/. */
    private static PeerResults runPeers(Places places, boolean quick, Settings settings, Progress progress)
            throws IOException {
        progress.note("running the peers: weft-bench/peers/run-peers.sh" + (quick ? " --quick" : ""));
        PeerResults peers = PeerResults.run(places.root(), places.root().resolve("weft-bench/peers/run-peers.sh"), quick,
                places.peers(), places.logs().resolve("run-peers.log"), settings.peersTimeout());
        if (Files.isRegularFile(places.peers().resolve("peers.tsv"))) {
            Files.copy(places.peers().resolve("peers.tsv"), places.results().resolve("peers.tsv"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        progress.note(peers.notRun() != null ? "peers not run: " + peers.notRun()
                : "peers: " + peers.rows().size() + " rows from " + peers.peers().size() + " peers");
        return peers;
    }

    /**
     * Writes the page: header, targets, every section in a block of its own, footer. Returns the
     * targets.
     */
    static List<Target> write(Page page, List<Section> sections, Map<String, List<Target>> bySection,
            Machine machine, Bench bench, boolean quick) {
        List<Target> targets = new ArrayList<>();
        bySection.values().forEach(targets::addAll);
        ReportText.header(page, machine, page.settings(), quick);
        ReportText.targets(page, targets);
        for (Section section : sections) {
            page.begin(section.id());
            section.write(page);
            page.end(section.id());
        }
        ReportText.footer(page, bench.failures(), page.problems(), names(sections));
        return targets;
    }

    /** The sections' names for {@code --only}: all but the peers'. */
    private static List<String> names(List<Section> sections) {
        return sections.stream().filter(s -> !(s instanceof PeersSection)).map(Section::id).toList();
    }

    /**
     * Measures the sections named in {@code only}, and those they use, and splices them into the
     * page the last full run wrote ({@link SectionOnlyRun}); the peers are not run.
     */
    private static int runOnly(boolean quick, Settings settings, Places places, Machine machine, List<Section> all,
            List<String> only) throws IOException {
        List<Section> sections;
        SectionOnlyRun run;
        try {
            sections = SectionOnlyRun.selected(all, only);
            run = new SectionOnlyRun(places.page().resolve("BENCHMARKS.md"), places.results(), sections, all);
            run.check();
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("bench: " + e.getMessage());
            return 2;
        }
        int steps = sections.stream().mapToInt(s -> s.plannedSteps(settings)).sum();
        System.out.printf(Locale.ROOT, "Weft benchmarks, %s mode, sections %s only: %d measurements, estimated %s%n",
                quick ? "quick" : "full", names(sections), steps, minutes(estimate(sections, settings)));
        Progress progress = new Progress(steps);
        Bench bench = new Bench(settings, machine, new JmhRunner(settings, places.logs()), new ProbeRunner(places.logs()),
                progress);
        String measured = commit(places.root()); // what was built: sources may change while it runs
        sections.forEach(bench::measure);
        String command = "`./bench" + (quick ? " --quick" : "") + " --only=" + String.join(",", only) + "`";
        List<Target> targets = run.write(bench, settings, command + " on " + machine.date() + ", at commit " + measured);
        summarize(targets, bench, places, places.page().resolve("BENCHMARKS.md"), progress);
        return bench.failures().isEmpty() ? 0 : 1;
    }

    /**
     * The commit checked out at {@code root}, abbreviated, and whether sources differ from it
     * (the page and its results aside); {@code unknown} without git.
     */
    private static String commit(Path root) {
        try {
            String head = git(root, "rev-parse", "--short", "HEAD").strip();
            String changed = git(root, "status", "--porcelain", "--untracked-files=no", "--", ".",
                    ":(exclude)BENCHMARKS.md", ":(exclude)bench-results").strip();
            return head.isEmpty() ? "unknown" : head + (changed.isEmpty() ? "" : " with uncommitted changes");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String git(Path root, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return process.waitFor() == 0 ? out : "";
    }

    private static void summarize(List<Target> targets, Bench bench, Places places, Path markdown, Progress progress) {
        System.out.println();
        System.out.println("Targets:");
        targets.forEach(t -> System.out.println("  " + t.statusText() + "  " + t.goal() + ": " + t.measured()));
        System.out.printf("Wrote %s and %s in %s%n", places.root().relativize(markdown),
                places.root().relativize(places.results()), minutes(progress.elapsedSeconds()));
        bench.failures().forEach(f -> System.out.println("FAILED " + f.workload() + " " + f.variant() + " "
                + f.parameter() + ": " + f.outcome().failure()));
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

    /** The sections in the page's order; section 10 weaves its libraries under {@code weft-bench/target}. */
    private static List<Section> sections(Machine machine, Places places) {
        MemorySection memory = new MemorySection(machine.platformThreadCap());
        return List.of(new SwitchSection(), new DepthSection(), new CreationSection(), memory, new MigrationSection(),
                new SerializationSection(), new FiberChainSection(), new SameFringeSection(),
                new RingSection(machine.platformThreadCap(), memory), new SessionsSection(),
                new LibrariesSection(places.root().resolve("weft-bench/target/woven-libraries"), places.logs()), new PeersSection());
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
