package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A section-only run splices its sections into the page a full run wrote, and their rows into
 * the raw results and the targets, leaving the rest as it was.
 */
class SectionOnlyRunTest {

    /** A section that measures {@code value} under its name, writes it and meets a goal with it. */
    private static final class Fake extends Section {
        private final String name;
        private final double value;
        private final List<Section> uses;

        Fake(String name, double value, Section... uses) {
            this.name = name;
            this.value = value;
            this.uses = List.of(uses);
        }

        @Override
        String id() {
            return name;
        }

        @Override
        List<Section> dependsOn() {
            return uses;
        }

        @Override
        String title() {
            return "Fake " + name;
        }

        @Override
        int plannedSteps(Settings settings) {
            return 0;
        }

        @Override
        void measure(Bench bench) {
            bench.record("fake", name, "p", Outcome.measured(value, "us", 1));
        }

        @Override
        void write(Page page) {
            page.heading(2, title());
            page.paragraph(name + " measured " + value);
        }

        @Override
        List<Target> targets(PeerResults peers) {
            return List.of(Target.of(name + " goal", name + " at " + value, true));
        }
    }

    private static Bench bench(Path dir) {
        Settings settings = Settings.quickRun();
        return new Bench(settings, Machine.describe(), new JmhRunner(settings, dir), new ProbeRunner(dir), new Progress(0));
    }

    /** Writes the page, results and targets of a full run of {@code sections} into {@code dir}. */
    private static Path fullRun(Path dir, List<Section> sections) throws IOException {
        Bench bench = bench(dir);
        sections.forEach(bench::measure);
        Path results = Files.createDirectories(dir.resolve("bench-results"));
        PeerResults peers = PeerResults.notRun("none");
        Page page = new Page(dir, results, bench.settings(), peers);
        var bySection = SectionOnlyRun.bySection(sections, peers);
        Report.write(page, sections, bySection, Machine.describe(), bench, true);
        Files.writeString(dir.resolve("BENCHMARKS.md"), page.text());
        ResultsFile.write(results.resolve("results.tsv"), bench.recorded());
        TargetsFile.write(results.resolve("targets.tsv"), bySection);
        return dir.resolve("BENCHMARKS.md");
    }

    @Test
    void oneSectionIsReplacedAndTheOthersKept(@TempDir Path dir) throws Exception {
        Path page = fullRun(dir, List.of(new Fake("alpha", 1), new Fake("beta", 2), new Fake("gamma", 3)));
        String before = Files.readString(page);
        List<Section> sections = SectionOnlyRun.selected(List.of(new Fake("alpha", 10), new Fake("beta", 20),
                new Fake("gamma", 30)), List.of("beta"));
        SectionOnlyRun run = new SectionOnlyRun(page, dir.resolve("bench-results"), sections);
        run.check();
        Bench bench = bench(dir);
        sections.forEach(bench::measure);
        List<Target> targets = run.write(bench, bench.settings(), "`./bench --only=beta` today");
        assertEquals(List.of(Target.of("beta goal", "beta at 20.0", true)), targets);

        String after = Files.readString(page);
        assertTrue(after.contains("alpha measured 1.0") && after.contains("gamma measured 3.0"), after);
        assertTrue(after.contains("## Fake beta\n\n*Re-measured alone: `./bench --only=beta` today."), after);
        assertTrue(after.contains("beta measured 20.0") && !after.contains("beta measured 2.0"), after);
        assertTrue(after.contains("- Fake beta (`beta`): `./bench --only=beta` today."), after);
        String targetsText = PageBlocks.content(after, PageBlocks.TARGETS).orElseThrow();
        assertTrue(targetsText.contains("alpha at 1.0") && targetsText.contains("beta at 20.0")
                && targetsText.indexOf("alpha at") < targetsText.indexOf("beta at")
                && targetsText.indexOf("beta at") < targetsText.indexOf("gamma at"), targetsText);
        assertEquals(before.substring(0, before.indexOf(PageBlocks.begin(PageBlocks.ONLY_RUNS))),
                after.substring(0, after.indexOf(PageBlocks.begin(PageBlocks.ONLY_RUNS))));
        assertEquals(before.substring(before.indexOf(PageBlocks.end("gamma"))),
                after.substring(after.indexOf(PageBlocks.end("gamma"))));

        List<String> results = Files.readAllLines(dir.resolve("bench-results/results.tsv"));
        assertEquals(4, results.size(), results.toString());
        assertTrue(results.get(2).startsWith("fake\tbeta\tp\t20.0000"), results.toString());
        assertTrue(results.get(3).startsWith("fake\tgamma\tp\t3.00000"), results.toString());
    }

    @Test
    void aSectionNewerThanThePageGetsItsBlockAfterTheSectionBeforeIt(@TempDir Path dir) throws Exception {
        Path page = fullRun(dir, List.of(new Fake("alpha", 1), new Fake("gamma", 3)));
        List<Section> all = List.of(new Fake("alpha", 10), new Fake("beta", 20), new Fake("gamma", 30));
        List<Section> sections = SectionOnlyRun.selected(all, List.of("beta"));
        SectionOnlyRun run = new SectionOnlyRun(page, dir.resolve("bench-results"), sections, all);
        run.check();
        Bench bench = bench(dir);
        sections.forEach(bench::measure);
        run.write(bench, bench.settings(), "`./bench --only=beta` today");

        String after = Files.readString(page);
        assertTrue(after.indexOf("alpha measured 1.0") < after.indexOf("beta measured 20.0")
                && after.indexOf("beta measured 20.0") < after.indexOf("gamma measured 3.0"), after);
        assertTrue(after.contains(PageBlocks.end("alpha") + "\n\n" + PageBlocks.begin("beta") + "\n"), after);
        String targetsText = PageBlocks.content(after, PageBlocks.TARGETS).orElseThrow();
        assertTrue(targetsText.indexOf("alpha at 1.0") < targetsText.indexOf("beta at 20.0")
                && targetsText.indexOf("beta at 20.0") < targetsText.indexOf("gamma at 3.0"), targetsText);
        Fake first = new Fake("zero", 0);
        IOException refused = assertThrows(IOException.class, () -> new SectionOnlyRun(page,
                dir.resolve("bench-results"), List.of(first), List.of(first, all.get(0))).check());
        assertTrue(refused.getMessage().contains("no block 'zero'"), refused.getMessage());
    }

    @Test
    void aSectionIsMeasuredWithTheSectionsItUsesInThePagesOrder() {
        Fake memory = new Fake("memory", 1);
        Fake ring = new Fake("ring", 2, memory);
        List<Section> all = List.of(new Fake("switch", 0), memory, ring, new PeersSection());
        assertEquals(List.of(memory, ring), SectionOnlyRun.selected(all, List.of("ring")));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> SectionOnlyRun.selected(all, List.of("rings")));
        assertTrue(unknown.getMessage().contains("switch, memory, ring") && !unknown.getMessage().contains("peers"),
                unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SectionOnlyRun.selected(all, List.of("peers")));
    }

    @Test
    void aPageWithoutBlocksIsRefusedBeforeAnythingIsMeasured(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("BENCHMARKS.md"), "# Weft benchmarks\n\n## 9. Durable sessions\n\nold\n");
        SectionOnlyRun run = new SectionOnlyRun(dir.resolve("BENCHMARKS.md"), dir, List.of(new Fake("sessions", 1)));
        IOException refused = assertThrows(IOException.class, run::check);
        assertTrue(refused.getMessage().contains("run the full suite once first"), refused.getMessage());
        assertFalse(Files.exists(dir.resolve("targets.tsv")));
    }

    @Test
    void aSectionsNameIsItsClassNameInWords() {
        assertEquals("fiber-chain", new FiberChainSection().id());
        assertEquals("sessions", new SessionsSection().id());
        assertEquals("same-fringe", new SameFringeSection().id());
    }
}
