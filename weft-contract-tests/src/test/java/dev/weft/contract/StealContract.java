package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Migration (thesis 3.2.3): {@code steal} moves a suspended or new coroutine to the current
 * thread, which then owns it; what cannot be stolen is refused.
 */
abstract class StealContract extends EngineContract {

    private <I, O> AsymCoroutine<I, O> asym(AsymRunnable<? super I, ? extends O> body) {
        return new AsymCoroutine<>(body, engine());
    }

    /** Passes out the name of the thread it runs on and its input, for ever. */
    static final class WhereAmI implements AsymRunnable<Integer, String> {
        @Override
        public String run(AsymCoroutine<? extends Integer, ? super String> self, Integer first) {
            int n = first;
            while (true) {
                n = self.ret(Thread.currentThread().getName() + ":" + n);
            }
        }
    }

    @Test
    void aStolenAsymmetricCoroutineContinuesOnTheThief() throws Throwable {
        AsymCoroutine<Integer, String> co = asym(new WhereAmI());
        assertEquals(Thread.currentThread().getName() + ":1", co.call(1));
        String there = OtherThread.call("thief", () -> {
            assertTrue(co.steal());
            return co.call(2);
        });
        assertEquals("thief:2", there);
        assertTrue(co.toString().contains("thread thief"), co.toString());
        assertThrows(WrongThreadException.class, () -> co.call(3));
        assertTrue(co.steal()); // and back
        assertEquals(Thread.currentThread().getName() + ":4", co.call(4));
    }

    /** Returns the name of the thread it runs on. */
    static final class ThreadName implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            return Thread.currentThread().getName();
        }
    }

    @Test
    void aNewCoroutineCanBeStolenBeforeItEverRan() throws Throwable {
        AsymCoroutine<Void, String> co = asym(new ThreadName());
        assertEquals("thief", OtherThread.call("thief", () -> {
            assertTrue(co.steal());
            return co.call(null);
        }));
    }

    /** Traces the thread it runs on, yields, and traces it again. */
    static final class Traveller implements Runnable {
        private final Trace trace;

        Traveller(Trace trace) {
            this.trace = trace;
        }

        @Override
        public void run() {
            trace.add("traveller on " + Thread.currentThread().getName());
            Coroutine.yield();
            trace.add("traveller on " + Thread.currentThread().getName());
        }
    }

    /** Adds {@code event} to {@code trace}. */
    static final class Adds implements Runnable {
        private final Trace trace;
        private final String event;

        Adds(Trace trace, String event) {
            this.trace = trace;
            this.event = event;
        }

        @Override
        public void run() {
            trace.add(event);
        }
    }

    @Test
    void aStolenSymmetricCoroutineJoinsTheThiefsRingAsTheNextToRun() throws Throwable {
        Trace trace = new Trace();
        Engine engine = engine();
        Coroutine traveller = new Coroutine(new Traveller(trace), engine);
        Coroutine stayer = new Coroutine(new Adds(trace, "stayer"), engine);
        // ring here: main stayer traveller
        Coroutine.yield(); // stayer finishes, traveller runs to its yield
        OtherThread.run("thief", () -> {
            new Coroutine(new Adds(trace, "thief's own"), engine);
            assertTrue(traveller.steal());
            Coroutine.yield(); // traveller was inserted right after the current one: it runs first
            trace.add("thief main");
        });
        assertTrue(stayer.isFinished());
        assertTrue(traveller.isFinished());
        Coroutine.yield(); // this ring drops the traveller, which has moved away; nothing else runs
        assertEquals(List.of("stayer", "traveller on main", "traveller on thief", "thief's own", "thief main"),
                trace.events().stream().map(s -> s.replace(Thread.currentThread().getName(), "main")).toList());
    }

    /** Yields once. */
    static final class YieldsOnce implements Runnable {
        @Override
        public void run() {
            Coroutine.yield();
        }
    }

    @Test
    void aCoroutineStolenAwayCannotBeSwitchedToByItsFormerThread() throws Throwable {
        Coroutine co = new Coroutine(new YieldsOnce(), engine());
        co.setName("gone");
        Coroutine.yield();
        OtherThread.run("thief", () -> assertTrue(co.steal()));
        WrongThreadException e = assertThrows(WrongThreadException.class, () -> Coroutine.yieldTo(co));
        assertTrue(e.getMessage().contains("gone") && e.getMessage().contains("thread thief"), e.getMessage());
        Coroutine.yield(); // the ring skips it
        assertFalse(co.isFinished());
        OtherThread.run("finisher", () -> {
            assertTrue(co.steal());
            Coroutine.yield();
        });
        assertTrue(co.isFinished());
    }

    /** Records its name in a trace each time it runs, and yields, for ever. */
    static final class Named implements Runnable {
        private final String name;
        private final Trace trace;

        Named(String name, Trace trace) {
            this.name = name;
            this.trace = trace;
        }

        @Override
        public void run() {
            while (true) {
                trace.add(name);
                Coroutine.yield();
            }
        }
    }

    /** What {@code round} added to {@code trace}. */
    private static List<String> traced(Trace trace, Runnable round) {
        int before = trace.events().size();
        round.run();
        List<String> events = trace.events();
        return events.subList(before, events.size());
    }

    @Test
    void aCoroutineStolenAwayAndBackBeforeItsRingWalkedPastItRunsOnceARoundAndNext() throws Throwable {
        Trace trace = new Trace();
        Coroutine a = new Coroutine(new Named("a", trace), engine());
        Coroutine b = new Coroutine(new Named("b", trace), engine());
        Coroutine c = new Coroutine(new Named("c", trace), engine());
        assertEquals(List.of("c", "b", "a"), traced(trace, Coroutine::yield)); // each new one runs next
        OtherThread.run("thief", () -> assertTrue(a.steal()));
        assertTrue(a.steal()); // back, still linked where it was
        assertEquals(List.of("a", "c", "b"), traced(trace, Coroutine::yield));
        assertEquals(List.of("a", "c", "b"), traced(trace, Coroutine::yield));
        assertEquals(3, CoroutineBase.closeAll());
        assertTrue(a.isFinished() && b.isFinished() && c.isFinished());
    }

    @Test
    void aStolenCoroutineRunsInItsNewRingBeforeAndAfterItsOldRingLetsGoOfIt() throws Throwable {
        Trace trace = new Trace();
        Coroutine a = new Coroutine(new Named("a", trace), engine());
        Coroutine b = new Coroutine(new Named("b", trace), engine());
        assertEquals(List.of("b", "a"), traced(trace, Coroutine::yield));
        ExecutorService thief = Executors.newSingleThreadExecutor(r -> new Thread(r, "thief"));
        try {
            // a's old ring (this thread's) has not walked past it yet
            assertEquals(List.of("a"), on(thief, () -> {
                assertTrue(a.steal());
                return traced(trace, Coroutine::yield);
            }));
            assertEquals(List.of("b"), traced(trace, Coroutine::yield)); // walks past a, lets go of it
            assertEquals(List.of("a", "a"), on(thief, () -> traced(trace, () -> {
                Coroutine.yield();
                Coroutine.yield();
            })));
            assertEquals(List.of("b", "a"), on(thief, () -> {
                assertTrue(b.steal());
                return traced(trace, Coroutine::yield);
            }));
            assertTrue(a.steal()); // while the thief's ring holds it
            assertEquals(List.of("a"), traced(trace, Coroutine::yield));
            assertEquals(List.of("b"), on(thief, () -> traced(trace, Coroutine::yield)));
            assertEquals(List.of("a"), traced(trace, Coroutine::yield));
            assertEquals(1, (int) on(thief, CoroutineBase::closeAll));
            assertEquals(1, CoroutineBase.closeAll());
            assertTrue(a.isFinished() && b.isFinished());
            assertEquals(List.of(), on(thief, () -> traced(trace, Coroutine::yield)));
        } finally {
            thief.shutdown();
        }
    }

    @Test
    void aNewSymmetricCoroutineStolenAwayIsNotCountedByItsFormerThreadsCloseAll() throws Throwable {
        Coroutine co = new Coroutine(new YieldsOnce(), engine());
        OtherThread.run("thief", () -> {
            assertTrue(co.steal());
            Coroutine.yield();
            Coroutine.yield();
            assertTrue(co.isFinished());
        });
        assertEquals(0, CoroutineBase.closeAll());
    }

    /** Runs {@code task} on {@code thread} and waits for what it returns or throws. */
    private static <T> T on(ExecutorService thread, Callable<T> task) throws Throwable {
        try {
            return thread.submit(task).get();
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    /** Asks another thread to steal it while it runs, and records the answer. */
    static final class StolenWhileRunning implements AsymRunnable<Void, Void> {
        private final AtomicReference<Boolean> result;

        StolenWhileRunning(AtomicReference<Boolean> result) {
            this.result = result;
        }

        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            try {
                result.set(OtherThread.call("thief", () -> self.steal()));
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            return null;
        }
    }

    @Test
    void stealingARunningCoroutineReturnsFalse() throws Throwable {
        AtomicReference<Boolean> result = new AtomicReference<>();
        AsymCoroutine<Void, Void> running = asym(new StolenWhileRunning(result));
        running.call(null);
        assertFalse(result.get());
        assertTrue(running.isFinished());
    }

    /** Asks another thread to steal {@code callerRef} (which is calling it), and records the refusal. */
    final class StealsItsCaller implements AsymRunnable<Void, Void> {
        private final AtomicReference<Throwable> refusal;

        StealsItsCaller(AtomicReference<Throwable> refusal) {
            this.refusal = refusal;
        }

        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            refusal.set(assertThrowsOn("thief", IllegalArgumentException.class, callerRef::steal));
            return null;
        }
    }

    /** Calls {@code inner}. */
    static final class CallsInner implements AsymRunnable<Void, Void> {
        private final AsymCoroutine<Void, Void> inner;

        CallsInner(AsymCoroutine<Void, Void> inner) {
            this.inner = inner;
        }

        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            return inner.call(null);
        }
    }

    @Test
    void stealingAnAsymmetricCoroutineThatIsCallingAnotherIsRefused() {
        AtomicReference<Throwable> refusal = new AtomicReference<>();
        AsymCoroutine<Void, Void> inner = asym(new StealsItsCaller(refusal));
        callerRef = asym(new CallsInner(inner));
        callerRef.setName("busy-caller");
        callerRef.call(null);
        assertTrue(refusal.get().getMessage().contains("busy-caller"), refusal.get().getMessage());
        assertTrue(refusal.get().getMessage().contains("calling"), refusal.get().getMessage());
        assertTrue(callerRef.isFinished() && inner.isFinished());
    }

    private AsymCoroutine<Void, Void> callerRef;

    private static Throwable assertThrowsOn(String thread, Class<? extends Throwable> type, Runnable action) {
        try {
            return OtherThread.call(thread, () -> assertThrows(type, action::run));
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    @Test
    void stealingOnesOwnCoroutineOrAnInitialOneIsRefused() throws Throwable {
        AsymCoroutine<Void, Void> mine = new AsymCoroutine<>(engine());
        mine.setName("mine");
        IllegalArgumentException own = assertThrows(IllegalArgumentException.class, mine::steal);
        assertTrue(own.getMessage().contains("mine") && own.getMessage().contains("already belongs"), own.getMessage());
        Coroutine initial = Coroutine.current();
        Throwable e = OtherThread.call("thief", () -> assertThrows(IllegalArgumentException.class, initial::steal));
        assertTrue(e.getMessage().contains("initial"), e.getMessage());
        Coroutine.yield(); // the initial coroutine is unharmed
    }

    @Test
    void stealingAFinishedCoroutineIsRefused() throws Throwable {
        AsymCoroutine<Void, Void> done = new AsymCoroutine<>(engine());
        done.call(null);
        Throwable e = OtherThread.call("thief", () -> assertThrows(IllegalStateException.class, done::steal));
        assertTrue(e.getMessage().contains("finished"), e.getMessage());
    }

    // ------------------------------------------------------------ monitors: where the engines differ

    /**
     * Whether a coroutine of this suite's engine can suspend while it holds a monitor. On the
     * native engine, from JDK 24 on (JEP 491: HotSpot freezes frames that hold monitors);
     * before that, HotSpot refuses to freeze such a frame.
     */
    boolean suspendsHoldingAMonitor() {
        return Runtime.version().feature() >= 24;
    }

    /**
     * Checks the message of the refusal of a {@code ret} inside {@code synchronized}, by the
     * coroutine named holder whose body is {@code body}, where {@link #suspendsHoldingAMonitor()}
     * is false.
     */
    void expectMonitorRefusal(String refusal, Class<?> body) {
        assertMentions(refusal, "holder", "monitor");
    }

    /**
     * On JDK 24+ the monitor stays held by the suspended coroutine: no other thread may enter
     * it, not even the one it was suspended on, until the coroutine, now running on the thief,
     * leaves the synchronized block. Where suspending there is refused, the refusal is checked.
     */
    @Test
    void aCoroutineHoldingAMonitorMigratesWithItOrCannotSuspend() throws Throwable {
        if (suspendsHoldingAMonitor()) {
            aCoroutineHoldingAMonitorMigratesWithIt();
        } else {
            aCoroutineCannotSuspendWhileHoldingAMonitor();
        }
    }

    /** Suspends twice inside a synchronized block, tracing where it runs and whether it holds the lock. */
    static final class Holder implements AsymRunnable<Void, Void> {
        private final Object lock;
        private final Trace trace;

        Holder(Object lock, Trace trace) {
            this.lock = lock;
            this.trace = trace;
        }

        @Override
        public Void run(AsymCoroutine<? extends Void, ? super Void> self, Void in) {
            synchronized (lock) {
                trace.add("holds on " + Thread.currentThread().getName() + ": " + Thread.holdsLock(lock));
                self.ret(null);
                trace.add("holds on " + Thread.currentThread().getName() + ": " + Thread.holdsLock(lock));
                self.ret(null);
            }
            trace.add("released on " + Thread.currentThread().getName() + ": " + !Thread.holdsLock(lock));
            return null;
        }
    }

    private void aCoroutineHoldingAMonitorMigratesWithIt() throws Throwable {
        Object lock = new Object();
        Trace trace = new Trace();
        AsymCoroutine<Void, Void> holder = asym(new Holder(lock, trace));
        holder.call(null);
        String home = Thread.currentThread().getName();
        assertFalse(Thread.holdsLock(lock), "the suspended coroutine's monitor is not its thread's");

        CountDownLatch entered = new CountDownLatch(1);
        Thread contender = new Thread(() -> {
            synchronized (lock) {
                entered.countDown();
            }
        }, "contender");
        contender.start();
        assertFalse(entered.await(200, TimeUnit.MILLISECONDS), "the monitor is held while suspended");

        OtherThread.run("thief", () -> {
            assertTrue(holder.steal());
            holder.call(null);
            assertFalse(Thread.holdsLock(lock));
        });
        assertFalse(entered.await(200, TimeUnit.MILLISECONDS), "still held after migrating");

        OtherThread.run("thief2", () -> {
            assertTrue(holder.steal());
            holder.call(null);
        });
        assertTrue(entered.await(10, TimeUnit.SECONDS), "released by the thread that ran the exit");
        contender.join();
        assertEquals(List.of("holds on " + home + ": true", "holds on thief: true", "released on thief2: true"),
                trace.events());
    }

    /** Tries to pass out inside a synchronized block; returns the refusal's message. */
    static final class RefusedHolder implements AsymRunnable<Void, String> {
        private final Object lock;

        RefusedHolder(Object lock) {
            this.lock = lock;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            synchronized (lock) {
                try {
                    self.ret("suspended");
                    return "not reached";
                } catch (IllegalStateException refused) {
                    return refused.getMessage();
                }
            }
        }
    }

    private void aCoroutineCannotSuspendWhileHoldingAMonitor() {
        Object lock = new Object();
        AsymCoroutine<Void, String> holder = asym(new RefusedHolder(lock));
        holder.setName("holder");
        String refusal = holder.call(null);
        expectMonitorRefusal(refusal, RefusedHolder.class);
        assertTrue(holder.isFinished());
        assertFalse(Thread.holdsLock(lock));
    }
}
