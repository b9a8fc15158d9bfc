package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Symmetric coroutines stolen back and forth between threads while each thread's ring runs
 * them: the threads' initial coroutines and the coroutines themselves steal at random, yield
 * round their rings and yield to coroutines they took, so that coroutines leave rings that
 * still hold them and come back before or after those rings let go of them. Every step of
 * every coroutine must run exactly once, in order, with the value it computes from the one
 * before; once all have finished, every ring must be empty: a yield returns at once and
 * {@code closeAll} finds nothing to close. Bounded by the coroutines' steps, not by time.
 */
abstract class RingStealStressContract extends EngineContract {

    private static final int THREADS = 4;
    private static final int COROUTINES = 64;
    private static final int STEPS = 300;
    /** A coroutine steals another one at about one step in this many. */
    private static final int STEAL_FROM_INSIDE_EVERY = 8;

    /** Logs a value per step, each computed from the one before and the coroutine's number, and yields after each. */
    static final class Steps implements Runnable {
        final int number;
        final long[] log = new long[STEPS];
        private final Coroutine[] all;
        private final AtomicInteger finished;
        int ran;

        Steps(int number, Coroutine[] all, AtomicInteger finished) {
            this.number = number;
            this.all = all;
            this.finished = finished;
        }

        @Override
        public void run() {
            long value = number;
            for (int step = 0; step < STEPS; step++) {
                value = next(value, number, step);
                log[step] = value;
                ran++;
                if (step % STEAL_FROM_INSIDE_EVERY == number % STEAL_FROM_INSIDE_EVERY) {
                    stealQuietly(all[(number * 31 + step) % COROUTINES]); // into the ring of whichever thread runs this
                }
                Coroutine.yield();
            }
            finished.incrementAndGet();
        }
    }

    static long next(long value, int number, int step) {
        return value * 6_364_136_223_846_793_005L + number * 1_442_695_040_888_963_407L + step;
    }

    @RepeatedTest(10)
    void everyStepRunsOnceInOrderAndEveryRingEndsEmpty() throws Throwable {
        Coroutine[] all = new Coroutine[COROUTINES];
        List<Steps> bodies = new ArrayList<>();
        AtomicInteger finished = new AtomicInteger();
        for (int i = 0; i < COROUTINES; i++) {
            bodies.add(new Steps(i, all, finished));
        }
        int[] leftInRings = new int[THREADS];
        ConcurrentRuns.run(THREADS, "ring", (id, start) -> {
            for (int i = id; i < COROUTINES; i += THREADS) {
                all[i] = new Coroutine(bodies.get(i), engine()); // in this thread's ring, for it to let go of when stolen
            }
            start.await();
            work(id, all, finished);
            Coroutine.yield(); // every coroutine has finished: the walk drops whatever the ring still holds
            leftInRings[id] = CoroutineBase.closeAll();
        });
        for (Steps body : bodies) {
            assertEquals(STEPS, body.ran, "steps run by coroutine " + body.number);
            long value = body.number;
            for (int step = 0; step < STEPS; step++) {
                value = next(value, body.number, step);
                assertEquals(value, body.log[step], "coroutine " + body.number + ", step " + step);
            }
        }
        for (int t = 0; t < THREADS; t++) {
            assertEquals(0, leftInRings[t], "coroutines closeAll found in the ring of thread " + t);
        }
        for (Coroutine c : all) {
            assertEquals(true, c.isFinished(), c.toString());
        }
    }

    /** One thread's rounds until every coroutine has finished: steal a few, go round the ring, yield to one it took. */
    private static void work(int id, Coroutine[] all, AtomicInteger finished) {
        SplittableRandom random = new SplittableRandom(id);
        while (finished.get() < COROUTINES) {
            Coroutine took = null;
            for (int i = 0; i < 4; i++) {
                Coroutine c = all[random.nextInt(COROUTINES)];
                if (stealQuietly(c)) {
                    took = c;
                }
            }
            Coroutine.yield();
            if (took != null) {
                try {
                    Coroutine.yieldTo(took);
                } catch (WrongThreadException | IllegalStateException raced) {
                    // stolen again meanwhile (by a coroutine this thread ran, or another thread), or finished
                }
            }
        }
    }

    /** Steals {@code c} if it can: false when it is busy, finished or already this thread's. */
    static boolean stealQuietly(Coroutine c) {
        try {
            return c.steal();
        } catch (IllegalStateException | IllegalArgumentException finishedOrOurs) {
            return false;
        }
    }
}
