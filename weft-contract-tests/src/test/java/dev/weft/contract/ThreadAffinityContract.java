package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Thread affinity: a coroutine belongs to one thread, and touching it from another throws
 * {@link WrongThreadException} naming both threads; read-only queries work from any thread.
 */
abstract class ThreadAffinityContract extends EngineContract {

    private static void assertNamesBothThreads(String message, String coroutineName) {
        String here = Thread.currentThread().getName();
        assertTrue(message.contains("thread intruder"), message);
        assertTrue(message.contains("thread " + here), message);
        assertTrue(message.contains(coroutineName), message);
    }

    private void assertRefusedFromAnotherThread(CoroutineBase co, Consumer<CoroutineBase> operation) throws Throwable {
        WrongThreadException e = OtherThread.call("intruder",
                () -> assertThrows(WrongThreadException.class, () -> operation.accept(co)));
        assertNamesBothThreads(e.getMessage(), co.getName());
    }

    /** Yields once. */
    static final class YieldsOnce implements Runnable {
        @Override
        public void run() {
            Coroutine.yield();
        }
    }

    /** Does nothing. */
    static final class Nothing implements Runnable {
        @Override
        public void run() {
        }
    }

    /** Passes out its first input with "!", then returns the second with "?". */
    static final class Punctuates implements AsymRunnable<String, String> {
        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String in) {
            return self.ret(in + "!") + "?";
        }
    }

    /** Passes out {@code output} once, and returns the input it gets back. */
    static final class RetsOnce<T> implements AsymRunnable<T, T> {
        private final T output;

        RetsOnce(T output) {
            this.output = output;
        }

        @Override
        public T run(AsymCoroutine<? extends T, ? super T> self, T in) {
            return self.ret(output);
        }
    }

    @Test
    void switchingToAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        Coroutine co = new Coroutine(new YieldsOnce(), engine());
        co.setName("home-sym");
        assertRefusedFromAnotherThread(co, c -> Coroutine.yieldTo((Coroutine) c));
        Coroutine.yield(); // still runs at home, and finishes
        Coroutine.yield();
        assertTrue(co.isFinished());
    }

    @Test
    void callingAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        AsymCoroutine<String, String> co = new AsymCoroutine<>(new Punctuates(), engine());
        co.setName("home-asym");
        assertEquals("a!", co.call("a"));
        assertRefusedFromAnotherThread(co, c -> ((AsymCoroutine<?, ?>) c).call(null));
        assertEquals("b?", co.call("b"));
    }

    @Test
    void closingAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        AsymCoroutine<Void, Void> co = new AsymCoroutine<>(new RetsOnce<Void>(null), engine());
        co.setName("home-closable");
        co.call(null);
        assertRefusedFromAnotherThread(co, CoroutineBase::close);
        assertFalse(co.isFinished());
        co.close();
        assertTrue(co.isFinished());
    }

    @Test
    void retOnAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        AsymCoroutine<String, String> co = new AsymCoroutine<>(new RetsOnce<>("x"), engine());
        co.setName("home-ret");
        co.call(null);
        assertRefusedFromAnotherThread(co, c -> {
            @SuppressWarnings("unchecked")
            AsymCoroutine<String, String> a = (AsymCoroutine<String, String>) c;
            a.ret("y");
        });
    }

    @Test
    void readOnlyQueriesWorkFromAnyThread() throws Throwable {
        AsymCoroutine<Void, Void> co = new AsymCoroutine<>(new RetsOnce<Void>(null), engine());
        co.setName("observed");
        co.call(null);
        String seen = OtherThread.call("observer", () -> co.isFinished() + " " + co.isAlive() + " " + co);
        assertEquals("false true observed [suspended, thread " + Thread.currentThread().getName() + "]", seen);
    }

    @Test
    void eachThreadHasItsOwnRingAndInitialCoroutine() throws Throwable {
        Coroutine mine = Coroutine.current();
        new Coroutine(new Nothing(), engine());
        Coroutine theirs = OtherThread.call("other", () -> {
            Coroutine initial = Coroutine.current();
            Coroutine.yield(); // the other thread's ring is empty: returns at once
            return initial;
        });
        assertTrue(theirs.isInitial());
        assertFalse(theirs == mine);
        assertTrue(theirs.toString().contains("thread other"), theirs.toString());
    }
}
