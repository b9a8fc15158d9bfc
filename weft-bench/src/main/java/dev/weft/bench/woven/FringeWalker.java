package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import dev.weft.bench.FringeTree;
import dev.weft.bench.FringeTree.Leaf;
import dev.weft.bench.FringeTree.Node;

/**
 * The same-fringe generator on the woven engine: walks its tree recursively and {@code ret}s each
 * leaf, then returns null. The same walk as the native generator's lambda, as a named class
 * that the build weaves (see the pom).
 */
public final class FringeWalker extends AsymCoroutine<Object, Leaf> {

    private final FringeTree tree;

    public FringeWalker(FringeTree tree) {
        super(Engine.WOVEN);
        this.tree = tree;
    }

    @Override
    protected Leaf run(Object first) {
        walk(tree);
        return null;
    }

    private void walk(FringeTree subtree) {
        if (subtree instanceof Node node) {
            walk(node.left());
            walk(node.right());
        } else {
            ret((Leaf) subtree);
        }
    }
}
