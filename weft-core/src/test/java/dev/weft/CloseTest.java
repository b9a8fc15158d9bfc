package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CloseTest {

    private final Trace trace = new Trace();

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    @Test
    void closingASuspendedAsymmetricCoroutineRunsItsFinallyBlocks() {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>((self, in) -> {
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
        });
        assertEquals("suspended", co.call(null));
        co.close();
        assertTrue(co.isFinished());
        assertEquals(List.of("inner finally", "outer finally"), trace.events());
        co.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> co.call(null));
    }

    @Test
    void closingASuspendedSymmetricCoroutineRunsItsFinallyAndReturnsToTheCloser() {
        Coroutine co = new Coroutine(() -> {
            try {
                Coroutine.yield();
                trace.add("not reached");
            } finally {
                trace.add("finally");
            }
        });
        Coroutine other = new Coroutine(() -> trace.add("other"));
        // ring: main other co
        Coroutine.yieldTo(co);
        co.close();
        trace.add("closer");
        assertTrue(co.isFinished());
        Coroutine.yield(); // co has left the ring; other still runs
        assertEquals(List.of("finally", "closer", "other"), trace.events());
        assertTrue(other.isFinished());
    }

    @Test
    void theExitExceptionCanBeObservedButTheCoroutineCannotSuspendAgain() {
        AsymCoroutine<Void, String> stubborn = new AsymCoroutine<>((self, in) -> {
            try {
                self.ret("first");
            } catch (CoroutineExitException e) {
                trace.add("caught " + e.getMessage());
                CoroutineExitException again = assertThrows(CoroutineExitException.class, () -> self.ret("second"));
                trace.add("again " + again.getMessage());
            }
            trace.add("ends");
            return "end";
        });
        stubborn.setName("stubborn");
        stubborn.call(null);
        stubborn.close();
        assertEquals(List.of("caught stubborn is being closed", "again stubborn is being closed", "ends"), trace.events());
    }

    @Test
    void anExceptionThrownWhileExitingComesOutOfClose() {
        IllegalStateException fromFinally = new IllegalStateException("from finally");
        AsymCoroutine<Void, Void> co = new AsymCoroutine<>((self, in) -> {
            try {
                self.ret(null);
            } finally {
                throw fromFinally;
            }
        });
        co.call(null);
        assertSame(fromFinally, assertThrows(IllegalStateException.class, co::close));
        assertTrue(co.isFinished());
    }

    @Test
    void closingANewCoroutineFinishesItWithoutRunningIt() {
        Coroutine sym = new Coroutine(() -> trace.add("never"));
        AsymCoroutine<Void, Void> asym = new AsymCoroutine<>((self, in) -> {
            trace.add("never");
            return null;
        });
        sym.close();
        asym.close();
        assertTrue(sym.isFinished() && asym.isFinished());
        Coroutine.yield();
        assertEquals(List.of(), trace.events());
    }

    @Test
    void aRunningCoroutineOrTheInitialOneCannotBeClosed() {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>() {
            @Override
            protected String run(Void input) {
                return assertThrows(IllegalStateException.class, this::close).getMessage();
            }
        };
        co.setName("self-closer");
        String message = co.call(null);
        assertTrue(message.contains("self-closer") && message.contains("running"), message);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Coroutine.current().close());
        assertTrue(e.getMessage().contains("initial"), e.getMessage());
    }

    @Test
    void aCoroutineMayCloseAnotherFromInsideACoroutine() {
        AsymCoroutine<Void, Void> victim = new AsymCoroutine<>((self, in) -> {
            try {
                self.ret(null);
            } finally {
                trace.add("victim finally");
            }
            return null;
        });
        victim.call(null);
        AsymCoroutine<Void, Void> closer = new AsymCoroutine<>((self, in) -> {
            victim.close();
            trace.add("closer continues");
            return null;
        });
        closer.call(null);
        assertEquals(List.of("victim finally", "closer continues"), trace.events());
    }

    @Test
    void closeAllClosesEveryCoroutineOfTheThreadInRingOrderThenAsymmetricOnes() {
        for (String name : List.of("s3", "s2", "s1")) {
            new Coroutine(() -> {
                try {
                    Coroutine.yield();
                } finally {
                    trace.add(name);
                }
            });
        }
        Coroutine.yield(); // all three suspended
        AsymCoroutine<Void, Void> a = new AsymCoroutine<>((self, in) -> {
            try {
                self.ret(null);
            } finally {
                trace.add("a");
            }
            return null;
        });
        a.call(null);
        AsymCoroutine<Void, Void> idle = new AsymCoroutine<>(); // never called: finished without running
        assertEquals(5, CoroutineBase.closeAll());
        assertTrue(idle.isFinished());
        assertEquals(List.of("s1", "s2", "s3", "a"), trace.events());
        assertEquals(0, CoroutineBase.closeAll());
    }

    @Test
    void closeAllClosesAnAsymmetricCoroutineThatWasNeverCalled() {
        AsymCoroutine<Void, String> idle = new AsymCoroutine<>((self, in) -> "never run");
        assertEquals(1, CoroutineBase.closeAll());
        assertTrue(idle.isFinished());
        assertThrows(IllegalStateException.class, () -> idle.call(null));
    }

    @Test
    void closeAllKeepsClosingWhenOneThrowsAndThrowsAtTheEnd() {
        new Coroutine(() -> {
            try {
                Coroutine.yield();
            } finally {
                trace.add("second");
                throw new IllegalStateException("second fails");
            }
        });
        new Coroutine(() -> {
            try {
                Coroutine.yield();
            } finally {
                trace.add("first");
                throw new IllegalArgumentException("first fails");
            }
        });
        Coroutine.yield();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CoroutineBase::closeAll);
        assertEquals("first fails", e.getMessage());
        assertEquals("second fails", e.getSuppressed()[0].getMessage());
        assertEquals(List.of("first", "second"), trace.events());
    }

    @Test
    void closeAllFromInsideACoroutineIsRefused() {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>(
                (self, in) -> assertThrows(IllegalStateException.class, CoroutineBase::closeAll).getMessage());
        String message = co.call(null);
        assertTrue(message.contains("initial coroutine"), message);
    }

    @Test
    void drainingClosesWhatTheThreadLeftBehind() throws Throwable {
        Thread worker = new Thread(CoroutineBase.draining(() -> {
            new Coroutine(() -> {
                try {
                    Coroutine.yield();
                } finally {
                    trace.add("drained");
                }
            });
            Coroutine.yield();
            trace.add("work done");
        }), "worker");
        worker.start();
        worker.join();
        assertEquals(List.of("work done", "drained"), trace.events());
        assertFalse(worker.isAlive());
    }
}
