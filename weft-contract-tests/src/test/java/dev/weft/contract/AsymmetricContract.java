package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Asymmetric coroutines (thesis 3.2.2): {@code call} and {@code ret}, the first input and the
 * final output, nesting, failures, iteration, and calls from symmetric coroutines.
 */
abstract class AsymmetricContract extends EngineContract {

    private <I, O> AsymCoroutine<I, O> asym(AsymRunnable<? super I, ? extends O> body) {
        return new AsymCoroutine<>(body, engine());
    }

    // ------------------------------------------------------------ call and ret

    /** Echoes each input back with a running count, and returns "done" when it gets "stop". */
    static final class Echo implements AsymRunnable<String, String> {
        private final List<String> seen;

        Echo(List<String> seen) {
            this.seen = seen;
        }

        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
            String in = first;
            for (int n = 1; !in.equals("stop"); n++) {
                seen.add(in);
                in = self.ret(in + n);
            }
            return "done";
        }
    }

    @Test
    void callPassesInputsAndReturnsWhatRetPassesOut() {
        List<String> seen = new ArrayList<>();
        AsymCoroutine<String, String> co = asym(new Echo(seen));
        assertSame(engine(), co.engine());
        assertEquals("a1", co.call("a"));
        assertEquals("b2", co.call("b"));
        assertEquals("c3", co.call("c"));
        assertFalse(co.isFinished());
        assertEquals("done", co.call("stop"));
        assertTrue(co.isFinished());
        assertEquals(List.of("a", "b", "c"), seen);
    }

    /** Adds each input to a sum it passes out; returns the sum negated after the third input. */
    static final class Summing extends AsymCoroutine<Integer, Integer> {
        Summing(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer input) {
            int sum = input;
            sum += ret(sum);
            sum += ret(sum);
            return -sum;
        }
    }

    @Test
    void subclassRunGetsTheFirstCallsInputAndItsReturnIsTheLastOutput() {
        AsymCoroutine<Integer, Integer> co = new Summing(engine());
        assertEquals(10, co.call(10));
        assertEquals(15, co.call(5));
        assertEquals(-16, co.call(1));
        assertTrue(co.isFinished());
    }

    @Test
    void aCoroutineWithoutCodeReturnsNullAndFinishes() {
        AsymCoroutine<String, String> co = new AsymCoroutine<>(engine());
        assertNull(co.call("x"));
        assertTrue(co.isFinished());
    }

    /** Takes any number, gives a string. */
    static final class Describes implements AsymRunnable<Number, String> {
        @Override
        public String run(AsymCoroutine<? extends Number, ? super String> self, Number n) {
            return "got " + n.intValue();
        }
    }

    @Test
    void variance_aRunnableOfWiderInputAndNarrowerOutputFits() {
        AsymRunnable<Number, String> runnable = new Describes();
        AsymCoroutine<Integer, Object> co = new AsymCoroutine<>(runnable, engine());
        assertEquals("got 7", co.call(7));
    }

    /** Returns {@code null} at once. */
    static final class ReturnsAtOnce<I, O> implements AsymRunnable<I, O> {
        @Override
        public O run(AsymCoroutine<? extends I, ? super O> self, I in) {
            return null;
        }
    }

    @Test
    void callingAFinishedCoroutineThrowsAndNamesIt() {
        AsymCoroutine<Void, Void> co = asym(new ReturnsAtOnce<Void, Void>());
        co.setName("short-lived");
        co.call(null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> co.call(null));
        assertTrue(e.getMessage().contains("short-lived") && e.getMessage().contains("finished"), e.getMessage());
    }

    /** Calls itself, and returns the refusal's message. */
    static final class CallsItself extends AsymCoroutine<Void, String> {
        CallsItself(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Void input) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> call(null));
            return e.getMessage();
        }
    }

    @Test
    void aCoroutineCannotCallItself() {
        AsymCoroutine<Void, String> co = new CallsItself(engine());
        co.setName("selfish");
        String message = co.call(null);
        assertTrue(message.contains("selfish") && message.contains("already running"), message);
        assertTrue(co.isFinished());
    }

    /** Calls the coroutine at {@code index} in {@code ring}, and returns its output. */
    static final class CallsTheRing implements AsymRunnable<Void, String> {
        private final List<AsymCoroutine<Void, String>> ring;
        private final int index;

        CallsTheRing(List<AsymCoroutine<Void, String>> ring, int index) {
            this.ring = ring;
            this.index = index;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            return ring.get(index).call(null);
        }
    }

    /** Calls the coroutine at {@code index} in {@code ring}, which must refuse; returns the refusal's message. */
    static final class RefusedByTheRing implements AsymRunnable<Void, String> {
        private final List<AsymCoroutine<Void, String>> ring;
        private final int index;

        RefusedByTheRing(List<AsymCoroutine<Void, String>> ring, int index) {
            this.ring = ring;
            this.index = index;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ring.get(index).call(null));
            return "b refused: " + e.getMessage();
        }
    }

    @Test
    void aCoroutineCannotCallItselfThroughOthers() {
        List<AsymCoroutine<Void, String>> ring = new ArrayList<>();
        AsymCoroutine<Void, String> a = asym(new CallsTheRing(ring, 1));
        AsymCoroutine<Void, String> b = asym(new RefusedByTheRing(ring, 0));
        a.setName("A");
        ring.add(a);
        ring.add(b);
        String result = a.call(null);
        assertTrue(result.startsWith("b refused: cannot call A") && result.contains("already running"), result);
        assertTrue(a.isFinished() && b.isFinished());
    }

    /** Passes out ten times each input, for ever, tracing each input. */
    static final class TimesTen implements AsymRunnable<Integer, Integer> {
        private final Trace trace;

        TimesTen(Trace trace) {
            this.trace = trace;
        }

        @Override
        public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer in) {
            int x = in;
            while (true) {
                trace.add("inner " + x);
                x = self.ret(x * 10);
            }
        }
    }

    /** Passes out what {@code inner} gives for each input plus one, for ever, tracing each input. */
    static final class CallsInner implements AsymRunnable<Integer, Integer> {
        private final Trace trace;
        private final AsymCoroutine<Integer, Integer> inner;

        CallsInner(Trace trace, AsymCoroutine<Integer, Integer> inner) {
            this.trace = trace;
            this.inner = inner;
        }

        @Override
        public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer in) {
            int x = in;
            while (true) {
                trace.add("outer " + x);
                x = self.ret(inner.call(x + 1));
            }
        }
    }

    @Test
    void nestedCallsReturnToTheirOwnCaller() {
        Trace trace = new Trace();
        AsymCoroutine<Integer, Integer> inner = asym(new TimesTen(trace));
        AsymCoroutine<Integer, Integer> outer = asym(new CallsInner(trace, inner));
        assertEquals(20, outer.call(1));
        assertEquals(60, outer.call(5));
        assertEquals(100, inner.call(10)); // the initial coroutine calls inner directly too
        assertEquals(List.of("outer 1", "inner 2", "outer 5", "inner 6", "inner 10"), trace.events());
    }

    /** Passes out "first", then returns "end". */
    static final class FirstThenEnd implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            self.ret("first");
            return "end";
        }
    }

    @Test
    void retMayOnlyBeCalledByTheRunningCoroutine() {
        AsymCoroutine<Void, String> idle = asym(new FirstThenEnd());
        idle.setName("idle");
        idle.call(null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> idle.ret("x"));
        assertTrue(e.getMessage().contains("idle"), e.getMessage());
        assertEquals("end", idle.call(null)); // unharmed
    }

    // ------------------------------------------------------------ failures

    /** Passes out "one", then throws {@code failure}. */
    static final class OneThenFails implements AsymRunnable<Void, String> {
        private final RuntimeException failure;

        OneThenFails(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            self.ret("one");
            throw failure;
        }
    }

    @Test
    void anUncaughtExceptionFinishesTheCoroutineAndComesOutOfCall() {
        UnsupportedOperationException boom = new UnsupportedOperationException("boom");
        AsymCoroutine<Void, String> co = asym(new OneThenFails(boom));
        assertEquals("one", co.call(null));
        assertSame(boom, assertThrows(UnsupportedOperationException.class, () -> co.call(null)));
        assertTrue(co.isFinished());
        assertThrows(IllegalStateException.class, () -> co.call(null));
    }

    @Test
    void anUncaughtExceptionOnTheThreadThatStoleItComesOutOfThatThreadsCall() throws Throwable {
        UnsupportedOperationException boom = new UnsupportedOperationException("boom");
        AsymCoroutine<Void, String> co = asym(new OneThenFails(boom));
        assertEquals("one", co.call(null));
        Throwable caught = OtherThread.call("thief", () -> {
            assertTrue(co.steal());
            return assertThrows(UnsupportedOperationException.class, () -> co.call(null));
        });
        assertSame(boom, caught);
        assertTrue(co.isFinished());
        assertThrows(IllegalStateException.class, co::steal);
    }

    /** Rets the exception it is given, and returns the next one: exceptions as values. */
    static final class PassesExceptionsOn implements AsymRunnable<Throwable, Throwable> {
        @Override
        public Throwable run(AsymCoroutine<? extends Throwable, ? super Throwable> self, Throwable first) {
            return self.ret(first);
        }
    }

    @Test
    void anExceptionPassedInOrOutAsAValueIsReturnedNotThrown() {
        IllegalStateException first = new IllegalStateException("first");
        ArithmeticException second = new ArithmeticException("second");
        AsymCoroutine<Throwable, Throwable> co = asym(new PassesExceptionsOn());
        assertSame(first, co.call(first));
        assertSame(second, co.call(second));
        assertTrue(co.isFinished());
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> co.call(first));
        assertTrue(refused.getMessage().contains(co.getName()) && refused.getMessage().contains("finished"),
                refused.getMessage());
    }

    /** Throws at once. */
    static final class FailsAtOnce implements AsymRunnable<Void, Void> {
        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            throw new ArithmeticException("deep");
        }
    }

    /** Calls {@code inner} and returns what it caught from it. */
    static final class CatchesInner implements AsymRunnable<Void, String> {
        private final AsymCoroutine<Void, Void> inner;

        CatchesInner(AsymCoroutine<Void, Void> inner) {
            this.inner = inner;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            try {
                inner.call(null);
                return "not reached";
            } catch (ArithmeticException e) {
                return "outer caught " + e.getMessage();
            }
        }
    }

    @Test
    void anExceptionPassesThroughNestedCallsOneCallerAtATime() {
        AsymCoroutine<Void, Void> inner = asym(new FailsAtOnce());
        AsymCoroutine<Void, String> outer = asym(new CatchesInner(inner));
        assertEquals("outer caught deep", outer.call(null));
    }

    // ------------------------------------------------------------ iteration (thesis figures 3.6 and 3.7)

    /** Passes out 1 to 4, each time checking that it was called with null, then returns 99. */
    static final class Counter implements AsymRunnable<Void, Integer> {
        @Override
        public Integer run(AsymCoroutine<? extends Void, ? super Integer> self, Void in) {
            for (int i = 1; i <= 4; i++) {
                assertNull(self.ret(i)); // the iterator calls with null
            }
            return 99;
        }
    }

    /** Passes out "a", null and "c", then returns "last". */
    static final class WithANull implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            self.ret("a");
            self.ret(null); // a null element is an element
            self.ret("c");
            return "last";
        }
    }

    /** Passes nothing out with {@code ret}: only its return. */
    static final class OnlyReturns implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            return "only the return";
        }
    }

    /** Every output of {@code co}, calling it with null until it finishes: thesis figure 3.6. */
    private static <O> List<O> callUntilFinished(AsymCoroutine<Void, O> co) {
        List<O> out = new ArrayList<>();
        while (!co.isFinished()) {
            out.add(co.call(null));
        }
        return out;
    }

    /** Every element of a for-each over {@code co}: thesis figure 3.7. */
    private static <O> List<O> iterate(AsymCoroutine<Void, O> co) {
        List<O> out = new ArrayList<>();
        for (O element : co) {
            out.add(element);
        }
        return out;
    }

    /**
     * Rets from one helper frame below its body, so that two frames are saved at each ret (on the
     * woven engine, a stack it rebuilds whole through the body): the helper passes out ten times
     * its input and returns the next input, or throws when that is 99, which the body answers
     * with the negated last input.
     */
    static final class OneFrameDown extends AsymCoroutine<Integer, Integer> {
        final List<String> events = new ArrayList<>();

        OneFrameDown(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer first) {
            int in = first;
            try {
                while (true) {
                    try {
                        in = helper(in);
                    } catch (IllegalStateException e) {
                        events.add("caught " + e.getMessage());
                        in = ret(-in);
                    }
                }
            } finally {
                events.add("body finally");
            }
        }

        private int helper(int x) {
            try {
                int next = ret(x * 10);
                if (next == 99) {
                    throw new IllegalStateException("99 after " + x);
                }
                return next;
            } finally {
                events.add("helper finally " + x);
            }
        }
    }

    @Test
    void aRetOneFrameBelowTheBodyResumesWithValuesExceptionsCloseAndItsFramesRestored() {
        OneFrameDown co = new OneFrameDown(engine());
        assertEquals(10, co.call(1));
        assertEquals(20, co.call(2));
        assertEquals(List.of("helper finally 1"), co.events);
        assertEquals(-2, co.call(99));
        assertEquals(List.of("helper finally 1", "helper finally 2", "caught 99 after 2"), co.events);
        assertEquals(30, co.call(3));

        CoroutineFrame[] frames = co.serialize();
        assertEquals(2, frames.length, Arrays.toString(frames));
        assertEquals("helper", frames[1].method.getName());
        OneFrameDown copy = new OneFrameDown(engine());
        copy.deserialize(SerializationContract.rehome(frames, co, copy));
        assertEquals(40, copy.call(4));
        assertEquals(List.of("helper finally 3"), copy.events);
        assertEquals(-4, copy.call(99));

        co.close();
        assertTrue(co.isFinished());
        assertEquals(List.of("helper finally 1", "helper finally 2", "caught 99 after 2", "helper finally 3", "body finally"),
                co.events);
        copy.close();
        assertEquals(List.of("helper finally 3", "helper finally 4", "caught 99 after 4", "body finally"), copy.events);
    }

    /** The same shape as a target, ret made on the coroutine it is given: its frames may go into a coroutine without a body. */
    static final class OneFrameDownTarget implements AsymRunnable<Integer, Integer> {
        final List<String> events = new ArrayList<>();

        @Override
        public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer first) {
            int in = first;
            while (true) {
                in = helper(self, in);
            }
        }

        private int helper(AsymCoroutine<? extends Integer, ? super Integer> self, int x) {
            try {
                return self.ret(x * 10);
            } finally {
                events.add("helper finally " + x);
            }
        }
    }

    @Test
    void twoFramesRestoredIntoACoroutineWithoutABodyRunTheCodeTheyName() {
        OneFrameDownTarget body = new OneFrameDownTarget();
        AsymCoroutine<Integer, Integer> original = asym(body);
        assertEquals(10, original.call(1));
        CoroutineFrame[] frames = original.serialize();
        assertEquals(2, frames.length, Arrays.toString(frames));

        AsymCoroutine<Integer, Integer> bare = new AsymCoroutine<>(engine());
        bare.deserialize(SerializationContract.rehome(frames, original, bare));
        assertEquals(20, bare.call(2));
        assertEquals(30, bare.call(3));
        assertEquals(List.of("helper finally 1", "helper finally 2"), body.events);
        bare.close();
        original.close();
        assertEquals(List.of("helper finally 1", "helper finally 2", "helper finally 3", "helper finally 1"), body.events);
    }

    /**
     * Thesis 3.2.2: an asymmetric coroutine is iterable with {@code hasNext()} being
     * {@code !isFinished()} and {@code next()} a call, so that a for-each loop produces exactly
     * what calling it until it has finished produces, the value {@code run} returns included.
     */
    @Test
    void forEachProducesWhatCallingUntilFinishedProducesIncludingTheReturnedValue() {
        List<Supplier<AsymCoroutine<Void, ?>>> generators = List.of(
                () -> asym(new Counter()), () -> asym(new WithANull()), () -> asym(new OnlyReturns()));
        List<List<Object>> called = new ArrayList<>();
        List<List<Object>> iterated = new ArrayList<>();
        for (Supplier<AsymCoroutine<Void, ?>> generator : generators) {
            called.add(new ArrayList<>(callUntilFinished(generator.get())));
            iterated.add(new ArrayList<>(iterate(generator.get())));
        }
        assertEquals(List.of(List.of(1, 2, 3, 4, 99), Arrays.asList("a", null, "c", "last"),
                List.of("only the return")), called);
        assertEquals(called, iterated);
    }

    @Test
    void iteratorProducesEveryRetValueOnceAndThenTheFinalReturn() {
        AsymCoroutine<Void, Integer> counter = asym(new Counter());
        assertEquals(List.of(1, 2, 3, 4, 99), iterate(counter));
        assertTrue(counter.isFinished());
    }

    @Test
    void iteratorHasNextIsIdempotentAndNextWithoutHasNextWorks() {
        AsymCoroutine<Void, String> gen = asym(new WithANull());
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
    void iteratorOfAGeneratorThatOnlyReturnsProducesItsReturnOnce() {
        AsymCoroutine<Void, String> gen = asym(new OnlyReturns());
        assertEquals(List.of("only the return"), iterate(gen));
    }

    // ------------------------------------------------------------ with symmetric coroutines

    /** Passes out each input in upper case, for ever. */
    static final class Upper implements AsymRunnable<String, String> {
        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String in) {
            String s = in;
            while (true) {
                s = self.ret(s.toUpperCase());
            }
        }
    }

    /** Calls {@code upper} with "a", yields, and calls it with "b", tracing what it gives. */
    static final class CallsUpper implements Runnable {
        private final Trace trace;
        private final AsymCoroutine<String, String> upper;

        CallsUpper(Trace trace, AsymCoroutine<String, String> upper) {
            this.trace = trace;
            this.upper = upper;
        }

        @Override
        public void run() {
            trace.add(upper.call("a"));
            Coroutine.yield();
            trace.add(upper.call("b"));
        }
    }

    @Test
    void symmetricCoroutinesMayCallAsymmetricOnes() {
        Trace trace = new Trace();
        AsymCoroutine<String, String> upper = asym(new Upper());
        new Coroutine(new CallsUpper(trace, upper), engine());
        Coroutine.yield();
        trace.add(upper.call("main"));
        Coroutine.yield();
        assertEquals(List.of("A", "MAIN", "B"), trace.events());
    }
}
