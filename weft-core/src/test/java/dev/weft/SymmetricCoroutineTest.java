package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SymmetricCoroutineTest {

    private final Trace trace = new Trace();

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    private Coroutine looping(String name, int rounds) {
        Coroutine c = new Coroutine(() -> {
            for (int i = 1; i <= rounds; i++) {
                trace.add(name + i);
                Coroutine.yield();
            }
        });
        c.setName(name);
        return c;
    }

    @Test
    void figure32SubclassInterleavesWithTheInitialCoroutine() {
        new Coroutine() {
            @Override
            protected void run() {
                trace.add("Coroutine running 1");
                Coroutine.yield();
                trace.add("Coroutine running 2");
            }
        };
        trace.add("start");
        Coroutine.yield();
        trace.add("middle");
        Coroutine.yield();
        trace.add("end");
        assertEquals(List.of("start", "Coroutine running 1", "middle", "Coroutine running 2", "end"), trace.events());
    }

    @Test
    void figure33RunnableBehavesLikeTheSubclass() {
        Coroutine c = new Coroutine(() -> {
            trace.add("Coroutine running 1");
            Coroutine.yield();
            trace.add("Coroutine running 2");
        });
        trace.add("start");
        Coroutine.yield();
        trace.add("middle");
        assertFalse(c.isFinished());
        Coroutine.yield();
        trace.add("end");
        assertTrue(c.isFinished());
        assertFalse(c.isAlive());
        assertEquals(List.of("start", "Coroutine running 1", "middle", "Coroutine running 2", "end"), trace.events());
    }

    @Test
    void theInitialCoroutineIsACoroutine() {
        Coroutine initial = Coroutine.current();
        assertTrue(initial.isInitial());
        assertFalse(initial.isFinished());
        Coroutine[] seen = new Coroutine[1];
        new Coroutine(() -> {
            seen[0] = Coroutine.current();
            Coroutine.yieldTo(initial);
        });
        Coroutine.yield();
        assertFalse(seen[0].isInitial());
        assertSame(initial, Coroutine.current());
    }

    @Test
    void yieldWithNoOtherCoroutineReturnsAtOnce() {
        Coroutine.yield();
        Coroutine.yieldTo(Coroutine.current());
        assertTrue(Coroutine.current().isInitial());
    }

    @Test
    void aNewCoroutineIsInsertedAfterTheCurrentOneAndRunsNext() {
        looping("a", 2);
        looping("b", 2); // inserted right after the initial one: before a
        Coroutine.yield();
        trace.add("main");
        Coroutine.yield();
        trace.add("main");
        Coroutine.yield();
        assertEquals(List.of("b1", "a1", "main", "b2", "a2", "main"), trace.events());
    }

    @Test
    void yieldGoesRoundTheRingFirstComeFirstServed() {
        Coroutine c = looping("c", 3);
        Coroutine b = looping("b", 3);
        Coroutine a = looping("a", 3);
        for (int round = 0; round < 4; round++) {
            Coroutine.yield();
            trace.add("main");
        }
        assertEquals(List.of("a1", "b1", "c1", "main", "a2", "b2", "c2", "main", "a3", "b3", "c3", "main", "main"),
                trace.events());
        assertTrue(a.isFinished() && b.isFinished() && c.isFinished());
    }

    @Test
    void aCoroutineCreatedInsideAnotherRunsRightAfterIt() {
        new Coroutine(() -> {
            trace.add("outer1");
            Coroutine inner = new Coroutine(() -> trace.add("inner"));
            inner.setName("inner");
            Coroutine.yield();
            trace.add("outer2");
        });
        Coroutine.yield();
        trace.add("main");
        Coroutine.yield();
        assertEquals(List.of("outer1", "inner", "main", "outer2"), trace.events());
    }

    @Test
    void yieldToRunsTheTargetAndLeavesTheOrderOfTheOthers() {
        Coroutine d = looping("d", 3);
        Coroutine c = looping("c", 3);
        Coroutine b = looping("b", 3);
        looping("a", 3);
        // ring: main a b c d
        Coroutine.yieldTo(c); // c1, then c yields to d
        trace.add("main");
        Coroutine.yield(); // a b c d in order: a and b were skipped, not moved
        trace.add("main");
        assertEquals(List.of("c1", "d1", "main", "a1", "b1", "c2", "d2", "main"), trace.events());
        assertFalse(b.isFinished());
        assertFalse(d.isFinished());
    }

    @Test
    void aFinishedCoroutineLeavesTheRingAndControlPassesToTheNext() {
        Coroutine b = looping("b", 2);
        Coroutine a = new Coroutine(() -> trace.add("a-only"));
        // ring: main a b
        Coroutine.yield();
        trace.add("main");
        assertTrue(a.isFinished());
        Coroutine.yield();
        trace.add("main");
        Coroutine.yield();
        trace.add("main");
        assertEquals(List.of("a-only", "b1", "main", "b2", "main", "main"), trace.events());
        assertTrue(b.isFinished());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Coroutine.yieldTo(a));
        assertTrue(e.getMessage().contains(a.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("finished"), e.getMessage());
    }

    @Test
    void anUncaughtExceptionIsRethrownOutOfTheSwitchOfTheCoroutineThatSwitchedToIt() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        Coroutine failing = new Coroutine(() -> {
            trace.add("failing runs");
            throw boom;
        });
        Coroutine middle = new Coroutine(() -> {
            trace.add("middle runs");
            try {
                Coroutine.yieldTo(failing);
            } catch (IllegalArgumentException e) {
                trace.add("middle caught " + e.getMessage());
            }
            Coroutine.yield();
            trace.add("middle ends");
        });
        // ring: main middle failing
        Coroutine.yield();
        trace.add("main");
        assertTrue(failing.isFinished());
        Coroutine.yield();
        assertEquals(List.of("middle runs", "failing runs",
                "middle caught boom", "main", "middle ends"), trace.events());
        assertTrue(middle.isFinished());
    }

    @Test
    void anUncaughtExceptionReachesTheInitialCoroutineWhenItResumedTheFailure() {
        IllegalStateException boom = new IllegalStateException("boom");
        Coroutine failing = new Coroutine(() -> {
            Coroutine.yield();
            throw boom;
        });
        Coroutine.yield();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, Coroutine::yield);
        assertSame(boom, thrown);
        assertTrue(failing.isFinished());
        Coroutine.yield(); // the ring is whole: only the initial coroutine is left
    }

    @Test
    void aFailureWhoseSwitcherFinishedGoesToTheInitialCoroutine() {
        Error boom = new AssertionError("boom");
        new Coroutine(() -> trace.add("last"));
        new Coroutine(() -> {
            trace.add("fails");
            throw boom;
        });
        new Coroutine(() -> trace.add("finishes first")); // finishes; control passes to the failing one
        Error thrown = assertThrows(AssertionError.class, Coroutine::yield);
        assertSame(boom, thrown);
        assertEquals(List.of("finishes first", "fails"), trace.events());
        Coroutine.yield();
        assertEquals(List.of("finishes first", "fails", "last"), trace.events());
    }

    @Test
    void yieldInsideAnAsymmetricCoroutineIsRefused() {
        Coroutine other = new Coroutine(() -> trace.add("never"));
        AsymCoroutine<Void, String> asym = new AsymCoroutine<>((self, in) -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, Coroutine::yield);
            assertThrows(IllegalStateException.class, () -> Coroutine.yieldTo(other));
            return e.getMessage();
        });
        asym.setName("gen");
        String message = asym.call(null);
        assertTrue(message.contains("gen") && message.contains("asymmetric"), message);
        assertTrue(Coroutine.current().isInitial());
        assertEquals(List.of(), trace.events());
    }

    @Test
    void stackfulYieldFromDeepInACallChain() {
        new Coroutine(() -> recurse(200));
        Coroutine.yield();
        trace.add("main");
        Coroutine.yield();
        assertEquals(List.of("depth 200", "main", "back at 200"), trace.events());
    }

    private void recurse(int depth) {
        if (depth == 0) {
            return;
        }
        if (depth == 1) {
            trace.add("depth 200");
            Coroutine.yield();
            trace.add("back at 200");
            return;
        }
        recurse(depth - 1);
    }
}
