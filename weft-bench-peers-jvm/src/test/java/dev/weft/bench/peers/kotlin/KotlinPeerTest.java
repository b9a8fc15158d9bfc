package dev.weft.bench.peers.kotlin;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bench.peers.Tree;
import org.junit.jupiter.api.Test;

class KotlinPeerTest {

    @Test
    void sequencesCompareFringes() {
        Tree a = Tree.balanced(1000);
        assertTrue(KotlinPeerKt.sameFringe(a, Tree.lopsided(1000), Long.MAX_VALUE));
        assertFalse(KotlinPeerKt.sameFringe(a, Tree.lopsidedDifferentLast(1000), Long.MAX_VALUE));
        assertFalse(KotlinPeerKt.sameFringe(a, Tree.balanced(999), Long.MAX_VALUE));
        assertTrue(KotlinPeerKt.sameFringe(a, Tree.lopsidedDifferentLast(1000), 999));
    }
}
