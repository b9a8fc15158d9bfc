package dev.weft.bench.peers.kilim;

import dev.weft.bench.peers.Plan;
import dev.weft.bench.peers.Tree;
import java.util.concurrent.atomic.AtomicInteger;
import kilim.Generator;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Scheduler;
import kilim.Task;

/**
 * The Kilim peer: tasks woven by Kilim's ahead-of-time weaver (the build runs it over this
 * package), talking through mailboxes on a one-thread scheduler, and {@link Generator}s for the
 * same fringe.
 *
 * <p>Command line as {@link Plan.Args}: {@code bench|switch|memory [--quick] [N...]}.
 */
public final class KilimPeer {
    static final String PEER = "kilim";
    /** Ends a stage; never a real message (those are non-negative). */
    static final int STOP = -1;

    private KilimPeer() {
    }

    public static void main(String[] args) throws Exception {
        Plan.Args a;
        try {
            a = Plan.Args.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("KilimPeer: " + e.getMessage());
            System.exit(2);
            return;
        }
        Plan plan = new Plan(a.quick());
        switch (a.mode()) {
            case "bench" -> bench(plan, true, a.counts());
            case "switch" -> bench(plan, false, a.counts());
            default -> {
                for (int n : a.counts()) {
                    memory(n);
                }
            }
        }
        System.exit(0);
    }

    static String note(String what) {
        return what + "; scheduler threads=1; " + Plan.jvmNote();
    }

    static void bench(Plan plan, boolean chainAndFringe, int[] switchCounts) throws Exception {
        Scheduler.setDefaultScheduler(Scheduler.make(1));
        Driver driver = new Driver(plan, chainAndFringe, switchCounts);
        driver.start();
        driver.joinb();
        if (driver.failure != null) {
            throw driver.failure;
        }
        if (chainAndFringe) {
            for (int leaves : Plan.FRINGE_LEAVES) {
                sameFringe(plan, leaves);
            }
        }
    }

    /** Work measured in counts of some unit; {@link #run} returns the nanoseconds it took. */
    abstract static class Work {
        abstract long run(long count) throws Pausable;
    }

    /** Times {@code work} as the plan says (see {@link Plan#measure}): nanoseconds per unit, per run. */
    static double[] measure(Plan plan, Work work, double unitsPerCount, long firstCount) throws Pausable {
        Plan.Measure m = plan.measure(unitsPerCount, firstCount, 1);
        while (m.more()) {
            m.record(work.run(m.count()));
        }
        return m.results();
    }

    /** Runs the mailbox workloads inside a task, so that no OS thread hand-off is timed. */
    static final class Driver extends Task<Object> {
        final Plan plan;
        final boolean chain;
        final int[] switchCounts;
        volatile Exception failure;

        Driver(Plan plan, boolean chain, int[] switchCounts) {
            this.plan = plan;
            this.chain = chain;
            this.switchCounts = switchCounts;
        }

        @Override
        public void execute() throws Pausable {
            try {
                if (chain) {
                    for (int n : Plan.CHAIN_LENGTHS) {
                        fiberChain(n);
                    }
                }
                for (int n : switchCounts) {
                    switchRing(n);
                }
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        void fiberChain(int n) throws Pausable {
            @SuppressWarnings({"unchecked", "rawtypes"})
            Mailbox<Integer>[] boxes = new Mailbox[n + 1];
            for (int i = 0; i <= n; i++) {
                boxes[i] = new Mailbox<>(1);
            }
            for (int i = 0; i < n; i++) {
                new Stage(boxes[i], boxes[i + 1]).start();
            }
            final Mailbox<Integer> first = boxes[0];
            final Mailbox<Integer> last = boxes[n];
            Work work = new Work() {
                @Override
                long run(long messages) throws Pausable {
                    long t0 = System.nanoTime();
                    for (long m = 0; m < messages; m++) {
                        int v = (int) (m & 0xFFFF);
                        first.put(v);
                        int r = last.get();
                        if (r != v + n) {
                            throw new IllegalStateException("chain returned " + r + " for " + v);
                        }
                    }
                    return System.nanoTime() - t0;
                }
            };
            double[] ns = measure(plan, work, n + 1, 1);
            first.put(STOP);
            last.get();
            Plan.row(PEER, "fiber-chain", n, "ns-per-hop", Plan.median(ns), "ns",
                    note("median of " + ns.length + "; hop = one mailbox hand-off, " + (n + 1) + " per message"));
        }

        void switchRing(int n) throws Pausable {
            @SuppressWarnings({"unchecked", "rawtypes"})
            Mailbox<Integer>[] boxes = new Mailbox[n];
            for (int i = 0; i < n; i++) {
                boxes[i] = new Mailbox<>(1);
            }
            final Mailbox<Integer> done = new Mailbox<>(1);
            for (int i = 0; i < n; i++) {
                new RingStage(boxes[i], boxes[(i + 1) % n], done).start();
            }
            final Mailbox<Integer> start = boxes[0];
            Work work = new Work() {
                @Override
                long run(long switches) throws Pausable {
                    long t0 = System.nanoTime();
                    // A token t makes t + 2 switches: in, t passes round the ring, out to the driver.
                    // Tokens are ints, so a long count runs as laps of at most 2^30.
                    for (long left = switches; left > 0; ) {
                        int token = (int) Math.max(0, Math.min(left, 1 << 30) - 2);
                        start.put(token);
                        done.get();
                        left -= token + 2;
                    }
                    return System.nanoTime() - t0;
                }
            };
            double[] ns = measure(plan, work, 1.0, 2L * n);
            start.put(STOP);
            double median = Plan.median(ns);
            Plan.row(PEER, "switch", n, "switches-per-second", 1e9 / median, "1/s",
                    note("median of " + ns.length + "; ring of mailboxes, one token"));
        }
    }

    /** A link of the chain: takes a message, passes it on incremented. */
    static final class Stage extends Task<Object> {
        final Mailbox<Integer> in;
        final Mailbox<Integer> out;

        Stage(Mailbox<Integer> in, Mailbox<Integer> out) {
            this.in = in;
            this.out = out;
        }

        @Override
        public void execute() throws Pausable {
            while (true) {
                int v = in.get();
                if (v == STOP) {
                    out.put(STOP);
                    return;
                }
                out.put(v + 1);
            }
        }
    }

    /** A member of the switch ring: passes the count-down token on, or reports when it is spent. */
    static final class RingStage extends Task<Object> {
        final Mailbox<Integer> in;
        final Mailbox<Integer> out;
        final Mailbox<Integer> done;

        RingStage(Mailbox<Integer> in, Mailbox<Integer> out, Mailbox<Integer> done) {
            this.in = in;
            this.out = out;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            while (true) {
                int v = in.get();
                if (v == STOP) {
                    out.putnb(STOP);
                    return;
                }
                if (v == 0) {
                    done.put(0);
                } else {
                    out.put(v - 1);
                }
            }
        }
    }

    /** Yields the leaves of a tree, left to right, from a recursive walk. */
    static final class Walker extends Generator<Integer> {
        final Tree root;

        Walker(Tree root) {
            this.root = root;
        }

        @Override
        public void execute() throws Pausable {
            walk(root);
        }

        void walk(Tree t) throws Pausable {
            if (t.isLeaf()) {
                this.yield(t.leaf);
            } else {
                walk(t.left);
                walk(t.right);
            }
        }
    }

    /**
     * Compares the fringes of two trees of {@code leaves} leaves, or only their first {@code limit}
     * leaves where that is fewer (a slow peer's calibration starts with short prefixes).
     */
    static boolean sameFringe(Tree a, Tree b, long limit) {
        Walker wa = new Walker(a);
        Walker wb = new Walker(b);
        for (long i = 0; ; i++) {
            boolean ha = wa.hasNext();
            boolean hb = wb.hasNext();
            if (ha != hb) {
                return false;
            }
            if (!ha || i == limit) {
                return true;
            }
            if (wa.next().intValue() != wb.next().intValue()) {
                return false;
            }
        }
    }

    static void sameFringe(Plan plan, int leaves) {
        Tree a = Tree.balanced(leaves);
        Tree b = Tree.lopsided(leaves);
        // A check that unequal fringes compare unequal, on small trees.
        if (sameFringe(Tree.balanced(1000), Tree.lopsidedDifferentLast(1000), Long.MAX_VALUE)) {
            throw new IllegalStateException("same-fringe missed a difference");
        }
        Plan.Measure m = plan.measure(1, 1, leaves);
        while (m.more()) {
            m.record(timeFringe(a, b, leaves, m.count()));
        }
        double[] ns = m.results();
        Plan.row(PEER, "same-fringe", leaves, "ns-per-leaf", Plan.median(ns), "ns",
                note("median of " + ns.length + "; two kilim.Generator walkers"));
    }

    /** Compares {@code count} leaves: whole trees while that many are left, then a prefix. */
    static long timeFringe(Tree a, Tree b, int leaves, long count) {
        long t0 = System.nanoTime();
        for (long left = count; left > 0; left -= leaves) {
            long limit = left >= leaves ? Long.MAX_VALUE : left;
            if (!sameFringe(a, b, limit)) {
                throw new IllegalStateException("equal fringes compared unequal");
            }
        }
        return System.nanoTime() - t0;
    }

    /** A task parked for good on its own mailbox. */
    static final class Parked extends Task<Object> {
        final Mailbox<Integer> gate = new Mailbox<>(1);
        final AtomicInteger parked;

        Parked(AtomicInteger parked) {
            this.parked = parked;
        }

        @Override
        public void execute() throws Pausable {
            parked.incrementAndGet();
            gate.get();
        }
    }

    static void memory(int n) throws Exception {
        Scheduler.setDefaultScheduler(Scheduler.make(1));
        // As weft-bench's probes: JIT_WARM_UP tasks made and finished, so that compiling their code
        // is not counted, then one kept, so that the reading before holds the classes.
        AtomicInteger jit = new AtomicInteger();
        Parked[] jitWarm = new Parked[Plan.JIT_WARM_UP];
        for (int i = 0; i < jitWarm.length; i++) {
            jitWarm[i] = new Parked(jit);
            jitWarm[i].start();
        }
        waitFor(jit, jitWarm.length);
        for (Parked t : jitWarm) {
            t.gate.putnb(0);
        }
        for (Parked t : jitWarm) {
            t.joinb();
        }
        AtomicInteger warm = new AtomicInteger();
        Parked kept = new Parked(warm);
        kept.start();
        waitFor(warm, 1);
        Plan.MemoryReading.warmUp();
        Plan.MemoryReading before = Plan.MemoryReading.settled();
        AtomicInteger parked = new AtomicInteger();
        Parked[] tasks = new Parked[n];
        for (int i = 0; i < n; i++) {
            tasks[i] = new Parked(parked);
            tasks[i].start();
        }
        waitFor(parked, n);
        Thread.sleep(50);
        Plan.MemoryReading after = Plan.MemoryReading.settled();
        Plan.memoryRows(PEER, n, before, after, "tasks parked on a mailbox get; scheduler threads=1");
        // Keep the tasks reachable until the reading is done.
        if (tasks[n - 1].isDone() || kept.isDone()) {
            System.err.println("unexpected: a parked task finished");
        }
    }

    static void waitFor(AtomicInteger counter, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (counter.get() < n) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + counter.get() + " of " + n + " tasks started");
            }
            Thread.sleep(1);
        }
    }
}
