package dev.weft.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Workload 6: the fiber chain of thesis section 6.3, Weft against threads, raw continuations and peers. */
final class FiberChainSection extends Section {

    private static final String WORKLOAD = "fiber-chain";
    private static final String PEER_METRIC = "ns-per-hop";

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

    /** length -> method -> outcome */
    private final Map<Integer, Map<String, Outcome>> results = new LinkedHashMap<>();

    @Override
    String title() {
        return "6. Fiber chain (thesis section 6.3, figures 6.2 and 6.3)";
    }

    @Override
    int plannedSteps(Settings s) {
        return s.chainLengths().size() * VARIANTS.size();
    }

    @Override
    double estimatedSeconds(Settings s) {
        return plannedSteps(s) * s.averageTimeRunSeconds();
    }

    @Override
    void measure(Bench bench) {
        for (int length : bench.settings().chainLengths()) {
            int ops = FiberChainBenchmark.hopsPerInvocation(length);
            for (Variant v : VARIANTS) {
                JmhRunner.Spec spec = JmhRunner.Spec.of(FiberChainBenchmark.class, v.method(), Map.of("length", "" + length), ops);
                if (v.method().endsWith("Asymmetric") || v.method().equals("rawNested")) {
                    spec = spec.withJvmArgs(FiberChainBenchmark.STACK); // every member's frames nest on one thread
                }
                add(length, v.method(), bench.jmh(WORKLOAD, v.method(), "length=" + length, spec));
            }
        }
    }

    /** Records the outcome of one variant (a benchmark method) at one chain length. */
    void add(int length, String method, Outcome outcome) {
        results.computeIfAbsent(length, l -> new LinkedHashMap<>()).put(method, outcome);
    }

    @Override
    void write(Page page) {
        PeerResults peers = page.peers();
        page.heading(2, title());
        page.paragraph("""
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
                the two Weft variants, not peers. Non-JVM and other JVM peers come from \
                `weft-bench/peers/run-peers.sh`. The ratio is the row's time over the fastest Weft variant's: \
                above 1, Weft is faster.""".formatted(Format.count(FiberChainBenchmark.messagesPerInvocation(5))));
        List<Integer> lengths = new ArrayList<>(results.keySet());
        List<String> header = new ArrayList<>(List.of("variant"));
        for (int length : lengths) {
            header.add("length " + Format.count(length) + " (ns/hop)");
            header.add("÷ Weft");
        }
        Table t = new Table(header.toArray(String[]::new));
        for (Variant v : VARIANTS) {
            List<String> row = new ArrayList<>(List.of(v.name()));
            for (int length : lengths) {
                Outcome o = results.get(length).get(v.method());
                row.add(Format.outcome(o));
                row.add(Format.ratio(o.value() / bestWeft(length).value()));
            }
            t.row(row.toArray(String[]::new));
        }
        for (String[] pair : new String[][] {{"weftSymmetric", "rawTrampoline"}, {"weftAsymmetric", "rawNested"}}) {
            List<String> row = new ArrayList<>(List.of("*" + name(pair[0]) + " ÷ its raw floor*"));
            for (int length : lengths) {
                row.add(Format.ratio(results.get(length).get(pair[0]).ratioTo(results.get(length).get(pair[1]))));
                row.add("");
            }
            t.row(row.toArray(String[]::new));
        }
        for (String peer : peers.peersOf(WORKLOAD)) {
            List<String> row = new ArrayList<>(List.of(peer + " (peer)"));
            for (int length : lengths) {
                PeerResults.Row r = peers.value(peer, WORKLOAD, PEER_METRIC, "" + length);
                row.add(RingSection.peerCell(peers, peer, WORKLOAD, PEER_METRIC, length, 1));
                row.add(r == null ? Format.NONE : Format.ratio(r.value() / bestWeft(length).value()));
            }
            t.row(row.toArray(String[]::new));
        }
        if (peers.notRun() != null) {
            t.row("peers", "not run: " + peers.notRun());
        }
        page.table(t);
        page.plot(figure(peers), "fig-6.2-6.3-fiber-chain.png", "Time per hop against chain length, every variant and peer");
    }

    /**
     * Thesis figures 6.2 and 6.3 in one: time per hop at each chain length, for Weft, its raw
     * floors, threads handing off through a queue, and the peers (dashed). The exchanger
     * variants are left to the table, for a readable legend.
     */
    private LinePlot figure(PeerResults peers) {
        LinePlot plot = new LinePlot("Fiber chain: time per hop (cf. thesis figs. 6.2 and 6.3)", "members in the chain",
                "ns per hop (median)", true, true);
        for (Variant v : VARIANTS) {
            if (!v.method().endsWith("Exchanger")) {
                List<LinePlot.Point> points = new ArrayList<>();
                results.forEach((length, row) -> points.add(new LinePlot.Point(length, row.get(v.method()).value())));
                plot.series(v.name().replace("`", ""), points);
            }
        }
        for (String peer : peers.peersOf(WORKLOAD)) {
            List<LinePlot.Point> points = new ArrayList<>();
            for (int length : results.keySet()) {
                PeerResults.Row r = peers.value(peer, WORKLOAD, PEER_METRIC, "" + length);
                points.add(new LinePlot.Point(length, r == null ? Double.NaN : r.value()));
            }
            plot.series(peer, points, true);
        }
        return plot;
    }

    private static String name(String method) {
        return VARIANTS.stream().filter(v -> v.method().equals(method)).findFirst().orElseThrow().name();
    }

    /** The Weft variants, native and woven; the target counts the fastest. */
    private static final List<String> WEFT = List.of("weftSymmetric", "weftAsymmetric", "wovenSymmetric", "wovenAsymmetric");

    private Outcome bestWeft(int length) {
        Outcome best = null;
        for (String method : WEFT) {
            Outcome o = results.get(length).get(method);
            if (o != null && o.ok() && (best == null || o.value() < best.value())) {
                best = o;
            }
        }
        return best != null ? best : results.get(length).get(WEFT.get(0));
    }

    private String bestWeftName(int length) {
        Outcome best = bestWeft(length);
        return WEFT.stream().filter(m -> results.get(length).get(m) == best).findFirst().map(FiberChainSection::name)
                .orElse("Weft").replace("`", "");
    }

    @Override
    List<Target> targets(PeerResults peers) {
        String goal = "fiber chain faster per hop than every peer at 5 and 5,000";
        List<String> measured = new ArrayList<>();
        boolean met = true;
        for (int length : List.of(5, 5_000)) {
            if (!results.containsKey(length)) {
                return List.of(Target.notMeasured(goal, "length " + Format.count(length) + " not run in this mode"));
            }
            Outcome weft = bestWeft(length);
            if (!weft.ok()) {
                return List.of(Target.notMeasured(goal, "Weft failed at length " + length));
            }
            String fastest = null;
            double fastestValue = Double.POSITIVE_INFINITY;
            for (Variant v : VARIANTS) {
                Outcome o = results.get(length).get(v.method());
                if (v.peer() && o.ok() && o.value() < fastestValue) {
                    fastestValue = o.value();
                    fastest = v.name();
                }
            }
            for (PeerResults.Row r : peers.rows()) {
                if (r.workload().equals(WORKLOAD) && r.metric().equals(PEER_METRIC)
                        && RingSection.parseCount(r.parameter()) == length && r.value() < fastestValue) {
                    fastestValue = r.value();
                    fastest = r.peer();
                }
            }
            met &= weft.value() < fastestValue;
            measured.add(Format.count(length) + ": " + bestWeftName(length) + " " + Format.number(weft.value())
                    + " ns vs fastest peer " + (fastest == null ? "none" : fastest + " " + Format.number(fastestValue)
                    + " ns (" + Format.ratio(fastestValue / weft.value()) + ")"));
        }
        return List.of(Target.of(goal, String.join("; ", measured), met).explainedIfMissed(FIBER_CHAIN_PROFILE));
    }

    private static final String FIBER_CHAIN_PROFILE = "by the ratios above. On the native engine each hop is a "
            + "switch between two HotSpot continuations, whose freeze and thaw alone (the raw rows) take longer than "
            + "MRI's fiber switch; the woven engine copies no stack, only the live values of the few frames between "
            + "the member's entry and its suspension point, so its rows are the ones to look at. If they lose, the "
            + "profile to take is of the woven rows: the twin calls' links (a receiver-class test per virtual call), "
            + "the fiber's value stacks, and the ring's bookkeeping.";
}
