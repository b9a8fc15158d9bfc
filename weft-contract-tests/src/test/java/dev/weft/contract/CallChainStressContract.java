package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two threads, each with a caller of its own (at the end of a chain, deep enough that the woven
 * engine runs the call flat), stealing one callee from each other and having their caller call
 * it from inside its body, as fast as they can: the callee is taken by the
 * caller's call while the other thread tries to steal it, and given back, suspended, as the
 * call returns. Every answer must be the callee's answer to that call's own input, or the
 * refusal of a callee the other thread stole in between ({@link WrongThreadException}, thrown at
 * the call site and caught there by the caller); a steal must never take the callee while it
 * runs. Bounded by a count of rounds, not by time.
 */
abstract class CallChainStressContract extends EngineContract {

    private static final int THREADS = 2;
    private static final int ROUNDS = 20_000;
    /** What a caller passes back when the callee belonged to the other thread at its call. */
    static final long STOLEN = Long.MIN_VALUE;

    /** Calls the shared callee with each input and passes back its answer, or {@link #STOLEN}. */
    static final class CallsShared implements AsymRunnable<Long, Long> {
        private final AsymCoroutine<Long, Long> shared;

        CallsShared(AsymCoroutine<Long, Long> shared) {
            this.shared = shared;
        }

        @Override
        public Long run(AsymCoroutine<? extends Long, ? super Long> self, Long first) {
            long in = first;
            while (true) {
                long out;
                try {
                    out = shared.call(in);
                } catch (WrongThreadException stolen) {
                    out = STOLEN;
                }
                in = self.ret(out);
            }
        }
    }

    /** Calls the next with each input and passes its answer back: links of the chain in front of a caller. */
    static final class PassesOn implements AsymRunnable<Long, Long> {
        private final AsymCoroutine<Long, Long> next;

        PassesOn(AsymCoroutine<Long, Long> next) {
            this.next = next;
        }

        @Override
        public Long run(AsymCoroutine<? extends Long, ? super Long> self, Long first) {
            long in = first;
            while (true) {
                in = self.ret(next.call(in));
            }
        }
    }

    /**
     * A caller of {@code shared} behind {@link CallChainContract#DEEP} links, head first: its
     * call is made past where the woven engine stops nesting calls.
     */
    private List<AsymCoroutine<Long, Long>> deepCaller(AsymCoroutine<Long, Long> shared) {
        List<AsymCoroutine<Long, Long>> chain = new ArrayList<>();
        chain.add(new AsymCoroutine<>(new CallsShared(shared), engine()));
        for (int i = 0; i < CallChainContract.DEEP; i++) {
            chain.add(0, new AsymCoroutine<>(new PassesOn(chain.get(0)), engine()));
        }
        return chain;
    }

    @Test
    void everyCallFromACallerReturnsItsOwnAnswerWhileAnotherThreadStealsTheCallee() throws Throwable {
        AsymCoroutine<Long, Long> shared = new AsymCoroutine<>(new StealCallStressContract.Negates(), engine());
        shared.call(0L);
        long[] answered = new long[THREADS];
        ConcurrentRuns.run(THREADS, "caller", (id, start) -> {
            List<AsymCoroutine<Long, Long>> chain = deepCaller(shared);
            start.await();
            answered[id] = hammer(chain.get(0), shared, id);
            chain.forEach(AsymCoroutine::close); // not closeAll: the callee may be this thread's while the other still calls it
        });
        for (int t = 0; t < THREADS; t++) {
            assertTrue(answered[t] > 0, "thread " + t + "'s caller never got an answer");
        }
        assertTrue(shared.steal());
        assertEquals(-5L, shared.call(5L));
    }

    /** The rounds of thread {@code id}; returns how many of its calls the callee answered, each checked. */
    private static long hammer(AsymCoroutine<Long, Long> caller, AsymCoroutine<Long, Long> shared, int id) {
        long answered = 0;
        for (int round = 0; round < ROUNDS; round++) {
            try {
                shared.steal();
            } catch (IllegalArgumentException alreadyOurs) {
                // it still belongs to this thread
            }
            long input = ((long) (id + 1) << 32) | round;
            long output = caller.call(input);
            if (output == -input) {
                answered++;
            } else if (output != STOLEN) {
                throw new AssertionError("call(" + input + ") on thread " + id + " returned " + output);
            }
        }
        return answered;
    }
}
