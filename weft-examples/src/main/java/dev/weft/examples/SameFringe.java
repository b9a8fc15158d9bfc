package dev.weft.examples;

import java.io.PrintStream;
import java.util.List;
import java.util.Objects;

/**
 * The same-fringe problem (Mateu 1992, section 9): do two trees have the same leaves in the same
 * order? The coroutine solution runs one {@link TreeWalker} per tree and compares the leaves
 * they pass out one pair at a time, stopping at the first difference; the flattening solution
 * copies both fringes into lists and compares those. As in the paper, the trees have 100,000
 * leaves each.
 */
public final class SameFringe {

    /** Leaves per tree, as in Mateu's measurements. */
    public static final int LEAVES = 100_000;
    /** Teeth of the list-like comb tree: the depth its walker recurses to. */
    public static final int COMB_TEETH = 2_000;

    /** What the coroutine comparison found, and how much of the trees it read to find it. */
    public record Outcome(boolean same, int leavesPulled, int deepestRet) {
    }

    private SameFringe() {
    }

    /** Compares with two walker coroutines; closes both, whether or not they have finished. */
    public static Outcome withCoroutines(Tree a, Tree b) {
        try (TreeWalker walkerA = new TreeWalker(a); TreeWalker walkerB = new TreeWalker(b)) {
            boolean same;
            while (true) {
                Integer leafA = walkerA.call(null);
                Integer leafB = walkerB.call(null);
                if (!Objects.equals(leafA, leafB)) {
                    same = false;
                    break;
                }
                if (leafA == null) {
                    same = true;
                    break;
                }
            }
            return new Outcome(same, walkerA.leavesPulled() + walkerB.leavesPulled(),
                    Math.max(walkerA.deepestRet(), walkerB.deepestRet()));
        }
    }

    /** What the flattening comparison found, and how many leaves it copied into lists. */
    public record Flattened(boolean same, int leavesCopied) {
    }

    /** Compares by flattening both trees into lists. */
    public static Flattened withFlattening(Tree a, Tree b) {
        List<Integer> fringeA = Tree.flatten(a);
        List<Integer> fringeB = Tree.flatten(b);
        return new Flattened(fringeA.equals(fringeB), fringeA.size() + fringeB.size());
    }

    /** The fringe 0, 1, ..., n - 1. */
    static int[] counting(int n) {
        int[] fringe = new int[n];
        for (int i = 0; i < n; i++) {
            fringe[i] = i;
        }
        return fringe;
    }

    /** The counting fringe with leaf {@code index} replaced by -1. */
    static int[] countingExcept(int n, int index) {
        int[] fringe = counting(n);
        fringe[index] = -1;
        return fringe;
    }

    public static void main(String[] args) {
        demo(System.out);
    }

    /** Describes five trees, then compares the balanced one with each of the others both ways. */
    public static void demo(PrintStream out) {
        Tree balanced = Tree.balanced(counting(LEAVES));
        List<Named> others = List.of(
                new Named("skewed", Tree.skewed(counting(LEAVES))),
                new Named("comb", Tree.comb(counting(LEAVES), COMB_TEETH)),
                new Named("balanced, leaf " + (LEAVES - 2) + " changed", Tree.balanced(countingExcept(LEAVES, LEAVES - 2))),
                new Named("balanced, leaf 2 changed", Tree.balanced(countingExcept(LEAVES, 2))));
        out.println("balanced: depth " + Tree.depth(balanced));
        for (Named other : others) {
            out.println(other.name() + ": depth " + Tree.depth(other.tree()));
        }
        for (Named other : others) {
            Outcome outcome = withCoroutines(balanced, other.tree());
            Flattened flattened = withFlattening(balanced, other.tree());
            if (flattened.same() != outcome.same()) {
                throw new AssertionError("the two solutions disagree on " + other.name());
            }
            out.println("balanced vs " + other.name() + ": " + (outcome.same() ? "same" : "different")
                    + " fringe; coroutines pulled " + outcome.leavesPulled()
                    + " leaves (deepest ret at depth " + outcome.deepestRet() + "), flattening copied "
                    + flattened.leavesCopied());
        }
    }

    private record Named(String name, Tree tree) {
    }
}
