package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;

/**
 * Issue 14's goal, the thesis's result for JRuby on coroutines (section 6.3): JRuby with Weft
 * fibers ({@link PeerResults#JRUBY_WEFT}) at least 7× faster per hop on the fiber chain than
 * JRuby's own fibers, and faster than MRI, at lengths 5 and 5,000. All three run the same Ruby
 * program under {@code weft-bench/peers/run-peers.sh}, so the goal is read from the peers' results.
 */
final class JRubyFiberGoal {

    static final String JRUBY = "jruby-fiber";
    static final String MRI = "mri-fiber";
    /** How many times faster than JRuby's own fibers: the thesis's figure. */
    static final double OVER_JRUBY = 7;

    private JRubyFiberGoal() {
    }

    /**
     * The two goals; {@code rawFloor} is the bare continuations' time per hop on the same chain
     * at each length measured (the native engine's floor), which a missed goal's explanation quotes.
     */
    static List<Target> targets(PeerResults peers, Map<Integer, Double> rawFloor) {
        String floor = floorText(rawFloor);
        return List.of(
                against(peers, JRUBY, PeerResults.JRUBY_WEFT_LABEL + " at least 7× faster per hop than JRuby's own"
                        + " fibers, at 5 and 5,000", speedup -> speedup >= OVER_JRUBY)
                        .explainedIfMissed(NATIVE_ONLY + floor + " " + JRUBY_VARIES),
                against(peers, MRI, PeerResults.JRUBY_WEFT_LABEL + " faster per hop than MRI, at 5 and 5,000",
                        speedup -> speedup > 1)
                        .explainedIfMissed(NATIVE_ONLY + floor + " " + BELOW_THE_FLOOR));
    }

    /** Why JRuby's fibers on Weft run on the native engine. */
    private static final String NATIVE_ONLY = "JRuby's fibers on Weft run on the native engine: JRuby's own classes "
            + "cannot be woven (the twin of one of its generated methods, org.jruby.gen's RubyKernel$POPULATOR.populate, "
            + "passes the JVM's 64 KB limit on a method's code), so each hop is at least a switch of two HotSpot "
            + "continuations, whose floor on this chain is section 6's raw driver loop";
    private static final String JRUBY_VARIES = "On top of that floor come JRuby's fiber bookkeeping and its "
            + "interpreter; the ratio also moves with JRuby's own fibers, whose hop at 5,000 was 2,342 ns in session "
            + "10's full run and 806 ns in session 11's, on the same JRuby.";
    private static final String BELOW_THE_FLOOR = "MRI's fiber switch is below that floor: no fiber of the native "
            + "engine can be faster than it, whatever JRuby does.";

    private static String floorText(Map<Integer, Double> rawFloor) {
        if (rawFloor.isEmpty()) {
            return ".";
        }
        List<String> hops = new ArrayList<>();
        rawFloor.forEach((length, ns) -> hops.add(Format.number(ns) + " ns at " + Format.count(length)));
        return " (" + String.join(", ", hops) + ").";
    }

    /** MET if {@code rival}'s time per hop over JRuby with Weft fibers' passes {@code met} at every length. */
    private static Target against(PeerResults peers, String rival, String goal, DoublePredicate met) {
        if (peers.notRun() != null) {
            return Target.notMeasured(goal, "peers not run: " + peers.notRun());
        }
        List<String> measured = new ArrayList<>();
        boolean allMet = true;
        for (int length : FiberChainSection.GOAL_LENGTHS) {
            PeerResults.Row weft = hop(peers, PeerResults.JRUBY_WEFT, length);
            PeerResults.Row other = hop(peers, rival, length);
            if (weft == null || other == null) {
                return Target.notMeasured(goal, missing(peers, weft == null ? PeerResults.JRUBY_WEFT : rival, length));
            }
            double speedup = other.value() / weft.value();
            allMet &= met.test(speedup);
            measured.add(Format.count(length) + ": " + Format.number(weft.value()) + " ns vs " + rival + " "
                    + Format.number(other.value()) + " ns (" + Format.ratio(speedup) + ")");
        }
        return Target.of(goal, String.join("; ", measured), allMet);
    }

    private static PeerResults.Row hop(PeerResults peers, String peer, int length) {
        return peers.value(peer, FiberChainSection.WORKLOAD, FiberChainSection.PEER_METRIC, "" + length);
    }

    private static String missing(PeerResults peers, String peer, int length) {
        String why = peers.unavailable(peer, FiberChainSection.WORKLOAD);
        return peer + " has no time at length " + Format.count(length) + (why == null ? "" : ": " + why);
    }
}
