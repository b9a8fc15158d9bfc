package dev.weft.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Workload 2: creation time and first-call time (thesis section 6.2). */
final class CreationSection extends Section {

    private static final String WORKLOAD = "creation";

    /** A row of the table: one kind of coroutine or thread, and its three benchmark methods (or null). */
    private record Kind(String name, String create, String firstSuspension, String toCompletion) {
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("Weft `Coroutine` (create includes close)", "weftSymmetricCreate", null, "weftSymmetricRun"),
            new Kind("Weft `AsymCoroutine`", "weftAsymmetricCreate", "weftAsymmetricFirstRet", "weftAsymmetricRun"),
            new Kind("Weft `Coroutine`, woven engine (create includes close)", "wovenSymmetricCreate", null,
                    "wovenSymmetricRun"),
            new Kind("Weft `AsymCoroutine`, woven engine", "wovenAsymmetricCreate", "wovenAsymmetricFirstRet",
                    "wovenAsymmetricRun"),
            new Kind("raw `Continuation` (baseline)", "rawCreate", "rawFirstYield", "rawRun"),
            new Kind("virtual thread (unstarted; start + join)", "virtualThreadCreate", null, "virtualThreadStartJoin"),
            new Kind("platform thread (unstarted; start + join)", "platformThreadCreate", null, "platformThreadStartJoin"));

    private final Map<String, Outcome> results = new HashMap<>();

    @Override
    String title() {
        return "2. Creation and first call (thesis section 6.2)";
    }

    private static List<String> methods() {
        List<String> methods = new ArrayList<>();
        for (Kind k : KINDS) {
            for (String m : new String[] {k.create(), k.firstSuspension(), k.toCompletion()}) {
                if (m != null) {
                    methods.add(m);
                }
            }
        }
        return methods;
    }

    @Override
    int plannedSteps(Settings s) {
        return methods().size();
    }

    @Override
    void measure(Bench bench) {
        for (String m : methods()) {
            results.put(m, bench.jmh(WORKLOAD, m, "", JmhRunner.Spec.of(CreationBenchmark.class, m, Map.of(), 1)));
        }
    }

    private Outcome get(String method) {
        return method == null ? null : results.get(method);
    }

    /** The value with its ratio to the raw continuation's, {@code 152 (1.9× raw)}. */
    private String withRatio(Outcome o, Outcome raw, boolean isRaw) {
        if (o == null) {
            return Format.NONE;
        }
        if (!o.ok() || isRaw || raw == null) {
            return Format.outcome(o);
        }
        return Format.outcome(o) + " (" + Format.ratio(o.ratioTo(raw)) + " raw)";
    }

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph("""
                Time per operation in ns, one operation per JMH invocation. **create**: the constructor alone \
                (a new `Coroutine` joins its thread's ring at once, so its row also closes it, which unlinks \
                a never-run coroutine; threads are created unstarted). **create + first call to its first \
                suspension**: the body suspends at once (`ret`, `Continuation.yield`), which allocates the \
                first stack chunk; the suspended object is then dropped. **first call** is that minus \
                *create*. **create + run to completion**: a body that returns at once (threads: start + \
                join). The woven engine's rows run the same bodies as named woven classes \
                (`dev.weft.bench.woven`); a woven coroutine has no stack chunk: its first suspension saves \
                its frame's live values. Ratios in parentheses are against the raw continuation in the same \
                row kind.""");
        Kind rawKind = KINDS.get(2);
        Outcome rawCreate = get(rawKind.create());
        Outcome rawFirst = get(rawKind.firstSuspension());
        Outcome rawRun = get(rawKind.toCompletion());
        Outcome rawFirstCall = difference(rawFirst, rawCreate);
        Table t = new Table("kind", "create (ns)", "create + first call to first suspension (ns)", "first call (ns)",
                "create + run to completion (ns)");
        for (Kind k : KINDS) {
            boolean isRaw = k == rawKind;
            Outcome create = get(k.create());
            Outcome first = get(k.firstSuspension());
            t.row(k.name(), withRatio(create, rawCreate, isRaw), withRatio(first, rawFirst, isRaw),
                    withRatio(difference(first, create), rawFirstCall, isRaw),
                    withRatio(get(k.toCompletion()), rawRun, isRaw));
        }
        page.table(t);
    }

    private static Outcome difference(Outcome total, Outcome part) {
        if (total == null || part == null) {
            return null;
        }
        if (!total.ok()) {
            return total;
        }
        if (!part.ok()) {
            return part;
        }
        return Outcome.measured(total.value() - part.value(), total.unit(), Math.min(total.samples(), part.samples()));
    }

    @Override
    List<Target> targets(PeerResults peers) {
        Outcome sym = get("weftSymmetricCreate");
        Outcome asym = get("weftAsymmetricCreate");
        String goal = "creating a coroutine under 0.3 µs";
        if (sym == null || asym == null || !sym.ok() || !asym.ok()) {
            return List.of(Target.notMeasured(goal, "creation benchmarks failed"));
        }
        return List.of(Target.of(goal, "AsymCoroutine " + Format.number(asym.value()) + " ns; Coroutine (with close) "
                + Format.number(sym.value()) + " ns", Math.max(sym.value(), asym.value()) < 300));
    }
}
