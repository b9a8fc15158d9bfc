package dev.weft.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A binary tree with an {@code int} at each leaf, for the same-fringe benchmark: its fringe is
 * its leaves from left to right.
 */
public sealed interface FringeTree {

    /** A leaf. */
    record Leaf(int value) implements FringeTree {
    }

    /** An inner node. */
    record Node(FringeTree left, FringeTree right) implements FringeTree {
    }

    /** A balanced tree whose fringe is {@code 0, 1, ..., leaves - 1}: every node splits its leaves in halves. */
    static FringeTree balanced(int leaves) {
        return split(leaves, 2);
    }

    /** A lopsided tree with the same fringe: every node gives a third of its leaves to the left. */
    static FringeTree skewed(int leaves) {
        return split(leaves, 3);
    }

    private static FringeTree split(int leaves, int divisor) {
        if (leaves < 1) {
            throw new IllegalArgumentException("a tree needs a leaf: " + leaves);
        }
        return build(0, leaves, divisor);
    }

    private static FringeTree build(int from, int to, int divisor) {
        if (to - from == 1) {
            return new Leaf(from);
        }
        int left = Math.max(1, (to - from) / divisor);
        return new Node(build(from, from + left, divisor), build(from + left, to, divisor));
    }

    /** The fringe as a list, by recursion. */
    static List<Integer> flatten(FringeTree tree) {
        List<Integer> fringe = new ArrayList<>();
        addLeaves(tree, fringe);
        return fringe;
    }

    private static void addLeaves(FringeTree tree, List<Integer> fringe) {
        switch (tree) {
            case Leaf leaf -> fringe.add(leaf.value());
            case Node node -> {
                addLeaves(node.left(), fringe);
                addLeaves(node.right(), fringe);
            }
        }
    }

    /** A hand-written iterator over the leaves, with an explicit stack of pending right subtrees. */
    final class LeafIterator {
        private final ArrayDeque<FringeTree> pending = new ArrayDeque<>();

        LeafIterator(FringeTree tree) {
            pending.push(tree);
        }

        /** The next leaf, or null after the last. */
        Leaf next() {
            while (!pending.isEmpty()) {
                FringeTree t = pending.pop();
                while (t instanceof Node node) {
                    pending.push(node.right());
                    t = node.left();
                }
                return (Leaf) t;
            }
            return null;
        }
    }
}
