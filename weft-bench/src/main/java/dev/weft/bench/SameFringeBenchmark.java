package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.bench.FringeTree.Leaf;
import dev.weft.bench.FringeTree.Node;
import dev.weft.bench.woven.FringeWalker;

import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.internal.vm.Continuation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The same-fringe problem (Mateu 1992, section 9): do two trees have the same leaves in the same
 * order? Two trees with the same {@code leaves} leaves but different shapes (one splits every
 * range in halves, the other at a third, as the peers' trees do), compared to the end, four ways:
 * <ul>
 *   <li>{@link #weftGenerators}: two {@link AsymCoroutine}s walk the trees recursively and
 *       {@code ret} each leaf; the comparer calls them in turn (Mateu's coroutine solution);</li>
 *   <li>{@link #wovenGenerators}: the same on the woven engine ({@link FringeWalker});</li>
 *   <li>{@link #rawGenerators}: the same with bare continuations, the floor;</li>
 *   <li>{@link #flattening}: both fringes copied into lists, then the lists compared (Mateu's
 *       tree-flattening solution);</li>
 *   <li>{@link #explicitStack}: hand-written iterators with a stack of pending subtrees, the
 *       lazy solution without coroutines.</li>
 * </ul>
 * Each invocation builds its walkers anew. {@link Report} runs it with {@code leaves}
 * operations per invocation: the score is the time per leaf position compared.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class SameFringeBenchmark {

    @State(Scope.Benchmark)
    public static class Trees {
        @Param({"1000", "100000"})
        public int leaves;

        FringeTree left;
        FringeTree right;

        @Setup(Level.Trial)
        public void build() {
            left = FringeTree.balanced(leaves);
            right = FringeTree.skewed(leaves);
        }
    }

    @Benchmark
    public boolean weftGenerators(Trees trees) {
        AsymCoroutine<Object, Leaf> a = walker(trees.left);
        AsymCoroutine<Object, Leaf> b = walker(trees.right);
        try {
            return sameLeaves(a, b);
        } finally {
            a.close();
            b.close();
        }
    }

    private static boolean sameLeaves(AsymCoroutine<Object, Leaf> a, AsymCoroutine<Object, Leaf> b) {
        while (true) {
            Leaf x = a.call(null);
            Leaf y = b.call(null);
            if (x == null || y == null) {
                return x == y;
            }
            if (x.value() != y.value()) {
                return false;
            }
        }
    }

    private static AsymCoroutine<Object, Leaf> walker(FringeTree tree) {
        return new AsymCoroutine<>((self, in) -> {
            walk(tree, self);
            return null;
        });
    }

    private static void walk(FringeTree tree, AsymCoroutine<?, ? super Leaf> self) {
        switch (tree) {
            case Leaf leaf -> self.ret(leaf);
            case Node node -> {
                walk(node.left(), self);
                walk(node.right(), self);
            }
        }
    }

    @Benchmark
    public boolean wovenGenerators(Trees trees) {
        AsymCoroutine<Object, Leaf> a = new FringeWalker(trees.left);
        AsymCoroutine<Object, Leaf> b = new FringeWalker(trees.right);
        try {
            return sameLeaves(a, b);
        } finally {
            a.close();
            b.close();
        }
    }

    @Benchmark
    public boolean rawGenerators(Trees trees) {
        RawWalker a = new RawWalker(trees.left);
        RawWalker b = new RawWalker(trees.right);
        while (true) {
            Leaf x = a.next();
            Leaf y = b.next();
            if (x == null || y == null) {
                return x == y;
            }
            if (x.value() != y.value()) {
                return false;
            }
        }
    }

    /** A generator on a bare continuation: the walk leaves each leaf in a field and yields. */
    private static final class RawWalker {
        private final Continuation continuation;
        private Leaf current;

        RawWalker(FringeTree tree) {
            continuation = new Continuation(RawContinuations.SCOPE, () -> walk(tree));
        }

        private void walk(FringeTree tree) {
            switch (tree) {
                case Leaf leaf -> {
                    current = leaf;
                    Continuation.yield(RawContinuations.SCOPE);
                }
                case Node node -> {
                    walk(node.left());
                    walk(node.right());
                }
            }
        }

        Leaf next() {
            current = null;
            if (!continuation.isDone()) {
                continuation.run();
            }
            return current;
        }
    }

    @Benchmark
    public boolean flattening(Trees trees) {
        List<Integer> a = FringeTree.flatten(trees.left);
        List<Integer> b = FringeTree.flatten(trees.right);
        return a.equals(b);
    }

    @Benchmark
    public boolean explicitStack(Trees trees) {
        FringeTree.LeafIterator a = new FringeTree.LeafIterator(trees.left);
        FringeTree.LeafIterator b = new FringeTree.LeafIterator(trees.right);
        while (true) {
            Leaf x = a.next();
            Leaf y = b.next();
            if (x == null || y == null) {
                return x == y;
            }
            if (x.value() != y.value()) {
                return false;
            }
        }
    }
}
