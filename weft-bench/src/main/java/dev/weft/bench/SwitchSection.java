package dev.weft.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    /** count -> method -> outcome */
    private final Map<Integer, Map<String, Outcome>> results = new LinkedHashMap<>();

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
            Map<String, Outcome> row = new LinkedHashMap<>();
            for (String method : METHODS) {
                JmhRunner.Spec spec = JmhRunner.Spec.of(SwitchBenchmark.class, method, Map.of("count", "" + count), count);
                row.put(method, bench.jmh(WORKLOAD, method, "count=" + count,
                        count >= ONE_FORK_FROM ? spec.withMaxForks(1) : spec));
            }
            results.put(count, row);
        }
    }

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph("""
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
                closing them takes a fork most of its time).""".formatted(Format.count(ONE_FORK_FROM)));
        Table t = new Table("live coroutines", "Weft symmetric yield (ns)", "sym / raw",
                "Weft asymmetric call+ret (ns)", "asym / raw", "woven symmetric (ns)", "woven sym / raw",
                "woven asymmetric (ns)", "woven asym / raw", "raw run+yield (ns)");
        Map<String, List<LinePlot.Point>> series = new LinkedHashMap<>();
        METHODS.forEach(m -> series.put(m, new ArrayList<>()));
        results.forEach((count, row) -> {
            Outcome r = row.get(RAW);
            List<String> cells = new ArrayList<>(List.of(Format.count(count)));
            for (String method : METHODS) {
                Outcome o = row.get(method);
                cells.add(Format.outcome(o));
                if (o != r) {
                    cells.add(Format.ratio(o.ratioTo(r)));
                }
                series.get(method).add(new LinePlot.Point(count, o.value()));
            }
            t.row(cells.toArray(String[]::new));
        });
        page.table(t);
        page.plot(new LinePlot("Switch time vs live coroutines (cf. thesis fig. 6.1)", "live coroutines",
                        "ns per switch (median)", true, true)
                        .series("Weft symmetric yield", series.get(SYM)).series("Weft asymmetric call+ret", series.get(ASYM))
                        .series("woven symmetric yield", series.get(WOVEN_SYM))
                        .series("woven asymmetric call+ret", series.get(WOVEN_ASYM))
                        .series("raw Continuation run+yield", series.get(RAW)),
                "fig-6.1-switch-time.png", "Switch time against live coroutines");
    }

    @Override
    List<Target> targets(PeerResults peers) {
        Map<String, Outcome> two = results.get(2);
        if (two == null) {
            return List.of(
                    Target.notMeasured("call+ret round trip within 1.2× of raw run+yield", "count 2 not measured"),
                    Target.notMeasured("symmetric yield between two coroutines within 2.2× of raw", "count 2 not measured"));
        }
        return List.of(ratioTarget("call+ret round trip within 1.2× of raw continuation run+yield (same depth, 2 coroutines)",
                        two.get(ASYM), two.get(RAW), 1.2),
                ratioTarget("symmetric yield between two coroutines within 2.2× of raw run+yield",
                        two.get(SYM), two.get(RAW), 2.2));
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
