package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Mateu's same-fringe problem (section 9), solved with walker coroutines and by flattening. */
class SameFringeTest extends LeftoverCheck {

    private static final int N = SameFringe.LEAVES;
    private static final List<Integer> COUNTING = Arrays.stream(SameFringe.counting(N)).boxed().toList();

    /*
     * Depths: balanced, ceil(log2 100000) = 17 (the larger halves: 100000, 50000, ..., 4, 2, 1);
     * skewed, 29 (each right branch keeps n - n/3 leaves: 100000, 66667, 44445, ..., 2, 1; counted
     * with a separate script); comb, 2005: the last two teeth hang at depth 1999, and a balanced
     * tooth of 50 leaves is 6 deep (50, 25, 13, 7, 4, 2, 1). A walk that stops at leaf k of both
     * trees has pulled 2(k + 1) leaves; in the balanced tree leaf 0 is 16 deep (the smaller
     * halves: 100000, 50000, ..., 6, 3, 1) and leaves 1 and 2 are the 17-deep pair of that 3.
     */
    static final List<String> EXPECTED = List.of(
            "balanced: depth 17",
            "skewed: depth 29",
            "comb: depth 2005",
            "balanced, leaf 99998 changed: depth 17",
            "balanced, leaf 2 changed: depth 17",
            "balanced vs skewed: same fringe; coroutines pulled 200000 leaves (deepest ret at depth 29),"
                    + " flattening copied 200000",
            "balanced vs comb: same fringe; coroutines pulled 200000 leaves (deepest ret at depth 2005),"
                    + " flattening copied 200000",
            "balanced vs balanced, leaf 99998 changed: different fringe; coroutines pulled 199998 leaves"
                    + " (deepest ret at depth 17), flattening copied 200000",
            "balanced vs balanced, leaf 2 changed: different fringe; coroutines pulled 6 leaves"
                    + " (deepest ret at depth 17), flattening copied 200000");

    @Test
    void mainPrintsTheExactComparison() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> SameFringe.main(new String[0])));
    }

    @Test
    void theThreeShapesHaveTheSameFringeAndTheDepthsOfTheirDesign() {
        Tree balanced = Tree.balanced(SameFringe.counting(N));
        Tree skewed = Tree.skewed(SameFringe.counting(N));
        Tree comb = Tree.comb(SameFringe.counting(N), SameFringe.COMB_TEETH);
        assertEquals(COUNTING, Tree.flatten(balanced));
        assertEquals(COUNTING, Tree.flatten(skewed));
        assertEquals(COUNTING, Tree.flatten(comb));
        assertEquals(17, Tree.depth(balanced));
        assertEquals(29, Tree.depth(skewed));
        assertEquals(2005, Tree.depth(comb));
        assertFalse(balanced.equals(skewed), "records compare structurally: the shapes differ");
    }

    @Test
    void aWalkerPassesOutTheFringeInOrderThenNull() {
        Tree comb = Tree.comb(SameFringe.counting(N), SameFringe.COMB_TEETH);
        TreeWalker walker = new TreeWalker(comb);
        for (int i = 0; i < N; i++) {
            assertEquals(i, walker.call(null));
        }
        assertEquals(N, walker.leavesPulled());
        assertEquals(2005, walker.deepestRet(), "ret'ed from 2005 frames of recursion deep");
        assertFalse(walker.isFinished());
        assertNull(walker.call(null));
        assertTrue(walker.isFinished());
    }

    @Test
    void sameFringeDifferentShapesIsEqualBothWays() {
        Tree balanced = Tree.balanced(SameFringe.counting(N));
        Tree comb = Tree.comb(SameFringe.counting(N), SameFringe.COMB_TEETH);
        assertEquals(new SameFringe.Outcome(true, 2 * N, 2005), SameFringe.withCoroutines(balanced, comb));
        assertEquals(new SameFringe.Flattened(true, 2 * N), SameFringe.withFlattening(balanced, comb));
    }

    @Test
    void aDifferenceNearTheEndIsFoundAfterReadingAlmostEverything() {
        Tree a = Tree.skewed(SameFringe.counting(N));
        Tree b = Tree.balanced(SameFringe.countingExcept(N, N - 2));
        SameFringe.Outcome outcome = SameFringe.withCoroutines(a, b);
        assertFalse(outcome.same());
        assertEquals(2 * (N - 1), outcome.leavesPulled());
        assertFalse(SameFringe.withFlattening(a, b).same());
    }

    @Test
    void aDifferenceNearTheStartStopsTheWalkersEarly() {
        Tree a = Tree.comb(SameFringe.counting(N), SameFringe.COMB_TEETH);
        SameFringe.Outcome first = SameFringe.withCoroutines(a, Tree.balanced(SameFringe.countingExcept(N, 0)));
        assertEquals(new SameFringe.Outcome(false, 2, 16), first, "leaf 0: 16 deep in the balanced tree");
        SameFringe.Outcome third = SameFringe.withCoroutines(a, Tree.skewed(SameFringe.countingExcept(N, 2)));
        assertFalse(third.same());
        assertEquals(6, third.leavesPulled());
        SameFringe.Flattened flattened = SameFringe.withFlattening(a, Tree.skewed(SameFringe.countingExcept(N, 2)));
        assertEquals(new SameFringe.Flattened(false, 2 * N), flattened, "flattening always copies everything");
    }

    @Test
    void aTreeWhoseFringeIsAPrefixOfTheOthersIsDifferent() {
        Tree shorter = Tree.balanced(SameFringe.counting(N - 1));
        Tree longer = Tree.balanced(SameFringe.counting(N));
        SameFringe.Outcome outcome = SameFringe.withCoroutines(shorter, longer);
        assertFalse(outcome.same());
        assertEquals((N - 1) + N, outcome.leavesPulled(), "the shorter one ended where the longer had a leaf");
        assertFalse(SameFringe.withCoroutines(longer, shorter).same());
        assertFalse(SameFringe.withFlattening(shorter, longer).same());
    }
}
