package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AsymCoroutineTest {

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    /** Echoes each input back with a running count, and returns "done" when it gets "stop". */
    private static AsymCoroutine<String, String> echo(List<String> seen) {
        return new AsymCoroutine<>((self, first) -> {
            String in = first;
            for (int n = 1; !in.equals("stop"); n++) {
                seen.add(in);
                in = self.ret(in + n);
            }
            return "done";
        });
    }

    @Test
    void callPassesInputsAndReturnsWhatRetPassesOut() {
        List<String> seen = new ArrayList<>();
        AsymCoroutine<String, String> co = echo(seen);
        assertEquals("a1", co.call("a"));
        assertEquals("b2", co.call("b"));
        assertEquals("c3", co.call("c"));
        assertFalse(co.isFinished());
        assertEquals("done", co.call("stop"));
        assertTrue(co.isFinished());
        assertEquals(List.of("a", "b", "c"), seen);
    }

    @Test
    void subclassRunGetsTheFirstCallsInputAndItsReturnIsTheLastOutput() {
        AsymCoroutine<Integer, Integer> co = new AsymCoroutine<>() {
            @Override
            protected Integer run(Integer input) {
                int sum = input;
                sum += ret(sum);
                sum += ret(sum);
                return -sum;
            }
        };
        assertEquals(10, co.call(10));
        assertEquals(15, co.call(5));
        assertEquals(-16, co.call(1));
        assertTrue(co.isFinished());
    }

    @Test
    void aCoroutineWithoutCodeReturnsNullAndFinishes() {
        AsymCoroutine<String, String> co = new AsymCoroutine<>();
        assertNull(co.call("x"));
        assertTrue(co.isFinished());
    }

    @Test
    void variance_aRunnableOfWiderInputAndNarrowerOutputFits() {
        AsymRunnable<Number, String> runnable = (self, n) -> "got " + n.intValue();
        AsymCoroutine<Integer, Object> co = new AsymCoroutine<>(runnable);
        assertEquals("got 7", co.call(7));
    }

    @Test
    void callingAFinishedCoroutineThrowsAndNamesIt() {
        AsymCoroutine<Void, Void> co = new AsymCoroutine<>((self, in) -> null);
        co.setName("short-lived");
        co.call(null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> co.call(null));
        assertTrue(e.getMessage().contains("short-lived") && e.getMessage().contains("finished"), e.getMessage());
    }

    @Test
    void aCoroutineCannotCallItself() {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>() {
            @Override
            protected String run(Void input) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> call(null));
                return e.getMessage();
            }
        };
        co.setName("selfish");
        String message = co.call(null);
        assertTrue(message.contains("selfish") && message.contains("already running"), message);
        assertTrue(co.isFinished());
    }

    @Test
    void aCoroutineCannotCallItselfThroughOthers() {
        List<AsymCoroutine<Void, String>> ring = new ArrayList<>();
        AsymCoroutine<Void, String> a = new AsymCoroutine<>((self, in) -> ring.get(1).call(null));
        AsymCoroutine<Void, String> b = new AsymCoroutine<>((self, in) -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ring.get(0).call(null));
            return "b refused: " + e.getMessage();
        });
        a.setName("A");
        ring.add(a);
        ring.add(b);
        String result = a.call(null);
        assertTrue(result.startsWith("b refused: cannot call A") && result.contains("already running"), result);
        assertTrue(a.isFinished() && b.isFinished());
    }

    @Test
    void nestedCallsReturnToTheirOwnCaller() {
        Trace trace = new Trace();
        AsymCoroutine<Integer, Integer> inner = new AsymCoroutine<>((self, in) -> {
            int x = in;
            while (true) {
                trace.add("inner " + x);
                x = self.ret(x * 10);
            }
        });
        AsymCoroutine<Integer, Integer> outer = new AsymCoroutine<>((self, in) -> {
            int x = in;
            while (true) {
                trace.add("outer " + x);
                x = self.ret(inner.call(x + 1));
            }
        });
        assertEquals(20, outer.call(1));
        assertEquals(60, outer.call(5));
        assertEquals(100, inner.call(10)); // the initial coroutine calls inner directly too
        assertEquals(List.of("outer 1", "inner 2", "outer 5", "inner 6", "inner 10"), trace.events());
    }

    @Test
    void retMayOnlyBeCalledByTheRunningCoroutine() {
        AsymCoroutine<Void, String> idle = new AsymCoroutine<>((self, in) -> {
            self.ret("first");
            return "end";
        });
        idle.setName("idle");
        idle.call(null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> idle.ret("x"));
        assertTrue(e.getMessage().contains("idle"), e.getMessage());
        assertEquals("end", idle.call(null)); // unharmed
    }

    @Test
    void anUncaughtExceptionFinishesTheCoroutineAndComesOutOfCall() {
        UnsupportedOperationException boom = new UnsupportedOperationException("boom");
        AsymCoroutine<Void, String> co = new AsymCoroutine<>((self, in) -> {
            self.ret("one");
            throw boom;
        });
        assertEquals("one", co.call(null));
        assertSame(boom, assertThrows(UnsupportedOperationException.class, () -> co.call(null)));
        assertTrue(co.isFinished());
        assertThrows(IllegalStateException.class, () -> co.call(null));
    }

    @Test
    void anExceptionPassesThroughNestedCallsOneCallerAtATime() {
        AsymCoroutine<Void, Void> inner = new AsymCoroutine<>((self, in) -> {
            throw new ArithmeticException("deep");
        });
        AsymCoroutine<Void, String> outer = new AsymCoroutine<>((self, in) -> {
            try {
                inner.call(null);
                return "not reached";
            } catch (ArithmeticException e) {
                return "outer caught " + e.getMessage();
            }
        });
        assertEquals("outer caught deep", outer.call(null));
    }

    @Test
    void iteratorProducesEveryRetValueOnceAndThenTheFinalReturn() {
        AsymCoroutine<Void, Integer> counter = new AsymCoroutine<>((self, in) -> {
            for (int i = 1; i <= 4; i++) {
                assertNull(self.ret(i)); // the iterator calls with null
            }
            return 99;
        });
        List<Integer> out = new ArrayList<>();
        for (Integer i : counter) {
            out.add(i);
        }
        assertEquals(List.of(1, 2, 3, 4, 99), out);
        assertTrue(counter.isFinished());
    }

    @Test
    void iteratorHasNextIsIdempotentAndNextWithoutHasNextWorks() {
        AsymCoroutine<Void, String> gen = new AsymCoroutine<>((self, in) -> {
            self.ret("a");
            self.ret(null); // a null element is an element
            self.ret("c");
            return "last";
        });
        Iterator<String> it = gen.iterator();
        assertTrue(it.hasNext());
        assertTrue(it.hasNext());
        assertEquals("a", it.next());
        assertNull(it.next());
        assertTrue(it.hasNext());
        assertEquals("c", it.next());
        assertTrue(it.hasNext());
        assertEquals("last", it.next());
        assertFalse(it.hasNext());
        assertFalse(it.hasNext());
        assertThrows(NoSuchElementException.class, it::next);
    }

    @Test
    void iteratorOfAGeneratorThatNeverRetsProducesWhatRunReturns() {
        AsymCoroutine<Void, String> gen = new AsymCoroutine<>((self, in) -> "only the return");
        List<String> out = new ArrayList<>();
        gen.forEach(out::add);
        assertEquals(List.of("only the return"), out);
    }

    @Test
    void symmetricCoroutinesMayCallAsymmetricOnes() {
        Trace trace = new Trace();
        AsymCoroutine<String, String> upper = new AsymCoroutine<>((self, in) -> {
            String s = in;
            while (true) {
                s = self.ret(s.toUpperCase());
            }
        });
        new Coroutine(() -> {
            trace.add(upper.call("a"));
            Coroutine.yield();
            trace.add(upper.call("b"));
        });
        Coroutine.yield();
        trace.add(upper.call("main"));
        Coroutine.yield();
        assertEquals(List.of("A", "MAIN", "B"), trace.events());
    }
}
