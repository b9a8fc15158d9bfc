package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.Engine;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Symmetric coroutines (thesis 3.2.1): the ring of each thread, {@code yield} and
 * {@code yieldTo}, uncaught exceptions, and suspension from deep in a call chain.
 */
abstract class SymmetricContract extends EngineContract {

    private final Trace trace = new Trace();

    // ------------------------------------------------------------ bodies

    /** Adds {@code event} to the trace. */
    final class Adds implements Runnable {
        private final String event;

        Adds(String event) {
            this.event = event;
        }

        @Override
        public void run() {
            trace.add(event);
        }
    }

    /** Adds its name and round to the trace and yields, {@code rounds} times. */
    final class Looping implements Runnable {
        private final String name;
        private final int rounds;

        Looping(String name, int rounds) {
            this.name = name;
            this.rounds = rounds;
        }

        @Override
        public void run() {
            for (int i = 1; i <= rounds; i++) {
                trace.add(name + i);
                Coroutine.yield();
            }
        }
    }

    /** Adds {@code event} to the trace, then throws {@code failure}. */
    final class Fails implements Runnable {
        private final String event;
        private final Throwable failure;

        Fails(String event, Throwable failure) {
            this.event = event;
            this.failure = failure;
        }

        @Override
        public void run() {
            trace.add(event);
            throw rethrow(failure);
        }
    }

    /** Thesis figure 3.2: a subclass whose {@code run} is the coroutine's code. */
    final class Figure32 extends Coroutine {
        Figure32(Engine engine) {
            super(engine);
        }

        @Override
        protected void run() {
            trace.add("Coroutine running 1");
            Coroutine.yield();
            trace.add("Coroutine running 2");
        }
    }

    /** Thesis figure 3.3: the same code as a {@code Runnable}. */
    final class Figure33 implements Runnable {
        @Override
        public void run() {
            trace.add("Coroutine running 1");
            Coroutine.yield();
            trace.add("Coroutine running 2");
        }
    }

    private Coroutine looping(String name, int rounds) {
        Coroutine c = new Coroutine(new Looping(name, rounds), engine());
        c.setName(name);
        return c;
    }

    // ------------------------------------------------------------ the thesis's figures

    @Test
    void figure32SubclassInterleavesWithTheInitialCoroutine() {
        Coroutine co = new Figure32(engine());
        assertSame(engine(), co.engine());
        trace.add("start");
        Coroutine.yield();
        trace.add("middle");
        Coroutine.yield();
        trace.add("end");
        assertEquals(List.of("start", "Coroutine running 1", "middle", "Coroutine running 2", "end"), trace.events());
    }

    @Test
    void figure33RunnableBehavesLikeTheSubclass() {
        Coroutine c = new Coroutine(new Figure33(), engine());
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

    // ------------------------------------------------------------ the ring

    /** Records the coroutine it runs in, and yields to {@code initial}. */
    static final class SeesItself implements Runnable {
        private final Coroutine initial;
        Coroutine seen;

        SeesItself(Coroutine initial) {
            this.initial = initial;
        }

        @Override
        public void run() {
            seen = Coroutine.current();
            Coroutine.yieldTo(initial);
        }
    }

    @Test
    void theInitialCoroutineIsACoroutine() {
        Coroutine initial = Coroutine.current();
        assertTrue(initial.isInitial());
        assertFalse(initial.isFinished());
        SeesItself body = new SeesItself(initial);
        new Coroutine(body, engine());
        Coroutine.yield();
        assertFalse(body.seen.isInitial());
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

    /** Creates a coroutine named inner, on its own engine, between two steps of its own. */
    final class CreatesAnother implements Runnable {
        private final Engine engine;

        CreatesAnother(Engine engine) {
            this.engine = engine;
        }

        @Override
        public void run() {
            trace.add("outer1");
            Coroutine inner = new Coroutine(new Adds("inner"), engine);
            inner.setName("inner");
            Coroutine.yield();
            trace.add("outer2");
        }
    }

    @Test
    void aCoroutineCreatedInsideAnotherRunsRightAfterIt() {
        new Coroutine(new CreatesAnother(engine()), engine());
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
        Coroutine a = new Coroutine(new Adds("a-only"), engine());
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

    // ------------------------------------------------------------ failures

    /** Yields to {@code failing} and catches what it throws, then yields once more. */
    final class CatchesTheFailure implements Runnable {
        private final Coroutine failing;

        CatchesTheFailure(Coroutine failing) {
            this.failing = failing;
        }

        @Override
        public void run() {
            trace.add("middle runs");
            try {
                Coroutine.yieldTo(failing);
            } catch (IllegalArgumentException e) {
                trace.add("middle caught " + e.getMessage());
            }
            Coroutine.yield();
            trace.add("middle ends");
        }
    }

    @Test
    void anUncaughtExceptionIsRethrownOutOfTheSwitchOfTheCoroutineThatSwitchedToIt() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        Coroutine failing = new Coroutine(new Fails("failing runs", boom), engine());
        Coroutine middle = new Coroutine(new CatchesTheFailure(failing), engine());
        // ring: main middle failing
        Coroutine.yield();
        trace.add("main");
        assertTrue(failing.isFinished());
        Coroutine.yield();
        assertEquals(List.of("middle runs", "failing runs",
                "middle caught boom", "main", "middle ends"), trace.events());
        assertTrue(middle.isFinished());
    }

    /** Yields once, then throws {@code failure}. */
    static final class YieldsThenFails implements Runnable {
        private final RuntimeException failure;

        YieldsThenFails(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void run() {
            Coroutine.yield();
            throw failure;
        }
    }

    @Test
    void anUncaughtExceptionReachesTheInitialCoroutineWhenItResumedTheFailure() {
        IllegalStateException boom = new IllegalStateException("boom");
        Coroutine failing = new Coroutine(new YieldsThenFails(boom), engine());
        Coroutine.yield();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, Coroutine::yield);
        assertSame(boom, thrown);
        assertTrue(failing.isFinished());
        Coroutine.yield(); // the ring is whole: only the initial coroutine is left
    }

    @Test
    void aFailureWhoseSwitcherFinishedGoesToTheInitialCoroutine() {
        Error boom = new AssertionError("boom");
        new Coroutine(new Adds("last"), engine());
        new Coroutine(new Fails("fails", boom), engine());
        new Coroutine(new Adds("finishes first"), engine()); // finishes; control passes to the failing one
        Error thrown = assertThrows(AssertionError.class, Coroutine::yield);
        assertSame(boom, thrown);
        assertEquals(List.of("finishes first", "fails"), trace.events());
        Coroutine.yield();
        assertEquals(List.of("finishes first", "fails", "last"), trace.events());
    }

    /** Tries {@code yield} and then {@code yieldTo(other)} inside an asymmetric coroutine; returns the first refusal's message. */
    static final class TriesToYield implements AsymRunnable<Void, String> {
        private final Coroutine other;

        TriesToYield(Coroutine other) {
            this.other = other;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            String refusal;
            try {
                Coroutine.yield();
                return "yield was not refused";
            } catch (IllegalStateException e) {
                refusal = e.getMessage();
            }
            try {
                Coroutine.yieldTo(other);
                return "yieldTo was not refused";
            } catch (IllegalStateException e) {
                return refusal;
            }
        }
    }

    @Test
    void yieldInsideAnAsymmetricCoroutineIsRefused() {
        Coroutine other = new Coroutine(new Adds("never"), engine());
        AsymCoroutine<Void, String> asym = new AsymCoroutine<>(new TriesToYield(other), engine());
        asym.setName("gen");
        String message = asym.call(null);
        assertTrue(message.contains("gen") && message.contains("asymmetric"), message);
        assertTrue(Coroutine.current().isInitial());
        assertEquals(List.of(), trace.events());
    }

    // ------------------------------------------------------------ stackful

    /** Calls {@link #recurse} 200 deep. */
    final class Recursing implements Runnable {
        @Override
        public void run() {
            recurse(200);
        }
    }

    @Test
    void stackfulYieldFromDeepInACallChain() {
        new Coroutine(new Recursing(), engine());
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

    // ------------------------------------------------------------ where the engines differ

    /** Yields inside a callback that JDK code calls, twice, and records a refusal if there is one. */
    final class YieldsInACallback implements Runnable {
        @Override
        public void run() {
            try {
                List.of("x", "y").forEach(s -> {
                    trace.add("in callback " + s);
                    Coroutine.yield();
                });
                trace.add("callback done");
            } catch (IllegalStateException refused) {
                trace.add("refused: " + refused.getMessage());
            }
        }
    }

    @Test
    void aYieldInsideAJdkCallback() {
        Coroutine co = new Coroutine(new YieldsInACallback(), engine());
        co.setName("in-callback");
        for (int i = 0; i < 3; i++) {
            Coroutine.yield();
            trace.add("main");
        }
        assertTrue(co.isFinished());
        expectYieldInsideAJdkCallback(trace.events());
    }

    /**
     * What {@link #aYieldInsideAJdkCallback} leaves in the trace: by default, the callback
     * suspends like any other code, so the coroutine and the initial one take turns.
     */
    void expectYieldInsideAJdkCallback(List<String> events) {
        assertEquals(List.of("in callback x", "main", "in callback y", "main", "callback done", "main"), events);
    }
}
