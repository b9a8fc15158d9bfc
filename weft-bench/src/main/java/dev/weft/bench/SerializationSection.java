package dev.weft.bench;

/**
 * Workload 5: serialization and deserialization time against frames (thesis figure 6.5). Not
 * measured yet: {@code serialize()} needs the coroutine's code woven, and this module does not
 * weave its benchmarks; the report says so rather than show a number.
 */
final class SerializationSection extends Section {

    @Override
    String title() {
        return "5. Serialization and deserialization (thesis figure 6.5)";
    }

    @Override
    int plannedSteps(Settings settings) {
        return 0;
    }

    @Override
    double estimatedSeconds(Settings settings) {
        return 0;
    }

    @Override
    void measure(Bench bench) {
        // nothing to run until the serialization benchmark exists
    }

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph("""
                `serialize()` and `deserialize()` capture and rebuild frames in woven code (see DESIGN.md); \
                the benchmark for figure 6.5, which needs this module's coroutine code woven, is not written \
                yet. No numbers until it is.""");
        page.table(new Table("operation", "1 frame", "10 frames", "100 frames", "1,000 frames").textColumns()
                .row("serialize()", "not yet implemented (issue: serialization)")
                .row("deserialize()", "not yet implemented (issue: serialization)"));
    }
}
