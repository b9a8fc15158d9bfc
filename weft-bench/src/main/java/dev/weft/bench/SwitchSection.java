package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Workload 1: switch time against the number of live coroutines (thesis figure 6.1). */
final class SwitchSection extends Section {

    private static final String WORKLOAD = "switch";
    private static final String SYM = "weftSymmetric";
    private static final String ASYM = "weftAsymmetric";
    private static final String RAW = "rawContinuation";
    private static final String WOVEN_SYM = "wovenSymmetric";
    private static final String WOVEN_ASYM = "wovenAsymmetric";
    private static final List<String> METHODS = List.of(SYM, ASYM, WOVEN_SYM, WOVEN_ASYM, RAW);

    private final Results results = new Results();

    @Override
    String title() {
        return "1. Switch time against live coroutines (thesis figure 6.1)";
    }

    @Override
    int plannedSteps(Settings s) {
        return s.switchCounts().size() * METHODS.size();
    }

    /** From this count on, a fork spends seconds creating and closing its coroutines: one fork is enough. */
    private static final int ONE_FORK_FROM = 100_000;

    @Override
    double estimatedSeconds(Settings s) {
        double seconds = 0;
        for (int count : s.switchCounts()) {
            int forks = count >= ONE_FORK_FROM ? 1 : s.forks();
            seconds += METHODS.size() * (s.averageTimeRunSeconds() / s.forks() + 3e-5 * count) * forks;
        }
        return seconds;
    }

    @Override
    void measure(Bench bench) {
        for (int count : bench.settings().switchCounts()) {
            for (String method : METHODS) {
                JmhRunner.Spec spec = JmhRunner.Spec.of(SwitchBenchmark.class, method, Map.of("count", "" + count), count);
                results.add(count, method, bench.jmh(WORKLOAD, method, "count=" + count,
                        count >= ONE_FORK_FROM ? spec.withMaxForks(1) : spec));
            }
        }
    }

    private static final String DESCRIPTION = """
            `count` coroutines are created and suspended; one JMH invocation resumes each of them once \
            and lets it suspend again. A *switch* is one coroutine resumed and suspended: one HotSpot \
            thaw and one freeze. **Weft symmetric**: a ring of `Coroutine`s looping on `Coroutine.yield()` \
            (the benchmark thread's own `yield()` sends control round the ring). **Weft asymmetric**: \
            `AsymCoroutine`s looping on `ret`, called in turn (one call + ret round trip per switch). \
            **Raw**: bare `jdk.internal.vm.Continuation`s looping on `Continuation.yield`, run in turn: \
            the floor, with the user code at the same depth. **Woven**: the same two Weft loops on the \
            woven engine (`Engine.WOVEN`), where a switch saves and rebuilds the loop's frame instead of \
            freezing and thawing it. Time per switch in ns; ratios are Weft / raw \
            at the same count. From %s coroutines on, each benchmark runs in one fork only (creating and \
            closing them takes a fork most of its time).""";

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph(DESCRIPTION.formatted(Format.count(ONE_FORK_FROM)));
        page.table(table());
        page.plot(figure(), "fig-6.1-switch-time.png", "Switch time against live coroutines");
    }

    /** Each count: every method's time, and each Weft method's ratio to raw. */
    private Table table() {
        Table t = new Table("live coroutines", "Weft symmetric yield (ns)", "sym / raw",
                "Weft asymmetric call+ret (ns)", "asym / raw", "woven symmetric (ns)", "woven sym / raw",
                "woven asymmetric (ns)", "woven asym / raw", "raw run+yield (ns)");
        for (int count : results.parameters()) {
            List<String> cells = new ArrayList<>(List.of(Format.count(count)));
            for (String method : METHODS) {
                cells.add(Format.outcome(results.get(count, method)));
                if (!method.equals(RAW)) {
                    cells.add(Format.ratio(results.ratio(count, method, RAW)));
                }
            }
            t.row(cells);
        }
        return t;
    }

    private LinePlot figure() {
        return new LinePlot("Switch time vs live coroutines (cf. thesis fig. 6.1)", "live coroutines",
                "ns per switch (median)", true, true)
                .series("Weft symmetric yield", results.points(SYM))
                .series("Weft asymmetric call+ret", results.points(ASYM))
                .series("woven symmetric yield", results.points(WOVEN_SYM))
                .series("woven asymmetric call+ret", results.points(WOVEN_ASYM))
                .series("raw Continuation run+yield", results.points(RAW));
    }

    @Override
    List<Target> targets(PeerResults peers) {
        if (!results.has(2)) {
            return List.of(
                    Target.notMeasured("call+ret round trip within 1.2× of raw run+yield", "count 2 not measured"),
                    Target.notMeasured("symmetric yield between two coroutines within 2.2× of raw", "count 2 not measured"));
        }
        return List.of(ratioTarget("call+ret round trip within 1.2× of raw continuation run+yield (same depth, 2 coroutines)",
                        results.get(2, ASYM), results.get(2, RAW), 1.2),
                ratioTarget("symmetric yield between two coroutines within 2.2× of raw run+yield",
                        results.get(2, SYM), results.get(2, RAW), 2.2));
    }

    private static final String SWITCH_PROFILE = "Over raw run+yield, a Weft switch adds finding the running "
            + "coroutine (a few loads: the carrier thread's innermost continuation), the state word's transitions "
            + "that make steal() safe (a compare-and-set on each resume), and passing the value. HotSpot's JIT "
            + "inlines Weft's whole suspension path into the coroutine's own frame, so the frames frozen and "
            + "thawed are the same as raw.";

    static Target ratioTarget(String goal, Outcome weft, Outcome raw, double limit) {
        double r = weft.ratioTo(raw);
        if (Double.isNaN(r)) {
            return Target.notMeasured(goal, "failed: " + (weft.ok() ? raw.failure() : weft.failure()));
        }
        return Target.of(goal, Format.number(weft.value()) + " ns vs raw " + Format.number(raw.value()) + " ns = "
                + Format.ratio(r), r <= limit).explainedIfMissed(Format.ratio(r / limit) + " the allowed ratio. "
                + SWITCH_PROFILE);
    }
}
