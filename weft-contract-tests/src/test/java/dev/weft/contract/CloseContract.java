package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineExitException;
import dev.weft.Engine;
import java.lang.ref.WeakReference;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Closing (thesis 4.2.8): {@code close} delivers {@link CoroutineExitException} at the
 * suspension point so that {@code finally} blocks run; {@code closeAll} and {@code draining}
 * close what a thread leaves behind.
 */
abstract class CloseContract extends EngineContract {

    private final Trace trace = new Trace();

    private <I, O> AsymCoroutine<I, O> asym(AsymRunnable<? super I, ? extends O> body) {
        return new AsymCoroutine<>(body, engine());
    }

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

    /** Adds {@code event} to the trace, and returns null. */
    final class AddsAndReturns implements AsymRunnable<Void, Void> {
        private final String event;

        AddsAndReturns(String event) {
            this.event = event;
        }

        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            trace.add(event);
            return null;
        }
    }

    /** Yields once, then adds {@code event} to the trace in a {@code finally} block. */
    final class YieldsThenFinally implements Runnable {
        private final String event;

        YieldsThenFinally(String event) {
            this.event = event;
        }

        @Override
        public void run() {
            try {
                Coroutine.yield();
            } finally {
                trace.add(event);
            }
        }
    }

    /** Passes out null once, then adds {@code event} to the trace in a {@code finally} block. */
    final class RetsThenFinally implements AsymRunnable<Void, Void> {
        private final String event;

        RetsThenFinally(String event) {
            this.event = event;
        }

        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            try {
                self.ret(null);
            } finally {
                trace.add(event);
            }
            return null;
        }
    }

    // ------------------------------------------------------------ close

    /** Rets its round number until it is closed, then adds {@code event}. */
    final class RetsUntilClosed implements AsymRunnable<Void, Integer> {
        private final String event;

        RetsUntilClosed(String event) {
            this.event = event;
        }

        @Override
        public Integer run(AsymCoroutine<? extends Void, ? super Integer> self, Void in) {
            try {
                for (int round = 1; ; round++) {
                    self.ret(round);
                }
            } finally {
                trace.add(event);
            }
        }
    }

    /**
     * A coroutine moved to another thread and back many times suspends as before (the request to
     * exit shares a word with the count of moves), and exits once, through its finally block,
     * when closed.
     */
    @Test
    void aCoroutineMovedAwayAndBackManyTimesStillSuspendsAndExitsOnceWhenClosed() throws Throwable {
        AsymCoroutine<Void, Integer> co = asym(new RetsUntilClosed("closed"));
        assertEquals(1, co.call(null));
        for (int move = 1; move <= 20; move++) {
            OtherThread.run("thief", () -> assertTrue(co.steal()));
            assertTrue(co.steal());
            assertEquals(move + 1, co.call(null));
        }
        assertEquals(List.of(), trace.events());
        co.close();
        assertEquals(List.of("closed"), trace.events());
        assertTrue(co.isFinished());
        co.close();
        assertEquals(List.of("closed"), trace.events(), "closing a finished coroutine runs nothing");
    }

    /** Suspends inside two try blocks, each with a finally block. */
    final class TwoFinallies implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            try {
                try {
                    self.ret("suspended");
                    trace.add("not reached");
                } finally {
                    trace.add("inner finally");
                }
            } finally {
                trace.add("outer finally");
            }
            return "not reached";
        }
    }

    @Test
    void closingASuspendedAsymmetricCoroutineRunsItsFinallyBlocks() {
        AsymCoroutine<Void, String> co = asym(new TwoFinallies());
        assertEquals("suspended", co.call(null));
        co.close();
        assertTrue(co.isFinished());
        assertEquals(List.of("inner finally", "outer finally"), trace.events());
        co.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> co.call(null));
    }

    /** Yields once inside a try block whose finally block traces. */
    final class YieldsInTry implements Runnable {
        @Override
        public void run() {
            try {
                Coroutine.yield();
                trace.add("not reached");
            } finally {
                trace.add("finally");
            }
        }
    }

    @Test
    void closingASuspendedSymmetricCoroutineRunsItsFinallyAndReturnsToTheCloser() {
        Coroutine co = new Coroutine(new YieldsInTry(), engine());
        Coroutine other = new Coroutine(new Adds("other"), engine());
        // ring: main other co
        Coroutine.yieldTo(co);
        co.close();
        trace.add("closer");
        assertTrue(co.isFinished());
        Coroutine.yield(); // co has left the ring; other still runs
        assertEquals(List.of("finally", "closer", "other"), trace.events());
        assertTrue(other.isFinished());
    }

    /** Catches the exit exception, tries to suspend again, and ends normally. */
    final class Stubborn implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            try {
                self.ret("first");
            } catch (CoroutineExitException e) {
                trace.add("caught " + e.getMessage());
                try {
                    self.ret("second");
                    fail("suspended again while being closed");
                } catch (CoroutineExitException again) {
                    trace.add("again " + again.getMessage());
                }
            }
            trace.add("ends");
            return "end";
        }
    }

    @Test
    void theExitExceptionCanBeObservedButTheCoroutineCannotSuspendAgain() {
        AsymCoroutine<Void, String> stubborn = asym(new Stubborn());
        stubborn.setName("stubborn");
        stubborn.call(null);
        stubborn.close();
        assertEquals(List.of("caught stubborn is being closed", "again stubborn is being closed", "ends"), trace.events());
    }

    /** Suspends in a try block whose finally block throws {@code failure}. */
    static final class ThrowsInFinally implements AsymRunnable<Void, Void> {
        private final RuntimeException failure;

        ThrowsInFinally(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        @SuppressWarnings("finally")
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            try {
                self.ret(null);
            } finally {
                throw failure;
            }
        }
    }

    @Test
    void anExceptionThrownWhileExitingComesOutOfClose() {
        IllegalStateException fromFinally = new IllegalStateException("from finally");
        AsymCoroutine<Void, Void> co = asym(new ThrowsInFinally(fromFinally));
        co.call(null);
        assertSame(fromFinally, assertThrows(IllegalStateException.class, co::close));
        assertTrue(co.isFinished());
    }

    @Test
    void closingANewCoroutineFinishesItWithoutRunningIt() {
        Coroutine sym = new Coroutine(new Adds("never"), engine());
        AsymCoroutine<Void, Void> asym = asym(new AddsAndReturns("never"));
        sym.close();
        asym.close();
        assertTrue(sym.isFinished() && asym.isFinished());
        Coroutine.yield();
        assertEquals(List.of(), trace.events());
    }

    /** Tries to close itself; returns the refusal's message. */
    static final class ClosesItself extends AsymCoroutine<Void, String> {
        ClosesItself(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Void input) {
            return assertThrows(IllegalStateException.class, this::close).getMessage();
        }
    }

    @Test
    void aRunningCoroutineOrTheInitialOneCannotBeClosed() {
        AsymCoroutine<Void, String> co = new ClosesItself(engine());
        co.setName("self-closer");
        String message = co.call(null);
        assertTrue(message.contains("self-closer") && message.contains("running"), message);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Coroutine.current().close());
        assertTrue(e.getMessage().contains("initial"), e.getMessage());
    }

    /** Closes {@code victim}, then goes on. */
    final class Closer implements AsymRunnable<Void, Void> {
        private final CoroutineBase victim;

        Closer(CoroutineBase victim) {
            this.victim = victim;
        }

        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            victim.close();
            trace.add("closer continues");
            return null;
        }
    }

    @Test
    void aCoroutineMayCloseAnotherFromInsideACoroutine() {
        AsymCoroutine<Void, Void> victim = asym(new RetsThenFinally("victim finally"));
        victim.call(null);
        AsymCoroutine<Void, Void> closer = asym(new Closer(victim));
        closer.call(null);
        assertEquals(List.of("victim finally", "closer continues"), trace.events());
    }

    // ------------------------------------------------------------ closeAll and draining

    @Test
    void closeAllClosesEveryCoroutineOfTheThreadInRingOrderThenAsymmetricOnes() {
        for (String name : List.of("s3", "s2", "s1")) {
            new Coroutine(new YieldsThenFinally(name), engine());
        }
        Coroutine.yield(); // all three suspended
        AsymCoroutine<Void, Void> a = asym(new RetsThenFinally("a"));
        a.call(null);
        assertEquals(4, CoroutineBase.closeAll());
        assertEquals(List.of("s1", "s2", "s3", "a"), trace.events());
        assertEquals(0, CoroutineBase.closeAll());
    }

    /**
     * Thesis 4.2.8: when a thread's work ends, every coroutine it still has is closed, whether
     * or not it ever ran: an asymmetric coroutine that was never called finishes without
     * running, and is counted like the others.
     */
    @Test
    void closeAllClosesAnAsymmetricCoroutineThatWasNeverCalled() {
        AsymCoroutine<Void, Void> never = asym(new AddsAndReturns("never"));
        AsymCoroutine<Void, Void> started = asym(new RetsThenFinally("started"));
        started.call(null);
        assertEquals(2, CoroutineBase.closeAll());
        assertTrue(never.isFinished(), never.toString());
        assertTrue(started.isFinished());
        assertEquals(List.of("started"), trace.events());
        assertEquals(0, CoroutineBase.closeAll());
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> never.call(null));
        assertTrue(refused.getMessage().contains("closeAll() closed it before it was ever called"), refused.getMessage());
        assertEquals(List.of("started"), trace.events(), "its body never ran");
        assertFalse(never.iterator().hasNext());
    }

    /** A coroutine created after a closeAll() is not closed by it. */
    @Test
    void aCoroutineCreatedAfterCloseAllRuns() {
        CoroutineBase.closeAll();
        AsymCoroutine<Void, Void> later = asym(new AddsAndReturns("later"));
        assertFalse(later.isFinished());
        later.call(null);
        assertTrue(later.isFinished());
        assertEquals(List.of("later"), trace.events());
    }

    /** Never-called coroutines are counted once, by the thread that has them: closed, stolen or started ones are not. */
    @Test
    void closeAllCountsTheNeverCalledCoroutinesItStillHas() throws Exception {
        asym(new AddsAndReturns("one"));
        asym(new AddsAndReturns("two"));
        AsymCoroutine<Void, Void> closed = asym(new AddsAndReturns("closed"));
        closed.close();
        AsymCoroutine<Void, Void> ran = asym(new AddsAndReturns("ran"));
        ran.call(null);
        AsymCoroutine<Void, Void> stolen = asym(new AddsAndReturns("stolen"));
        int[] closedByThief = new int[1];
        Thread thief = new Thread(() -> {
            stolen.steal();
            closedByThief[0] = CoroutineBase.closeAll();
        });
        thief.start();
        thief.join();
        assertEquals(1, closedByThief[0]);
        assertTrue(stolen.isFinished());
        assertEquals(2, CoroutineBase.closeAll());
        assertEquals(0, CoroutineBase.closeAll());
        assertEquals(List.of("ran"), trace.events());
    }

    /** A never-called coroutine closed by closeAll() cannot be stolen back to life by another thread. */
    @Test
    void aNeverCalledCoroutineClosedByCloseAllCannotBeStolen() throws Exception {
        AsymCoroutine<Void, Void> never = asym(new AddsAndReturns("never"));
        CoroutineBase.closeAll();
        Throwable[] seen = new Throwable[1];
        Thread thief = new Thread(() -> {
            try {
                never.steal();
            } catch (Throwable t) {
                seen[0] = t;
            }
        });
        thief.start();
        thief.join();
        assertTrue(seen[0] instanceof IllegalStateException, String.valueOf(seen[0]));
        assertTrue(seen[0].getMessage().contains("it has finished"), seen[0].getMessage());
    }

    /**
     * closeAll() closes each suspended asymmetric coroutine of the thread once: not those that
     * finished (however many), not one another thread stole, and one stolen away and back once.
     */
    @Test
    void closeAllClosesEachSuspendedAsymmetricCoroutineOnceWhateverBecameOfTheOthers() throws Exception {
        for (int i = 0; i < 200; i++) { // enough to sweep the list of started coroutines a few times
            AsymCoroutine<Void, Void> done = asym(new RetsThenFinally("finished"));
            done.call(null);
            done.call(null);
            assertTrue(done.isFinished());
        }
        AsymCoroutine<Void, Void> kept = asym(new RetsThenFinally("kept"));
        AsymCoroutine<Void, Void> gone = asym(new RetsThenFinally("gone"));
        AsymCoroutine<Void, Void> back = asym(new RetsThenFinally("back"));
        for (AsymCoroutine<Void, Void> c : List.of(kept, gone, back)) {
            c.call(null);
        }
        OtherThreadSteals thief = new OtherThreadSteals(List.of(gone, back));
        thief.start();
        thief.join();
        assertTrue(thief.stole);
        assertTrue(back.steal(), "stolen back");
        int finished = trace.events().size();

        assertEquals(2, CoroutineBase.closeAll());
        assertEquals(List.of("kept", "back"), trace.events().subList(finished, finished + 2));
        assertTrue(kept.isFinished() && back.isFinished());
        assertFalse(gone.isFinished(), "another thread's: left alone");

        assertTrue(gone.steal());
        assertEquals(1, CoroutineBase.closeAll());
        assertEquals(List.of("kept", "back", "gone"), trace.events().subList(finished, trace.events().size()));
    }

    /** A thread that steals some coroutines and ends with them suspended. */
    static final class OtherThreadSteals extends Thread {
        private final List<AsymCoroutine<Void, Void>> victims;
        volatile boolean stole;

        OtherThreadSteals(List<AsymCoroutine<Void, Void>> victims) {
            super("thief");
            this.victims = victims;
        }

        @Override
        public void run() {
            boolean all = true;
            for (AsymCoroutine<Void, Void> v : victims) {
                all &= v.steal();
            }
            stole = all;
        }
    }

    /** A suspended coroutine that nothing refers to any more is collected, and closeAll() does not count it. */
    @Test
    void closeAllDoesNotCountASuspendedCoroutineThatWasCollected() throws InterruptedException {
        WeakReference<AsymCoroutine<Void, Void>> dropped = suspendedAndDropped();
        for (int i = 0; i < 50 && dropped.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(dropped.get(), "the suspended coroutine was not collected");
        assertEquals(0, CoroutineBase.closeAll());
        assertEquals(List.of(), trace.events(), "its finally block never ran");
    }

    private WeakReference<AsymCoroutine<Void, Void>> suspendedAndDropped() {
        AsymCoroutine<Void, Void> c = asym(new RetsThenFinally("dropped"));
        c.call(null);
        return new WeakReference<>(c);
    }

    /** Yields once, then traces {@code event} and throws {@code failure} in a finally block. */
    final class FailsInFinally implements Runnable {
        private final String event;
        private final RuntimeException failure;

        FailsInFinally(String event, RuntimeException failure) {
            this.event = event;
            this.failure = failure;
        }

        @Override
        @SuppressWarnings("finally")
        public void run() {
            try {
                Coroutine.yield();
            } finally {
                trace.add(event);
                throw failure;
            }
        }
    }

    @Test
    void closeAllKeepsClosingWhenOneThrowsAndThrowsAtTheEnd() {
        new Coroutine(new FailsInFinally("second", new IllegalStateException("second fails")), engine());
        new Coroutine(new FailsInFinally("first", new IllegalArgumentException("first fails")), engine());
        Coroutine.yield();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CoroutineBase::closeAll);
        assertEquals("first fails", e.getMessage());
        assertEquals("second fails", e.getSuppressed()[0].getMessage());
        assertEquals(List.of("first", "second"), trace.events());
    }

    /** Calls closeAll, which must refuse; returns the refusal's message. */
    static final class ClosesAll implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            return assertThrows(IllegalStateException.class, CoroutineBase::closeAll).getMessage();
        }
    }

    @Test
    void closeAllFromInsideACoroutineIsRefused() {
        AsymCoroutine<Void, String> co = asym(new ClosesAll());
        String message = co.call(null);
        assertTrue(message.contains("initial coroutine"), message);
    }

    @Test
    void drainingClosesWhatTheThreadLeftBehind() throws Throwable {
        Engine engine = engine();
        Thread worker = new Thread(CoroutineBase.draining(() -> {
            new Coroutine(new YieldsThenFinally("drained"), engine);
            Coroutine.yield();
            trace.add("work done");
        }), "worker");
        worker.start();
        worker.join();
        assertEquals(List.of("work done", "drained"), trace.events());
        assertFalse(worker.isAlive());
    }
}
