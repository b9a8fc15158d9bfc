package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.Map;

/**
 * Workload 6: the fiber chain of thesis section 6.3, Weft against threads, raw continuations and
 * peers, with JRuby on Weft's fibers beside JRuby's own and MRI (issue 14).
 */
final class FiberChainSection extends Section {

    static final String WORKLOAD = "fiber-chain";
    static final String PEER_METRIC = "ns-per-hop";

    /** A variant: its benchmark method, its name in the table, and whether it is a peer the target counts. */
    private record Variant(String method, String name, boolean peer) {
    }

    private static final List<Variant> VARIANTS = List.of(
            new Variant("weftSymmetric", "Weft `Coroutine`, yieldTo", false),
            new Variant("weftAsymmetric", "Weft `AsymCoroutine`, nested call", false),
            new Variant("wovenSymmetric", "Weft `Coroutine` on the woven engine, yieldTo", false),
            new Variant("wovenAsymmetric", "Weft `AsymCoroutine` on the woven engine, nested call", false),
            new Variant("rawTrampoline", "raw Continuation, driver loop (floor of symmetric)", false),
            new Variant("rawNested", "raw Continuation, nested run (floor of asymmetric)", false),
            new Variant("platformThreadsQueue", "platform threads, SynchronousQueue", true),
            new Variant("platformThreadsExchanger", "platform threads, Exchanger", true),
            new Variant("virtualThreadsQueue", "virtual threads, SynchronousQueue", true),
            new Variant("virtualThreadsExchanger", "virtual threads, Exchanger", true));

    /** The Weft variants, native and woven; the ratios and the target count the fastest. */
    private static final List<String> WEFT = List.of("weftSymmetric", "weftAsymmetric", "wovenSymmetric", "wovenAsymmetric");
    /** A Weft variant that has a raw floor, and that floor. */
    private record Floor(String weft, String raw) {
    }

    private static final List<Floor> FLOORS = List.of(
            new Floor("weftSymmetric", "rawTrampoline"), new Floor("weftAsymmetric", "rawNested"));
    /** The lengths of the target, thesis figures 6.2 and 6.3. */
    static final List<Integer> GOAL_LENGTHS = List.of(5, 5_000);

    private static final String DESCRIPTION = """
            A message goes through a chain of `length` members; each receives a value (a boxed `Integer`), \
            increments it and passes it to the next, and the last passes it back to the driver. A hop is \
            one handoff of the message, `length + 1` per message (driver to first, between members, last \
            to driver), as the peers count it; times are ns per hop (%s messages per JMH invocation at \
            length 5, one at 5,000). Weft symmetric: `Coroutine`s passing control with `yieldTo`, the value \
            in a field. Weft asymmetric: each `AsymCoroutine` `call`s the next and `ret`urns the answer, so \
            the chain nests on the driver's stack (`-Xss64m`). The same two on the woven engine \
            (`Engine.WOVEN`): members are woven classes whose frames save themselves and return on each \
            switch, and rebuild themselves on resume, instead of HotSpot freezing and thawing them. \
            Threads: one per member plus a driver of the \
            same kind, a `SynchronousQueue` or an `Exchanger` per link. Raw continuations are the floors of \
            the two Weft variants, not peers. Each JMH iteration gets a chain built for it (the Ruby \
            program builds one per round, after a warm-up chain, and reports the median of 5 rounds): a \
            stackful member's loop frame entered before its code was compiled runs interpreted until a \
            sampled back-edge check moves it, which for 5,000 members takes thousands of messages. \
            Non-JVM and other JVM peers come from \
            `weft-bench/peers/run-peers.sh`, and so does JRuby with Weft fibers: the Ruby program of the \
            JRuby and MRI rows on JRuby with `-r weft/fiber` (`weft-jruby`), Weft rather than a peer. The \
            ratio is the row's time over the fastest Weft variant's: above 1, Weft is faster.""";

    private final Results results = new Results();

    @Override
    String title() {
        return "6. Fiber chain (thesis section 6.3, figures 6.2 and 6.3)";
    }

    @Override
    int plannedSteps(Settings s) {
        return s.chainLengths().size() * VARIANTS.size();
    }

    @Override
    void measure(Bench bench) {
        for (int length : bench.settings().chainLengths()) {
            for (Variant v : VARIANTS) {
                add(length, v.method(), bench.jmh(WORKLOAD, v.method(), "length=" + length, spec(v, length)));
            }
        }
    }

    private static JmhRunner.Spec spec(Variant v, int length) {
        JmhRunner.Spec spec = JmhRunner.Spec.of(FiberChainBenchmark.class, v.method(), Map.of("length", "" + length),
                FiberChainBenchmark.hopsPerInvocation(length));
        boolean nested = v.method().endsWith("Asymmetric") || v.method().equals("rawNested");
        return nested ? spec.withJvmArgs(FiberChainBenchmark.STACK) : spec; // every member's frames nest on one thread
    }

    /** Records the outcome of one variant (a benchmark method) at one chain length. */
    void add(int length, String method, Outcome outcome) {
        results.add(length, method, outcome);
    }

    @Override
    void write(Page page) {
        page.heading(2, title());
        page.paragraph(DESCRIPTION.formatted(Format.count(FiberChainBenchmark.messagesPerInvocation(5))));
        page.table(table(page.peers()));
        page.plot(figure(page.peers()), "fig-6.2-6.3-fiber-chain.png", "Time per hop against chain length, every variant and peer");
    }

    /** Every variant, each Weft variant over its raw floor, then the peers (JRuby with Weft fibers among them). */
    private Table table(PeerResults peers) {
        List<Integer> lengths = results.parameters();
        List<String> header = new ArrayList<>(List.of("variant"));
        for (int length : lengths) {
            header.add("length " + Format.count(length) + " (ns/hop)");
            header.add("÷ Weft");
        }
        Table t = new Table(header.toArray(String[]::new));
        VARIANTS.forEach(v -> t.row(variantRow(v, lengths)));
        FLOORS.forEach(f -> t.row(floorRow(f, lengths)));
        PeerRows.add(t, peers, WORKLOAD, PEER_METRIC, lengths, this::bestWeft);
        return t;
    }

    private List<String> variantRow(Variant v, List<Integer> lengths) {
        List<String> row = new ArrayList<>(List.of(v.name()));
        for (int length : lengths) {
            Outcome o = results.get(length, v.method());
            row.add(Format.outcome(o));
            row.add(Format.ratio(o.ratioTo(bestWeft(length))));
        }
        return row;
    }

    private List<String> floorRow(Floor floor, List<Integer> lengths) {
        List<String> row = new ArrayList<>(List.of("*" + name(floor.weft()) + " ÷ its raw floor*"));
        for (int length : lengths) {
            row.add(Format.ratio(results.ratio(length, floor.weft(), floor.raw())));
            row.add("");
        }
        return row;
    }

    /**
     * Thesis figures 6.2 and 6.3 in one: time per hop at each chain length, for Weft, its raw
     * floors, threads handing off through a queue, and the peers (dashed). The exchanger
     * variants are left to the table, for a readable legend.
     */
    private LinePlot figure(PeerResults peers) {
        LinePlot plot = new LinePlot("Fiber chain: time per hop (cf. thesis figs. 6.2 and 6.3)", "members in the chain",
                "ns per hop (median)", true, true);
        VARIANTS.stream().filter(v -> !v.method().endsWith("Exchanger"))
                .forEach(v -> plot.series(v.name().replace("`", ""), results.points(v.method())));
        for (String peer : peers.peersOf(WORKLOAD)) {
            plot.series(PeerRows.seriesName(peer), PeerRows.points(peers, peer, WORKLOAD, PEER_METRIC, results.parameters()), true);
        }
        return plot;
    }

    private static String name(String method) {
        return VARIANTS.stream().filter(v -> v.method().equals(method)).findFirst().orElseThrow().name();
    }

    private Outcome bestWeft(int length) {
        Outcome best = null;
        for (String method : WEFT) {
            Outcome o = results.get(length, method);
            if (o != null && o.ok() && (best == null || o.value() < best.value())) {
                best = o;
            }
        }
        return best != null ? best : results.get(length, WEFT.get(0));
    }

    private String bestWeftName(int length) {
        Outcome best = bestWeft(length);
        return WEFT.stream().filter(m -> results.get(length, m) == best).findFirst().map(FiberChainSection::name)
                .orElse("Weft").replace("`", "");
    }

    /** Weft against every peer (not against JRuby with Weft fibers, which is Weft), then issue 14's JRuby goal. */
    @Override
    List<Target> targets(PeerResults peers) {
        List<Target> targets = new ArrayList<>(List.of(fasterThanEveryPeer(peers)));
        targets.addAll(JRubyFiberGoal.targets(peers, rawFloor()));
        targets.add(wovenAsymmetricNearSymmetric());
        return targets;
    }

    /** How much slower per hop the woven asymmetric chain may be than the woven symmetric one (issue 12, point 5). */
    static final double ASYMMETRIC_MARGIN = 1.2;

    /**
     * Issue 12's point 5: the woven asymmetric chain within {@link #ASYMMETRIC_MARGIN} of the
     * woven symmetric one per hop; when missed, what a hop of each is made of, from the run.
     */
    private Target wovenAsymmetricNearSymmetric() {
        String goal = "fiber chain on the woven engine: `AsymCoroutine` call and ret within " + Format.ratio(ASYMMETRIC_MARGIN)
                + " of `Coroutine` yieldTo per hop, at 5 and 5,000";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (int length : GOAL_LENGTHS) {
            Outcome asymmetric = results.has(length) ? results.get(length, "wovenAsymmetric") : null;
            Outcome symmetric = results.has(length) ? results.get(length, "wovenSymmetric") : null;
            if (asymmetric == null || symmetric == null || !asymmetric.ok() || !symmetric.ok()) {
                return Target.notMeasured(goal, "the woven chains have no time at length " + Format.count(length));
            }
            double ratio = asymmetric.value() / symmetric.value();
            met &= ratio <= ASYMMETRIC_MARGIN;
            measured.add(Format.count(length) + ": " + Format.number(asymmetric.value()) + " ns vs "
                    + Format.number(symmetric.value()) + " ns (" + Format.ratio(ratio) + ")");
        }
        return Target.of(goal, String.join("; ", measured), met).explainedIfMissed(asymmetricHop());
    }

    /** A woven asymmetric hop against a symmetric one: the long chain's cost per switch, and the profile. */
    private String asymmetricHop() {
        int longest = GOAL_LENGTHS.get(GOAL_LENGTHS.size() - 1);
        double asymmetric = results.get(longest, "wovenAsymmetric").value();
        double symmetric = results.get(longest, "wovenSymmetric").value();
        return "a symmetric hop is one switch (the member's frame saved, the next one's rebuilt). An asymmetric hop "
                + "is a call or a ret: calls nest on the driver's stack up to 256 runs, and past that the caller "
                + "unwinds to call (CoroutineSupport.NESTED_BEFORE_UNWINDING), so that at " + Format.count(longest)
                + " nearly every message goes down the chain by switches and comes back up by switches, two per hop "
                + "where the symmetric chain makes one: per switch, " + Format.number(asymmetric / 2) + " ns against "
                + Format.number(symmetric) + " (" + Format.ratio(asymmetric / 2 / symmetric) + "), the rest being the "
                + "call's bookkeeping (taking the callee, its state word, the caller waiting). perf at 5,000 (JIT code "
                + "named by -XX:+DumpPerfMapAtExit; session 11): the members' twins 43%, WovenStack.resume 26%, the "
                + "chain's loop 20%, resumeInChain 7%, no java.lang.invoke frame. Nesting every call does not help: "
                + "its 5,000 runs' frames, some 5 MB of thread stack, miss the caches (72 ns a hop against 61-64 "
                + "unwinding, session 11's sweep of the limit). Closing the gap needs a call that is one switch, "
                + "not two.";
    }

    /** The bare continuations' time per hop at each goal length they were measured at: the native engine's floor. */
    private Map<Integer, Double> rawFloor() {
        Map<Integer, Double> floor = new TreeMap<>();
        for (int length : GOAL_LENGTHS) {
            if (results.isMeasured(length, "rawTrampoline")) {
                floor.put(length, results.get(length, "rawTrampoline").value());
            }
        }
        return floor;
    }

    private Target fasterThanEveryPeer(PeerResults peers) {
        String goal = "fiber chain faster per hop than every peer at 5 and 5,000";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (int length : GOAL_LENGTHS) {
            if (!results.has(length)) {
                return Target.notMeasured(goal, "length " + Format.count(length) + " not run in this mode");
            }
            Outcome weft = bestWeft(length);
            if (!weft.ok()) {
                return Target.notMeasured(goal, "Weft failed at length " + length);
            }
            Rival fastest = fastestRival(length, peers);
            met &= weft.value() < fastest.value();
            measured.add(Format.count(length) + ": " + bestWeftName(length) + " " + Format.number(weft.value())
                    + " ns vs fastest peer " + (fastest.name() == null ? "none" : fastest.name() + " "
                    + Format.number(fastest.value()) + " ns (" + Format.ratio(fastest.value() / weft.value()) + ")"));
        }
        return Target.of(goal, String.join("; ", measured), met).explainedIfMissed(FIBER_CHAIN_PROFILE);
    }

    /** The fastest competitor at one length; a null name and an infinite time if there is none. */
    private record Rival(String name, double value) {
    }

    /** The thread variants and the peers, leaving out the raw floors and Weft's own row among the peers. */
    private Rival fastestRival(int length, PeerResults peers) {
        Rival fastest = new Rival(null, Double.POSITIVE_INFINITY);
        for (Variant v : VARIANTS) {
            Outcome o = results.get(length, v.method());
            if (v.peer() && o != null && o.ok() && o.value() < fastest.value()) {
                fastest = new Rival(v.name(), o.value());
            }
        }
        for (PeerResults.Row r : peers.rows()) {
            if (!PeerResults.isWeft(r.peer()) && r.workload().equals(WORKLOAD) && r.metric().equals(PEER_METRIC)
                    && PeerResults.count(r.parameter()) == length && r.value() < fastest.value()) {
                fastest = new Rival(r.peer(), r.value());
            }
        }
        return fastest;
    }

    private static final String FIBER_CHAIN_PROFILE = "by the ratios above. On the native engine each hop is a "
            + "switch between two HotSpot continuations, whose freeze and thaw alone (the raw rows) take longer than "
            + "MRI's fiber switch; the woven engine copies no stack, only the live values of the few frames between "
            + "the member's entry and its suspension point, so its rows are the ones to look at. If they lose, the "
            + "profile to take is of the woven rows: the twin calls' links (a receiver-class test per virtual call), "
            + "the fiber's value stacks, and the ring's bookkeeping.";
}
