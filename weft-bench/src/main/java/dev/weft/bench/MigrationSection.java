package dev.weft.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Workload 4: migration ({@code steal}) time against the frames on the stack (thesis figure 6.4). */
final class MigrationSection extends Section {

    private static final String WORKLOAD = "migration";

    /** frames -> variant -> outcome */
    private final Map<Integer, Map<String, Outcome>> results = new LinkedHashMap<>();

    @Override
    String title() {
        return "4. Migration: steal time against stack depth (thesis figure 6.4)";
    }

    /** Coroutines stolen per measured iteration: many, but fewer when each is deep (they all exist at once). */
    static int batch(Settings s, int frames) {
        return s.quick() ? 100 : Math.max(100, Math.min(1_000, 100_000 / frames));
    }

    @Override
    int plannedSteps(Settings s) {
        return s.migrationFrames().size() * 4;
    }

    @Override
    double estimatedSeconds(Settings s) {
        return s.migrationFrames().size() * (2 * s.singleShotRunSeconds() + 2 * s.averageTimeRunSeconds());
    }

    @Override
    void measure(Bench bench) {
        Settings s = bench.settings();
        for (int frames : s.migrationFrames()) {
            Map<String, Outcome> row = new LinkedHashMap<>();
            int batch = batch(s, frames);
            Map<String, String> stealParams = Map.of("frames", "" + frames, "batch", "" + batch);
            for (String m : List.of("stealAsymmetric", "stealSymmetric")) {
                row.put(m, bench.jmh(WORKLOAD, m, "frames=" + frames,
                        JmhRunner.Spec.of(StealBenchmark.class, m, stealParams, batch).singleShotMode()));
            }
            for (String m : List.of("weft", "rawContinuation")) {
                row.put(m, bench.jmh(WORKLOAD, "ping-pong " + m, "frames=" + frames,
                        JmhRunner.Spec.of(MigrationBenchmark.class, m, Map.of("frames", "" + frames), 2)));
            }
            results.put(frames, row);
        }
    }

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph("""
                **steal() alone**: an owner thread creates a batch of coroutines (up to 1,000), each suspended \
                `frames` frames deep, and waits; the benchmark thread then steals the whole batch, timed in \
                one piece and divided by its size (JMH single-shot mode, one batch per iteration). \
                **Migration round trip**, the thesis's own method: one coroutine, `frames` deep, ping-pongs \
                between two threads that pass a spin-waited turn; each migration is a `steal` on the new thread, \
                one `call` that resumes it there until its next `ret`, and the handoff. The raw baseline \
                ping-pongs a bare continuation the same way, without a steal (HotSpot lets any thread mount \
                it). Times in ns per steal or per migration.""");
        Table t = new Table("frames", "steal() AsymCoroutine (ns)", "steal() Coroutine (ns)",
                "migration, Weft (ns)", "migration, raw continuation (ns)", "Weft / raw");
        List<LinePlot.Point> stealA = new ArrayList<>();
        List<LinePlot.Point> stealS = new ArrayList<>();
        List<LinePlot.Point> weft = new ArrayList<>();
        List<LinePlot.Point> raw = new ArrayList<>();
        results.forEach((frames, row) -> {
            Outcome w = row.get("weft");
            Outcome r = row.get("rawContinuation");
            t.row(Format.count(frames), Format.outcome(row.get("stealAsymmetric")), Format.outcome(row.get("stealSymmetric")),
                    Format.outcome(w), Format.outcome(r), Format.ratio(w.ratioTo(r)));
            stealA.add(new LinePlot.Point(frames, row.get("stealAsymmetric").value()));
            stealS.add(new LinePlot.Point(frames, row.get("stealSymmetric").value()));
            weft.add(new LinePlot.Point(frames, w.value()));
            raw.add(new LinePlot.Point(frames, r.value()));
        });
        page.table(t);
        page.plot(new LinePlot("Migration vs frames on the stack (cf. thesis fig. 6.4)", "frames on the coroutine's stack",
                        "ns (median)", true, true)
                        .series("steal() AsymCoroutine", stealA).series("steal() Coroutine", stealS)
                        .series("migration round trip, Weft", weft).series("migration round trip, raw continuation", raw),
                "fig-6.4-steal-vs-frames.png", "Steal and migration time against frames");
    }

    @Override
    List<Target> targets(PeerResults peers) {
        String goal = "steal under 1 µs whatever the depth";
        double worst = 0;
        List<String> measured = new ArrayList<>();
        for (var e : results.entrySet()) {
            for (String m : List.of("stealAsymmetric", "stealSymmetric")) {
                Outcome o = e.getValue().get(m);
                if (!o.ok()) {
                    return List.of(Target.notMeasured(goal, m + " at " + e.getKey() + " frames failed"));
                }
                worst = Math.max(worst, o.value());
            }
            measured.add(e.getKey() + " frames: " + Format.number(Math.max(e.getValue().get("stealAsymmetric").value(),
                    e.getValue().get("stealSymmetric").value())) + " ns");
        }
        if (results.isEmpty()) {
            return List.of(Target.notMeasured(goal, "not run"));
        }
        return List.of(Target.of(goal, "worst " + Format.number(worst) + " ns (" + String.join(", ", measured) + ")",
                worst < 1000));
    }
}
