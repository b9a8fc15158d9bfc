package dev.weft.examples;

import dev.weft.AsymCoroutine;

/**
 * Mateu's leaf reader ({@code make-walker}, section 3 of his paper): a generator that walks a
 * tree recursively and, at each leaf, {@code ret}s the leaf's value from deep inside the
 * recursion; the next {@code call} resumes the walk there. When the walk is done, {@code run}
 * returns {@code null}, the end mark (Mateu's {@code 'end}).
 */
public class TreeWalker extends AsymCoroutine<Void, Integer> {

    private final Tree tree;
    private int leavesPulled;
    private int deepestRet;

    public TreeWalker(Tree tree) {
        this.tree = tree;
    }

    @Override
    protected Integer run(Void input) {
        walk(tree, 0);
        return null;
    }

    private void walk(Tree node, int depth) {
        switch (node) {
            case Tree.Leaf leaf -> {
                leavesPulled++;
                deepestRet = Math.max(deepestRet, depth);
                ret(leaf.value());
            }
            case Tree.Node inner -> {
                walk(inner.left(), depth + 1);
                walk(inner.right(), depth + 1);
            }
        }
    }

    /** How many leaves this walker has passed out so far. */
    public int leavesPulled() {
        return leavesPulled;
    }

    /** The greatest recursion depth (tree depth) at which it has {@code ret}ed so far. */
    public int deepestRet() {
        return deepestRet;
    }
}
