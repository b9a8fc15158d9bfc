package dev.weft.internal.woven;

import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a {@link Fiber} keeps saved frames, driven here as woven code and the engine drive it:
 * frames saved by one unwinding, innermost first, form a segment; a resume takes the innermost
 * frames of the top segment, and reads each frame's values right under its caller's; frames
 * saved while older ones are still saved form a segment above them; and the places of resumed
 * frames are used again, so that a coroutine switching at depth does not grow its fiber.
 */
class FiberSegmentsTest {

    private static final FiberAccess FIBERS = SharedAccess.fibers();
    private static final MethodHandle OUTER = handle("outer");
    private static final MethodHandle INNER = handle("inner");

    /** A saved frame as the test pushes it: its values in the order pushed, its site id, its kind. */
    private record Saved(String reference, long primitive, int site, MethodHandle twin) {
        static Saved level(int n) {
            return new Saved("level " + n, n, 100 + n, n % 2 == 0 ? OUTER : INNER);
        }
    }

    /** Unwinds {@code innermostFirst} into {@code fiber} as the twins' unwinding code does. */
    private static void unwind(Fiber fiber, List<Saved> innermostFirst) {
        FIBERS.startUnwinding(fiber);
        for (Saved s : innermostFirst) {
            fiber.pushObject(s.reference());
            fiber.pushLong(s.primitive());
            fiber.endFrame(FiberSegmentsTest.class, s.twin(), null, s.site());
        }
        FIBERS.finishUnwinding(fiber);
    }

    /**
     * Resumes {@code expectedOutermostFirst} together, as the engine and their prologues do: the
     * outermost pops its values and rebuilds its callee, and so on; the innermost takes {@code result}.
     */
    private static boolean resume(Fiber fiber, int count, List<Saved> expectedOutermostFirst, Object result) {
        boolean outermostOfAll = FIBERS.take(fiber, count, result, null);
        for (int k = 0; k < expectedOutermostFirst.size(); k++) {
            Saved s = expectedOutermostFirst.get(k);
            assertTrue(fiber.isResuming());
            assertEquals(s.site(), fiber.popInt(), "site of " + s.reference());
            assertEquals(s.primitive(), fiber.popLong(), "primitive of " + s.reference());
            assertEquals(s.reference(), fiber.popObject(), "reference of " + s.reference());
            assertEquals(k < expectedOutermostFirst.size() - 1, fiber.rewindsCallee(), "whether " + s.reference() + " rebuilds its callee");
        }
        assertSame(result, fiber.resumedObject());
        assertFalse(fiber.isResuming());
        FIBERS.afterResume(fiber);
        return outermostOfAll;
    }

    private static List<Saved> levels(int from, int to) {
        List<Saved> all = new ArrayList<>();
        for (int n = from; n <= to; n++) {
            all.add(Saved.level(n));
        }
        return all;
    }

    private static List<Saved> reversed(List<Saved> frames) {
        List<Saved> r = new ArrayList<>(frames);
        java.util.Collections.reverse(r);
        return r;
    }

    private static void assertFrames(Fiber fiber, List<Saved> outermostFirst) {
        assertEquals(outermostFirst.size(), FIBERS.frameCount(fiber), "saved frames of " + fiber);
        for (int f = 0; f < outermostFirst.size(); f++) {
            Saved s = outermostFirst.get(f);
            assertArrayEquals(new Object[] {s.reference()}, FIBERS.frameReferences(fiber, f), "references of frame " + f);
            assertArrayEquals(new long[] {s.primitive(), s.site()}, FIBERS.framePrimitives(fiber, f), "primitives of frame " + f);
            assertSame(s.twin(), FIBERS.frameTwin(fiber, f), "twin of frame " + f);
            assertSame(FiberSegmentsTest.class, FIBERS.frameClass(fiber, f));
        }
    }

    @Test
    void framesSavedByOneUnwindingAreReadOutermostFirst() {
        Fiber fiber = FIBERS.newFiber("one unwinding");
        FIBERS.enter(fiber);
        unwind(fiber, levels(0, 4));
        assertFrames(fiber, reversed(levels(0, 4)));
    }

    @Test
    void aResumeTakesTheInnermostFramesOfTheTopSegmentAndFramesSavedMeanwhileGoAboveTheRest() {
        Fiber fiber = FIBERS.newFiber("segments");
        FIBERS.enter(fiber);
        unwind(fiber, levels(0, 9));

        assertFalse(resume(fiber, 1, List.of(Saved.level(0)), "to level 0"));
        assertFrames(fiber, reversed(levels(1, 9)));
        assertFalse(resume(fiber, 3, reversed(levels(1, 3)), "to level 1"));
        assertFrames(fiber, reversed(levels(4, 9)));

        List<Saved> meanwhile = levels(20, 22); // level 4 called down again and suspended: new frames above
        unwind(fiber, meanwhile);
        List<Saved> all = new ArrayList<>(reversed(levels(4, 9)));
        all.addAll(reversed(meanwhile));
        assertFrames(fiber, all);

        assertFalse(resume(fiber, 32, reversed(meanwhile), "to level 20"), "a resume takes the top segment's frames only");
        assertFrames(fiber, reversed(levels(4, 9)));
        assertTrue(resume(fiber, 32, reversed(levels(4, 9)), "to level 4"), "the outermost frame of all is the body's");
        assertFalse(FIBERS.hasSavedFrames(fiber));
        assertEquals(0, FIBERS.frameCount(fiber));
    }

    @Test
    void segmentsStackSeveralDeepAndAreDroppedInTurn() {
        Fiber fiber = FIBERS.newFiber("three segments");
        FIBERS.enter(fiber);
        unwind(fiber, levels(0, 5));
        resume(fiber, 2, reversed(levels(0, 1)), "a");
        unwind(fiber, levels(10, 13));
        resume(fiber, 1, List.of(Saved.level(10)), "b");
        unwind(fiber, levels(30, 31));
        List<Saved> all = new ArrayList<>(reversed(levels(2, 5)));
        all.addAll(reversed(levels(11, 13)));
        all.addAll(reversed(levels(30, 31)));
        assertFrames(fiber, all);

        resume(fiber, 32, reversed(levels(30, 31)), "c");
        resume(fiber, 32, reversed(levels(11, 13)), "d");
        assertFrames(fiber, reversed(levels(2, 5)));
        assertTrue(resume(fiber, 32, reversed(levels(2, 5)), "e"));
        assertFalse(FIBERS.hasSavedFrames(fiber));
    }

    @Test
    void aCoroutineSwitchingAtDepthReusesThePlacesOfTheFramesItResumes() {
        Fiber fiber = FIBERS.newFiber("parked");
        FIBERS.enter(fiber);
        unwind(fiber, levels(0, 199));
        resume(fiber, 1, List.of(Saved.level(0)), "first");
        unwind(fiber, List.of(Saved.level(0)));
        String afterOneSwitch = fiber.toString();
        for (int i = 0; i < 1_000; i++) {
            resume(fiber, 1, List.of(Saved.level(0)), i);
            unwind(fiber, List.of(Saved.level(0)));
        }
        assertEquals(afterOneSwitch, fiber.toString(), "the saved values take the same room after 1,000 more switches");
        List<Saved> expected = new ArrayList<>(reversed(levels(1, 199)));
        expected.add(Saved.level(0));
        assertFrames(fiber, expected);
    }

    @Test
    void discardedFramesLeaveAnEmptyFiberThatSavesAnew() {
        Fiber fiber = FIBERS.newFiber("discarded");
        FIBERS.enter(fiber);
        unwind(fiber, levels(0, 3));
        resume(fiber, 1, List.of(Saved.level(0)), "x");
        unwind(fiber, levels(5, 6));
        FIBERS.discardSavedFrames(fiber);
        assertFalse(FIBERS.hasSavedFrames(fiber));
        assertEquals(0, FIBERS.frameCount(fiber));
        FIBERS.enter(fiber);
        unwind(fiber, levels(7, 8));
        assertFrames(fiber, reversed(levels(7, 8)));
    }

    @Test
    void aFrameNumberPastTheSavedOnesIsRefusedNamingTheFiber() {
        Fiber fiber = FIBERS.newFiber("short stack");
        FIBERS.enter(fiber);
        unwind(fiber, levels(0, 1));
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> FIBERS.frameReferences(fiber, 2));
        assertTrue(e.getMessage().contains("frame 2 of 2") && e.getMessage().contains("short stack"), e.getMessage());
        assertFrames(fiber, reversed(levels(0, 1)));
    }

    @Test
    void framesAddedInnermostFirstAreResumedAsIfTheyHadUnwound() {
        Fiber fiber = FIBERS.newFiber("written");
        FIBERS.discardSavedFrames(fiber);
        for (Saved s : levels(0, 3)) {
            FIBERS.addSavedFrame(fiber, Twins.methodOf(FiberSegmentsTest.class, s.twin()), null,
                    new Object[] {s.reference()}, new int[] {0}, new long[] {s.primitive()}, new int[] {0}, s.site());
        }
        assertEquals(4, FIBERS.frameCount(fiber));
        assertArrayEquals(new Object[] {"level 3"}, FIBERS.frameReferences(fiber, 0), "the last added is the outermost");
        assertFalse(resume(fiber, 1, List.of(Saved.level(0)), "y"));
        assertTrue(resume(fiber, 32, reversed(levels(1, 3)), "z"));
    }

    // The methods of the test's frames and their twins, named as the weaver names them; called by no one.

    @SuppressWarnings("unused")
    private static Object outer() {
        return null;
    }

    @SuppressWarnings("unused")
    private static Object outer$weft(Fiber fiber) {
        return null;
    }

    @SuppressWarnings("unused")
    private static Object inner() {
        return null;
    }

    @SuppressWarnings("unused")
    private static Object inner$weft(Fiber fiber) {
        return null;
    }

    private static MethodHandle handle(String name) {
        try {
            return MethodHandles.lookup().findStatic(FiberSegmentsTest.class, name + "$weft", MethodType.methodType(Object.class, Fiber.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
