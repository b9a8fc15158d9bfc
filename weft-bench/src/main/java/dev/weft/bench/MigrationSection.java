package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Workload 4: migration ({@code steal}) time against the frames on the stack (thesis figure 6.4). */
final class MigrationSection extends Section {

    private static final String WORKLOAD = "migration";

    private static final List<String> STEALS = List.of("stealAsymmetric", "stealSymmetric", "stealWovenAsymmetric");
    private static final List<String> PING_PONGS = List.of("weft", "woven", "rawContinuation");

    /** A woven coroutine's frames are on the thread's own stack while it runs: a thousand of them need more than the default. */
    private static final String WOVEN_STACK = "-Xss64m";

    private final Results results = new Results();

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
        return s.migrationFrames().size() * (STEALS.size() + PING_PONGS.size());
    }

    @Override
    double estimatedSeconds(Settings s) {
        return s.migrationFrames().size()
                * (STEALS.size() * s.singleShotRunSeconds() + PING_PONGS.size() * s.averageTimeRunSeconds());
    }

    @Override
    void measure(Bench bench) {
        Settings s = bench.settings();
        for (int frames : s.migrationFrames()) {
            int batch = batch(s, frames);
            Map<String, String> stealParams = Map.of("frames", "" + frames, "batch", "" + batch);
            for (String m : STEALS) {
                results.add(frames, m, bench.jmh(WORKLOAD, m, "frames=" + frames,
                        onItsStack(m, JmhRunner.Spec.of(StealBenchmark.class, m, stealParams, batch).singleShotMode())));
            }
            for (String m : PING_PONGS) {
                results.add(frames, m, bench.jmh(WORKLOAD, "ping-pong " + m, "frames=" + frames,
                        onItsStack(m, JmhRunner.Spec.of(MigrationBenchmark.class, m, Map.of("frames", "" + frames), 2))));
            }
        }
    }

    private static JmhRunner.Spec onItsStack(String method, JmhRunner.Spec spec) {
        return method.toLowerCase(java.util.Locale.ROOT).contains("woven") ? spec.withJvmArgs(WOVEN_STACK) : spec;
    }

    private static final String DESCRIPTION = """
            **steal() alone**: an owner thread creates a batch of coroutines (up to 1,000), each suspended \
            `frames` frames deep, and waits; the benchmark thread then steals the whole batch, timed in \
            one piece and divided by its size (JMH single-shot mode, one batch per iteration). \
            **Migration round trip**, the thesis's own method: one coroutine, `frames` deep, ping-pongs \
            between two threads that pass a spin-waited turn; each migration is a `steal` on the new thread, \
            one `call` that resumes it there until its next `ret`, and the handoff. The raw baseline \
            ping-pongs a bare continuation the same way, without a steal (HotSpot lets any thread mount \
            it). The woven engine's rows steal and migrate a woven coroutine (`dev.weft.bench.woven.DeepSuspension`, \
            2 frames at the least), whose frames are saved values: a steal moves no stack, and each resume \
            rebuilds only its innermost frame. Times in ns per steal or per migration.""";

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph(DESCRIPTION);
        page.table(table());
        page.plot(figure(), "fig-6.4-steal-vs-frames.png", "Steal and migration time against frames");
    }

    private Table table() {
        Table t = new Table("frames", "steal() AsymCoroutine (ns)", "steal() Coroutine (ns)",
                "steal() AsymCoroutine, woven (ns)", "migration, Weft (ns)", "migration, Weft woven (ns)",
                "migration, raw continuation (ns)", "Weft / raw", "Weft woven / raw");
        for (int frames : results.parameters()) {
            t.row(Format.count(frames), Format.outcome(results.get(frames, "stealAsymmetric")),
                    Format.outcome(results.get(frames, "stealSymmetric")),
                    Format.outcome(results.get(frames, "stealWovenAsymmetric")), Format.outcome(results.get(frames, "weft")),
                    Format.outcome(results.get(frames, "woven")), Format.outcome(results.get(frames, "rawContinuation")),
                    Format.ratio(results.ratio(frames, "weft", "rawContinuation")),
                    Format.ratio(results.ratio(frames, "woven", "rawContinuation")));
        }
        return t;
    }

    private LinePlot figure() {
        return new LinePlot("Migration vs frames on the stack (cf. thesis fig. 6.4)", "frames on the coroutine's stack",
                "ns (median)", true, true)
                .series("steal() AsymCoroutine", results.points("stealAsymmetric"))
                .series("steal() Coroutine", results.points("stealSymmetric"))
                .series("steal() AsymCoroutine, woven", results.points("stealWovenAsymmetric"))
                .series("migration round trip, Weft", results.points("weft"))
                .series("migration round trip, Weft woven", results.points("woven"))
                .series("migration round trip, raw continuation", results.points("rawContinuation"));
    }

    @Override
    List<Target> targets(PeerResults peers) {
        String goal = "steal under 1 µs whatever the depth";
        if (results.isEmpty()) {
            return List.of(Target.notMeasured(goal, "not run"));
        }
        double worst = 0;
        List<String> measured = new ArrayList<>();
        for (int frames : results.parameters()) {
            double deepest = 0;
            for (String m : STEALS) {
                Outcome o = results.get(frames, m);
                if (!o.ok()) {
                    return List.of(Target.notMeasured(goal, m + " at " + frames + " frames failed"));
                }
                deepest = Math.max(deepest, o.value());
            }
            worst = Math.max(worst, deepest);
            measured.add(frames + " frames: " + Format.number(deepest) + " ns");
        }
        return List.of(Target.of(goal, "worst " + Format.number(worst) + " ns (" + String.join(", ", measured) + ")",
                worst < 1000));
    }
}
