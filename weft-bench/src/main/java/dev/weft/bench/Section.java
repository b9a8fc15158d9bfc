package dev.weft.bench;

import java.util.List;

/**
 * One workload of the report: what it measures, how long that takes, and how it is written.
 * {@link #measure} runs first for every section; {@link #write} afterwards, with the peers'
 * results in hand.
 *
 * <p>A new section is a subclass listed in {@code Report.sections}, in the page's order. Within
 * a section, a row is a variant in its list (a benchmark method and its name), its outcomes kept
 * in {@link Results}; {@code write} is a short sequence of named steps (description, tables,
 * plot), and {@link PeerRows} adds the peers' rows to a table.
 */
abstract class Section {

    /** The section's heading. */
    abstract String title();

    /**
     * The section's name for {@code ./bench --only=NAME} and the page's markers: its class's name
     * without {@code Section}, in lower case, words joined by dashes ({@code FiberChainSection}:
     * {@code fiber-chain}).
     */
    String id() {
        String name = getClass().getSimpleName().replaceFirst("Section$", "");
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** The sections whose measurements this one's text uses: a section-only run measures them too. */
    List<Section> dependsOn() {
        return List.of();
    }

    /** How many console progress steps (JMH runs and probe JVMs) {@link #measure} makes. */
    abstract int plannedSteps(Settings settings);

    /**
     * A rough estimate of how long {@link #measure} takes. By default, one average-time JMH run
     * per planned step; sections that run otherwise (single-shot, probes, large counts) say so.
     */
    double estimatedSeconds(Settings settings) {
        return plannedSteps(settings) * settings.averageTimeRunSeconds();
    }

    abstract void measure(Bench bench);

    abstract void write(Page page);

    /** The targets this section measures, against the peers' results where a target names them. */
    List<Target> targets(PeerResults peers) {
        return List.of();
    }
}
