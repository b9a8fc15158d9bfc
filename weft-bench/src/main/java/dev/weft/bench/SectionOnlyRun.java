package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A run of some sections only ({@code ./bench --only=NAME}): it measures them (and the sections
 * their text uses, {@link Section#dependsOn}) and splices what they write into the page the last
 * full run wrote, through the page's blocks ({@link PageBlocks}): each section's text, noted as
 * re-measured; the targets, written again from {@code targets.tsv} with these sections' rows
 * replaced; and the list of section-only runs under the page's first line. A section newer than
 * the page gets a block of its own after the section before it. In
 * {@code results.tsv}, these sections' rows replace their old ones. The peers are not run: the
 * sections that merge their rows read the last full run's {@code peers.tsv}. Every other part of
 * the page stays as the full run wrote it; the next full run rewrites it all.
 */
final class SectionOnlyRun {

    private final Path page;
    private final Path results;
    private final List<Section> sections;
    private final List<Section> all;

    /**
     * @param page     the page to splice into
     * @param results  the folder of its raw results, targets and plots
     * @param sections the sections to measure, in the page's order
     */
    SectionOnlyRun(Path page, Path results, List<Section> sections) {
        this(page, results, sections, sections);
    }

    /**
     * As above; a section of {@code sections} newer than the page (no block of its own there)
     * gets its block after that of the nearest section before it in {@code all}, the page's order.
     */
    SectionOnlyRun(Path page, Path results, List<Section> sections, List<Section> all) {
        this.page = page;
        this.results = results;
        this.sections = List.copyOf(sections);
        this.all = List.copyOf(all);
    }

    /**
     * The sections named by {@code ids}, with those they depend on, in the page's order.
     *
     * @throws IllegalArgumentException for a name no section has, or the peers' (whose results
     *         come from the peers' own run)
     */
    static List<Section> selected(List<Section> all, List<String> ids) {
        Set<Section> chosen = new LinkedHashSet<>();
        for (String id : ids) {
            Section section = all.stream().filter(s -> s.id().equals(id)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no section is named '" + id + "'; the names are "
                            + all.stream().map(Section::id).filter(n -> !n.equals("peers"))
                                    .collect(Collectors.joining(", "))));
            if (section instanceof PeersSection) {
                throw new IllegalArgumentException("the peers' section comes from the peers' run: run ./bench in full");
            }
            chosen.addAll(section.dependsOn());
            chosen.add(section);
        }
        return all.stream().filter(chosen::contains).toList();
    }

    /** Fails, before anything is measured, unless the page and its files have what the splice needs. */
    void check() throws IOException {
        if (!Files.isRegularFile(page)) {
            throw new IOException(page + " does not exist: run the full suite once first");
        }
        String text = Files.readString(page);
        List<String> blocks = new ArrayList<>(List.of(PageBlocks.TARGETS, PageBlocks.ONLY_RUNS));
        sections.forEach(s -> blocks.add(s.id()));
        for (String block : blocks) {
            if (PageBlocks.content(text, block).isEmpty() && !isNewSection(text, block)) {
                throw new IOException(page + " has no block '" + block + "' (written by a full run since section-only"
                        + " runs exist): run the full suite once first");
            }
        }
        for (String file : List.of("results.tsv", "targets.tsv")) {
            if (!Files.isRegularFile(results.resolve(file))) {
                throw new IOException(results.resolve(file) + " does not exist: run the full suite once first");
            }
        }
    }

    /**
     * Writes what {@code bench} measured: the raw rows, the targets, the page. {@code run} says
     * in words which run this was (the command, date and commit). Returns these sections' targets.
     */
    List<Target> write(Bench bench, Settings settings, String run) throws IOException {
        Set<String> ids = sections.stream().map(Section::id).collect(Collectors.toCollection(LinkedHashSet::new));
        ResultsFile.merge(results.resolve("results.tsv"), ids, bench.recorded());
        PeerResults peers = peers();
        String text = Files.readString(page);
        List<Target> measured = new ArrayList<>();
        Map<String, List<Target>> targets = TargetsFile.read(results.resolve("targets.tsv"));
        Set<String> known = Set.copyOf(targets.keySet());
        for (Section section : sections) {
            if (PageBlocks.content(text, section.id()).isEmpty()) {
                text = PageBlocks.insertAfter(text, previousBlock(text, section.id()).orElseThrow(), section.id());
            }
            text = PageBlocks.replace(text, section.id(), PageBlocks.noted(sectionText(section, settings, peers),
                    "*Re-measured alone: " + run + ". The rest of the page is from the run its first lines name.*"));
            List<Target> own = section.targets(peers);
            targets.put(section.id(), own);
            measured.addAll(own);
            String runs = PageBlocks.content(text, PageBlocks.ONLY_RUNS).orElseThrow();
            text = PageBlocks.replace(text, PageBlocks.ONLY_RUNS, PageBlocks.withRun(runs, section.id(),
                    section.title(), run));
        }
        targets = inPageOrder(targets, known);
        TargetsFile.write(results.resolve("targets.tsv"), targets);
        text = PageBlocks.replace(text, PageBlocks.TARGETS, targetsText(targets, settings, peers));
        Files.writeString(page, text);
        return measured;
    }

    /** Whether {@code block} is a section the page predates: some section before it in the page's order has a block. */
    private boolean isNewSection(String text, String block) {
        return sections.stream().anyMatch(s -> s.id().equals(block)) && previousBlock(text, block).isPresent();
    }

    /** The block of the nearest section before {@code id}, in the page's order, that the page has. */
    private java.util.Optional<String> previousBlock(String text, String id) {
        List<String> ids = all.stream().map(Section::id).toList();
        for (int i = ids.indexOf(id) - 1; i >= 0; i--) {
            if (PageBlocks.content(text, ids.get(i)).isPresent()) {
                return java.util.Optional.of(ids.get(i));
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * {@code targets} in their order, but for the sections not {@code known} to the targets file,
     * each after the nearest section before it in the page's order.
     */
    private Map<String, List<Target>> inPageOrder(Map<String, List<Target>> targets, Set<String> known) {
        List<String> order = new ArrayList<>(targets.keySet().stream().filter(known::contains).toList());
        List<String> ids = all.stream().map(Section::id).toList();
        for (String id : targets.keySet().stream().filter(id -> !known.contains(id)).toList()) {
            int at = 0;
            for (int i = ids.indexOf(id) - 1; i >= 0 && at == 0; i--) {
                at = order.indexOf(ids.get(i)) + 1;
            }
            order.add(at, id);
        }
        Map<String, List<Target>> ordered = new LinkedHashMap<>();
        order.forEach(id -> ordered.put(id, targets.get(id)));
        return ordered;
    }

    /** The peers' rows of the last full run, or why there are none. */
    private PeerResults peers() throws IOException {
        Path file = results.resolve("peers.tsv");
        if (!Files.isRegularFile(file)) {
            return PeerResults.notRun("a section-only run does not run the peers, and " + file + " does not exist");
        }
        return PeerResults.parse(Files.readAllLines(file));
    }

    /** What {@code section} writes, between its block's markers. */
    private String sectionText(Section section, Settings settings, PeerResults peers) {
        Page scratch = new Page(page.getParent(), results, settings, peers);
        scratch.begin(section.id());
        section.write(scratch);
        scratch.end(section.id());
        scratch.problems().forEach(p -> System.out.println("problem: " + p));
        return PageBlocks.content(scratch.text(), section.id()).orElseThrow();
    }

    private String targetsText(Map<String, List<Target>> targets, Settings settings, PeerResults peers) {
        Page scratch = new Page(page.getParent(), results, settings, peers);
        ReportText.targets(scratch, targets.values().stream().flatMap(List::stream).toList());
        return PageBlocks.content(scratch.text(), PageBlocks.TARGETS).orElseThrow();
    }

    /** The targets of every section, in the page's order, for {@code targets.tsv}. */
    static Map<String, List<Target>> bySection(List<Section> sections, PeerResults peers) {
        Map<String, List<Target>> targets = new LinkedHashMap<>();
        sections.forEach(s -> targets.put(s.id(), s.targets(peers)));
        return targets;
    }
}
