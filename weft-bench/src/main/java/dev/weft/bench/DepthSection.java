package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Workload 1b: the cost of a switch against the depth of the stack (issue 12, point 1), on the
 * woven engine, the native engine and a bare continuation, parked and round trip
 * ({@link DepthSwitchBenchmark}).
 */
final class DepthSection extends Section {

    private static final String WORKLOAD = "depth";
    private static final List<String> PARKED = List.of("wovenParked", "nativeParked", "rawParked");
    private static final List<String> ROUND_TRIP = List.of("wovenRoundTrip", "nativeRoundTrip", "rawRoundTrip");
    /** The round trip's calls alone, with no coroutine: what every engine pays besides its switch. */
    private static final String CALLS_ALONE = "plainRoundTrip";

    /** Woven frames run on the thread's own stack, a thousand of them too. */
    private static final String WOVEN_STACK = "-Xss64m";

    private final Results results = new Results();

    @Override
    String title() {
        return "1b. Switch time against the depth of the stack";
    }

    private static List<Integer> depths(Settings s) {
        return s.quick() ? List.of(0, 10) : List.of(0, 1, 10, 50, 200, 1_000);
    }

    @Override
    int plannedSteps(Settings s) {
        return depths(s).size() * allMethods().size();
    }

    @Override
    void measure(Bench bench) {
        for (int depth : depths(bench.settings())) {
            for (String m : allMethods()) {
                JmhRunner.Spec spec = JmhRunner.Spec.of(DepthSwitchBenchmark.class, m, Map.of("depth", "" + depth), 1);
                results.add(depth, m, bench.jmh(WORKLOAD, m, "depth=" + depth,
                        m.startsWith("woven") ? spec.withJvmArgs(WOVEN_STACK) : spec));
            }
        }
    }

    /** Records {@code method}'s outcome at {@code depth}, as {@link #measure} does. */
    void add(int depth, String method, Outcome outcome) {
        results.add(depth, method, outcome);
    }

    private static List<String> allMethods() {
        List<String> all = new ArrayList<>(PARKED);
        all.addAll(ROUND_TRIP);
        all.add(CALLS_ALONE);
        return all;
    }

    private static final String DESCRIPTION = """
            One `AsymCoroutine` (or bare continuation) `depth` frames below its body, called again and \
            again; time per call+ret round trip in ns. **Parked**: the body called down `depth` frames \
            once and the innermost frame loops on `ret`, so the frames below stay put between switches: a \
            switch whose cost does not grow with the depth costs the same at every depth here. **Round \
            trip**: for each call the body calls down `depth` frames, `ret`s there and returns back up \
            to the body, so every frame runs on every round trip. The woven engine resumes only the \
            innermost saved frame and rebuilds an outer one when the frame above it returns, unless \
            that frame is suspended in a tail call, as each `down` frame here is (`return down(...)`): \
            it is dropped, and the result goes on to the frame under it. The woven coroutines are \
            `dev.weft.bench.woven.DepthMembers`, the native ones run the same code unwoven. **Calls \
            alone** is the round trip's calls down and back up with no coroutine and no suspension: \
            what every engine pays besides its switch.""";

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph(DESCRIPTION);
        page.paragraph("**Parked**");
        page.table(table(PARKED, false));
        page.paragraph("**Round trip**");
        page.table(table(ROUND_TRIP, true));
        page.plot(figure(), "depth-switch-time.png", "Switch time against the depth of the stack");
    }

    /** A row per depth of {@code methods} (woven, native, raw), and of the calls alone if {@code withCalls}. */
    private Table table(List<String> methods, boolean withCalls) {
        List<String> header = new ArrayList<>(List.of("depth", "woven (ns)", "native (ns)", "raw continuation (ns)"));
        if (withCalls) {
            header.add("calls alone (ns)");
        }
        header.addAll(List.of("woven / raw", "native / raw"));
        Table t = new Table(header.toArray(String[]::new));
        for (int depth : results.parameters()) {
            List<String> row = new ArrayList<>(List.of(Format.count(depth)));
            for (String m : methods) {
                row.add(Format.outcome(results.get(depth, m)));
            }
            if (withCalls) {
                row.add(Format.outcome(results.get(depth, CALLS_ALONE)));
            }
            row.add(Format.ratio(results.ratio(depth, methods.get(0), methods.get(2))));
            row.add(Format.ratio(results.ratio(depth, methods.get(1), methods.get(2))));
            t.row(row);
        }
        return t;
    }

    private LinePlot figure() {
        LinePlot plot = new LinePlot("Call+ret round trip against stack depth", "frames below the body (depth + 1)",
                "ns (median)", true, true);
        for (String m : allMethods()) {
            List<LinePlot.Point> shifted = results.points(m).stream()
                    .map(p -> new LinePlot.Point(p.x() + 1, p.y())).toList(); // a log axis has no 0
            plot.series(m, shifted);
        }
        return plot;
    }

    @Override
    List<Target> targets(PeerResults peers) {
        return List.of(parkedFlat(), belowRaw("wovenRoundTrip", "rawRoundTrip",
                "woven round trip down and back up below the raw continuation at every depth"));
    }

    /** Parked: within 1.5× of depth 0 and below the raw continuation, at every depth. */
    private Target parkedFlat() {
        String goal = "woven switch parked `depth` frames down within 1.5× of depth 0 and below the raw continuation,"
                + " at every depth";
        Outcome base = results.isEmpty() ? null : results.get(0, "wovenParked");
        if (base == null || !base.ok()) {
            return Target.notMeasured(goal, "depth 0 not measured");
        }
        boolean met = true;
        List<String> measured = new ArrayList<>();
        for (int depth : results.parameters()) {
            Outcome woven = results.get(depth, "wovenParked");
            Outcome raw = results.get(depth, "rawParked");
            if (!woven.ok() || !raw.ok()) {
                return Target.notMeasured(goal, "depth " + depth + " failed");
            }
            met &= woven.value() <= 1.5 * base.value() && woven.value() < raw.value();
            measured.add(depth + ": " + Format.number(woven.value()) + " ns (raw " + Format.number(raw.value()) + ")");
        }
        return Target.of(goal, String.join(", ", measured), met);
    }

    private Target belowRaw(String method, String raw, String goal) {
        if (results.isEmpty()) {
            return Target.notMeasured(goal, "not run");
        }
        boolean met = true;
        List<String> measured = new ArrayList<>();
        for (int depth : results.parameters()) {
            Outcome o = results.get(depth, method);
            Outcome r = results.get(depth, raw);
            if (!o.ok() || !r.ok()) {
                return Target.notMeasured(goal, "depth " + depth + " failed");
            }
            met &= o.value() < r.value();
            measured.add(depth + ": " + Format.number(o.value()) + " ns (raw " + Format.number(r.value()) + ")");
        }
        return Target.of(goal, String.join(", ", measured), met).explainedIfMissed(perFrame(method, raw));
    }

    /**
     * What a frame costs each side between depth 0 and the deepest depth at which {@code method}
     * is behind {@code raw}, and what the profile of the woven round trip shows.
     */
    private String perFrame(String method, String raw) {
        List<Integer> depths = results.parameters().stream().sorted().toList();
        int from = depths.getFirst();
        int to = from;
        for (int depth : depths) {
            if (results.get(depth, method).value() >= results.get(depth, raw).value()) {
                to = depth;
            }
        }
        if (to == from) {
            return "";
        }
        String calls = results.isMeasured(from, CALLS_ALONE) && results.isMeasured(to, CALLS_ALONE)
                ? ", and the calls alone " + Format.number(slope(CALLS_ALONE, from, to)) : "";
        return "each round trip runs every frame between the body and the bottom: the woven engine saves each one as "
                + "the suspension unwinds through it, and on the way back up drops it unrebuilt (each of these frames "
                + "is suspended in a tail call, `return down(...)`), " + Format.number(slope(method, from, to))
                + " ns per frame from depth " + from + " to " + Format.count(to)
                + ", where the raw continuation, which copies the frames it freezes and thaws in bulk, pays "
                + Format.number(slope(raw, from, to)) + " ns per frame" + calls + ". " + ROUND_TRIP_PROFILE;
    }

    private double slope(String method, int from, int to) {
        return (results.get(to, method).value() - results.get(from, method).value()) / (to - from);
    }

    private static final String ROUND_TRIP_PROFILE = "perfasm at depth 50, disassembled (JMH, session 18): 68% of the "
            + "time in the member's twin, which C2 compiles with one level of its recursion inlined, and 18% in the "
            + "engine's loop over the saved frames, which drops the frames suspended in tail calls a run at a time. "
            + "Saving a frame as the suspension unwinds through it is some 60 instructions, spread evenly, none above "
            + "5% of the time: the mode test; the receiver stored into the fiber's references (the bounds and "
            + "array-type checks, G1's two write barriers); the record (its kind tested against the last frame's) "
            + "and the frame's end stored into its primitives, with their bounds checks; and the fiber's counters "
            + "read and written back through memory each time. A frozen frame is a bulk copy of its words. Saving "
            + "less is not enough either: a prototype that saved a run of like tail frames as one (session 17: the "
            + "frame's receiver pushed, compared with the last one's and dropped, nothing else stored) still took 216 "
            + "ns at depth 50 and 748 at 200, against the raw continuation's 189 and 379 in the same JMH session. "
            + "A stack that unwinds frame by frame thus comes under the bulk copy at a few frames, and at a thousand, "
            + "where the raw continuation's own round trip jumps (the table above), but not between: a limit of "
            + "unwinding, which the parked shape shows the woven engine pays only for the frames that run.";
}
