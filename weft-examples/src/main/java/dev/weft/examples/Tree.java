package dev.weft.examples;

import java.util.ArrayList;
import java.util.List;

/**
 * A binary tree with an {@code int} at each leaf, for the same-fringe problem (Mateu 1992,
 * sections 2 and 9): its fringe is the sequence of its leaves, left to right. The builders make
 * trees of different shapes with a given fringe.
 */
public sealed interface Tree permits Tree.Leaf, Tree.Node {

    /** A leaf. */
    record Leaf(int value) implements Tree {
    }

    /** An inner node: two subtrees. */
    record Node(Tree left, Tree right) implements Tree {
    }

    /** A balanced tree: each node splits its leaves in halves (the right half takes the odd one). */
    static Tree balanced(int[] fringe) {
        return split(fringe, 0, fringe.length, 2);
    }

    /** A lopsided tree: each node gives a third of its leaves to the left and the rest to the right. */
    static Tree skewed(int[] fringe) {
        return split(fringe, 0, fringe.length, 3);
    }

    /**
     * A list-like tree: a right spine of {@code teeth - 1} nodes whose left children, and the
     * last one's right child, are balanced trees of equal size. Its depth is about
     * {@code teeth}, which makes the walk recurse that deep.
     */
    static Tree comb(int[] fringe, int teeth) {
        if (teeth < 1 || fringe.length % teeth != 0) {
            throw new IllegalArgumentException(fringe.length + " leaves cannot be split into " + teeth + " teeth");
        }
        int size = fringe.length / teeth;
        Tree tree = split(fringe, (teeth - 1) * size, teeth * size, 2);
        for (int tooth = teeth - 2; tooth >= 0; tooth--) {
            tree = new Node(split(fringe, tooth * size, (tooth + 1) * size, 2), tree);
        }
        return tree;
    }

    /** Builds {@code fringe[from, to)}, giving {@code 1/divisor} of each node's leaves (at least one) to the left. */
    private static Tree split(int[] fringe, int from, int to, int divisor) {
        int n = to - from;
        if (n < 1) {
            throw new IllegalArgumentException("a tree needs at least one leaf");
        }
        if (n == 1) {
            return new Leaf(fringe[from]);
        }
        int middle = from + Math.max(1, n / divisor);
        return new Node(split(fringe, from, middle, divisor), split(fringe, middle, to, divisor));
    }

    /** The number of edges from the root to the deepest leaf. */
    static int depth(Tree tree) {
        return switch (tree) {
            case Leaf leaf -> 0;
            case Node node -> 1 + Math.max(depth(node.left()), depth(node.right()));
        };
    }

    /** The fringe as a new list: the tree-flattening way. */
    static List<Integer> flatten(Tree tree) {
        List<Integer> leaves = new ArrayList<>();
        collect(tree, leaves);
        return leaves;
    }

    private static void collect(Tree tree, List<Integer> leaves) {
        switch (tree) {
            case Leaf leaf -> leaves.add(leaf.value());
            case Node node -> {
                collect(node.left(), leaves);
                collect(node.right(), leaves);
            }
        }
    }
}
