package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadAffinityTest {

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

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

    @Test
    void switchingToAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        Coroutine co = new Coroutine(() -> Coroutine.yield());
        co.setName("home-sym");
        assertRefusedFromAnotherThread(co, c -> Coroutine.yieldTo((Coroutine) c));
        Coroutine.yield(); // still runs at home, and finishes
        Coroutine.yield();
        assertTrue(co.isFinished());
    }

    @Test
    void callingAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        AsymCoroutine<String, String> co = new AsymCoroutine<>((self, in) -> self.ret(in + "!") + "?");
        co.setName("home-asym");
        assertEquals("a!", co.call("a"));
        assertRefusedFromAnotherThread(co, c -> ((AsymCoroutine<?, ?>) c).call(null));
        assertEquals("b?", co.call("b"));
    }

    @Test
    void closingAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        AsymCoroutine<Void, Void> co = new AsymCoroutine<>((self, in) -> self.ret(null));
        co.setName("home-closable");
        co.call(null);
        assertRefusedFromAnotherThread(co, CoroutineBase::close);
        assertFalse(co.isFinished());
        co.close();
        assertTrue(co.isFinished());
    }

    @Test
    void retOnAnotherThreadsCoroutineThrowsNamingBothThreads() throws Throwable {
        AsymCoroutine<String, String> co = new AsymCoroutine<>((self, in) -> self.ret("x"));
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
        AsymCoroutine<Void, Void> co = new AsymCoroutine<>((self, in) -> self.ret(null));
        co.setName("observed");
        co.call(null);
        String seen = OtherThread.call("observer", () -> co.isFinished() + " " + co.isAlive() + " " + co);
        assertEquals("false true observed [suspended, thread " + Thread.currentThread().getName() + "]", seen);
    }

    @Test
    void eachThreadHasItsOwnRingAndInitialCoroutine() throws Throwable {
        Coroutine mine = Coroutine.current();
        new Coroutine(() -> { });
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
