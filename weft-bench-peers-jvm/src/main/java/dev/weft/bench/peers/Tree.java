package dev.weft.bench.peers;

/**
 * The binary trees of the same-fringe workload. Both shapes hold the leaves 0 .. n-1 in order, so
 * their fringes are equal while their shapes differ: {@link #balanced} splits every range in half,
 * {@link #lopsided} at a third, which keeps the depth logarithmic (about 29 for 100,000 leaves) so
 * no generator recurses deeply.
 */
public final class Tree {
    public final Tree left;
    public final Tree right;
    /** The leaf value; meaningful only where {@link #left} is null. */
    public final int leaf;

    private Tree(Tree left, Tree right, int leaf) {
        this.left = left;
        this.right = right;
        this.leaf = leaf;
    }

    public boolean isLeaf() {
        return left == null;
    }

    public static Tree balanced(int leaves) {
        return build(0, leaves, 2);
    }

    public static Tree lopsided(int leaves) {
        return build(0, leaves, 3);
    }

    /** Like {@link #lopsided} but with one leaf changed: a fringe that differs at the end. */
    public static Tree lopsidedDifferentLast(int leaves) {
        return buildChanged(0, leaves, 3, leaves - 1);
    }

    private static Tree build(int lo, int hi, int divisor) {
        return buildChanged(lo, hi, divisor, -1);
    }

    private static Tree buildChanged(int lo, int hi, int divisor, int changed) {
        if (hi - lo == 1) {
            return new Tree(null, null, lo == changed ? -1 : lo);
        }
        int mid = lo + Math.max(1, (hi - lo) / divisor);
        return new Tree(buildChanged(lo, mid, divisor, changed), buildChanged(mid, hi, divisor, changed), 0);
    }
}
