package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StealTest {

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    @Test
    void aStolenAsymmetricCoroutineContinuesOnTheThief() throws Throwable {
        AsymCoroutine<Integer, String> co = new AsymCoroutine<>((self, first) -> {
            int n = first;
            while (true) {
                n = self.ret(Thread.currentThread().getName() + ":" + n);
            }
        });
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

    @Test
    void aNewCoroutineCanBeStolenBeforeItEverRan() throws Throwable {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>((self, in) -> Thread.currentThread().getName());
        assertEquals("thief", OtherThread.call("thief", () -> {
            assertTrue(co.steal());
            return co.call(null);
        }));
    }

    @Test
    void aStolenSymmetricCoroutineJoinsTheThiefsRingAsTheNextToRun() throws Throwable {
        Trace trace = new Trace();
        Coroutine traveller = new Coroutine(() -> {
            trace.add("traveller on " + Thread.currentThread().getName());
            Coroutine.yield();
            trace.add("traveller on " + Thread.currentThread().getName());
        });
        Coroutine stayer = new Coroutine(() -> trace.add("stayer"));
        // ring here: main stayer traveller
        Coroutine.yield(); // stayer finishes, traveller runs to its yield
        OtherThread.run("thief", () -> {
            new Coroutine(() -> trace.add("thief's own"));
            assertTrue(traveller.steal());
            Coroutine.yield(); // traveller was inserted right after the current one: it runs first
            trace.add("thief main");
        });
        assertTrue(stayer.isFinished());
        assertTrue(traveller.isFinished());
        Coroutine.yield(); // the stale ring node here is dropped; nothing else runs
        assertEquals(List.of("stayer", "traveller on main", "traveller on thief", "thief's own", "thief main"),
                trace.events().stream().map(s -> s.replace(Thread.currentThread().getName(), "main")).toList());
    }

    @Test
    void aCoroutineStolenAwayCannotBeSwitchedToByItsFormerThread() throws Throwable {
        Coroutine co = new Coroutine(Coroutine::yield);
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

    @Test
    void stealingARunningCoroutineReturnsFalse() throws Throwable {
        AtomicReference<Boolean> result = new AtomicReference<>();
        AsymCoroutine<Void, Void> running = new AsymCoroutine<>((self, in) -> {
            try {
                result.set(OtherThread.call("thief", () -> self.steal()));
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            return null;
        });
        running.call(null);
        assertFalse(result.get());
        assertTrue(running.isFinished());
    }

    @Test
    void stealingAnAsymmetricCoroutineThatIsCallingAnotherIsRefused() {
        AtomicReference<Throwable> refusal = new AtomicReference<>();
        AsymCoroutine<Void, Void> inner = new AsymCoroutine<>((self, in) -> {
            refusal.set(assertThrowsOn("thief", IllegalArgumentException.class, callerRef::steal));
            return null;
        });
        callerRef = new AsymCoroutine<>((self, in) -> inner.call(null));
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
        AsymCoroutine<Void, Void> mine = new AsymCoroutine<>();
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
        AsymCoroutine<Void, Void> done = new AsymCoroutine<>();
        done.call(null);
        Throwable e = OtherThread.call("thief", () -> assertThrows(IllegalStateException.class, done::steal));
        assertTrue(e.getMessage().contains("finished"), e.getMessage());
    }

    /**
     * JDK 24+ freezes frames that hold monitors (JEP 491), and the monitor stays held by the
     * suspended coroutine: no other thread may enter it, not even the one it was suspended on,
     * until the coroutine, now running on the thief, leaves the synchronized block.
     */
    @Test
    void aCoroutineHoldingAMonitorMigratesWithItOrCannotSuspendBeforeJdk24() throws Throwable {
        if (Runtime.version().feature() >= 24) {
            aCoroutineHoldingAMonitorMigratesWithIt();
        } else {
            beforeJdk24ACoroutineCannotSuspendWhileHoldingAMonitor();
        }
    }

    private void aCoroutineHoldingAMonitorMigratesWithIt() throws Throwable {
        Object lock = new Object();
        Trace trace = new Trace();
        AsymCoroutine<Void, Void> holder = new AsymCoroutine<>((self, in) -> {
            synchronized (lock) {
                trace.add("holds on " + Thread.currentThread().getName() + ": " + Thread.holdsLock(lock));
                self.ret(null);
                trace.add("holds on " + Thread.currentThread().getName() + ": " + Thread.holdsLock(lock));
                self.ret(null);
            }
            trace.add("released on " + Thread.currentThread().getName() + ": " + !Thread.holdsLock(lock));
            return null;
        });
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

    /** Before JDK 24, HotSpot refuses to freeze a frame that holds a monitor: the suspension is refused instead. */
    private void beforeJdk24ACoroutineCannotSuspendWhileHoldingAMonitor() {
        Object lock = new Object();
        AsymCoroutine<Void, String> holder = new AsymCoroutine<>((self, in) -> {
            synchronized (lock) {
                try {
                    self.ret("suspended");
                    return "not reached";
                } catch (IllegalStateException refused) {
                    return refused.getMessage();
                }
            }
        });
        holder.setName("holder");
        String refusal = holder.call(null);
        assertTrue(refusal.contains("holder") && refusal.contains("monitor"), refusal);
    }
}
