package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import org.junit.jupiter.api.Test;

/**
 * Two threads stealing one asymmetric coroutine from each other, calling it, serializing it and
 * deserializing its own frames into it,
 * as fast as they can: every call must return exactly what the body made of that call's own
 * input, and the only refusal a thread may meet is {@link WrongThreadException} (the other
 * thread stole it between this thread's steal and its call or serialize). Bounded by a count
 * of rounds, not by time.
 */
abstract class StealCallStressContract extends EngineContract {

    private static final int THREADS = 2;
    private static final int ROUNDS = 150_000;
    /** Every this many rounds, a thread serializes the coroutine instead of calling it (and half way, round-trips its frames). */
    private static final int SERIALIZE_EVERY = 64;

    /** Passes out each input, negated, for ever: a result tells which call it belongs to. */
    static final class Negates implements AsymRunnable<Long, Long> {
        @Override
        public Long run(AsymCoroutine<? extends Long, ? super Long> self, Long first) {
            long in = first;
            while (true) {
                in = self.ret(-in);
            }
        }
    }

    /** Nested frames between the body and its {@code ret}. */
    private static final int TAIL_DEPTH = 8;

    /**
     * The same as {@link Negates}, {@value #TAIL_DEPTH} tail calls below its body: on the woven
     * engine each input goes back up through frames that are dropped, not rebuilt.
     */
    static final class NegatesBelowTailCalls implements AsymRunnable<Long, Long> {
        @Override
        public Long run(AsymCoroutine<? extends Long, ? super Long> self, Long first) {
            long in = first;
            while (true) {
                in = (Long) down(self, TAIL_DEPTH, in);
            }
        }

        private static Object down(AsymCoroutine<? extends Long, ? super Long> self, int remaining, long in) {
            return remaining == 0 ? self.ret(-in) : down(self, remaining - 1, in);
        }
    }

    @Test
    void everyCallReturnsItsOwnResultWhileAnotherThreadStealsAndCalls() throws Throwable {
        stealAndCallFromEveryThread(new Negates());
    }

    @Test
    void everyCallThroughTailCallsReturnsItsOwnResultWhileAnotherThreadStealsAndCalls() throws Throwable {
        stealAndCallFromEveryThread(new NegatesBelowTailCalls());
    }

    private void stealAndCallFromEveryThread(AsymRunnable<Long, Long> body) throws Throwable {
        AsymCoroutine<Long, Long> shared = new AsymCoroutine<>(body, engine());
        assertEquals(-1L, shared.call(1L));
        long[] calls = new long[THREADS];
        ConcurrentRuns.run(THREADS, "stealer", (id, start) -> {
            start.await();
            calls[id] = hammer(shared, id);
        });
        for (int t = 0; t < THREADS; t++) {
            assertEquals(true, calls[t] > 0, "thread " + t + " never got to call");
        }
    }

    /** The rounds of thread {@code id}; returns how many of its calls went through, each checked. */
    private static long hammer(AsymCoroutine<Long, Long> shared, int id) {
        long checked = 0;
        for (int round = 0; round < ROUNDS; round++) {
            try {
                shared.steal();
            } catch (IllegalArgumentException alreadyOurs) {
                // it still belongs to this thread
            }
            long input = ((long) (id + 1) << 32) | round;
            try {
                if (round % SERIALIZE_EVERY == 0) {
                    shared.serialize();
                    continue;
                }
                if (round % SERIALIZE_EVERY == SERIALIZE_EVERY / 2) {
                    shared.deserialize(shared.serialize()); // its own current frames: it goes on as it was
                    continue;
                }
                Long output = shared.call(input);
                if (output == null || output != -input) {
                    throw new AssertionError("call(" + input + ") on thread " + id + " returned " + output);
                }
                checked++;
            } catch (WrongThreadException stolen) {
                // the other thread took it between the steal and this operation
            }
        }
        return checked;
    }
}
