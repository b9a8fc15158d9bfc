package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Coroutines resumed from four threads that steal them from each other at random: each must run
 * every one of its steps exactly once, in order, whichever thread runs it.
 */
class StealStressTest {

    private static final int COROUTINES = 10_000;
    private static final int STEPS = 10;
    private static final int THREADS = 4;

    /** Each coroutine's own log of the steps it ran; written only by its code, so only by its current thread. */
    private final List<List<Integer>> logs = new ArrayList<>();
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private List<Integer> newLog() {
        List<Integer> log = new ArrayList<>();
        logs.add(log);
        return log;
    }

    private void runOnThreads(Runnable work) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                try {
                    work.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "worker-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a worker failed", failure.get());
        }
    }

    private void assertEveryStepRanOnceInOrder() {
        assertEquals(COROUTINES, finished.get());
        List<Integer> expected = IntStream.range(0, STEPS).boxed().toList();
        for (int i = 0; i < COROUTINES; i++) {
            assertEquals(expected, logs.get(i), "coroutine " + i);
        }
    }

    @RepeatedTest(5)
    void asymmetricCoroutinesStolenAtRandomRunEachStepOnceInOrder() throws InterruptedException {
        List<AsymCoroutine<Void, Void>> all = new ArrayList<>();
        for (int i = 0; i < COROUTINES; i++) {
            List<Integer> log = newLog();
            all.add(new AsymCoroutine<>((self, in) -> {
                for (int step = 0; step < STEPS; step++) {
                    log.add(step);
                    self.ret(null);
                }
                finished.incrementAndGet(); // here, not by the caller: another worker may steal and finish it before the caller looks
                return null;
            }));
        }
        runOnThreads(() -> {
            SplittableRandom random = new SplittableRandom(Thread.currentThread().getName().hashCode());
            while (finished.get() < COROUTINES) {
                AsymCoroutine<Void, Void> co = all.get(random.nextInt(COROUTINES));
                try {
                    if (co.isFinished() || !co.steal()) {
                        continue;
                    }
                    co.call(null);
                } catch (WrongThreadException | IllegalStateException | IllegalArgumentException raced) {
                    // another worker took it, or it finished, between our look and our move: pick again
                }
            }
        });
        assertEveryStepRanOnceInOrder();
    }

    @RepeatedTest(5)
    void symmetricCoroutinesStolenAtRandomRunEachStepOnceInOrder() throws InterruptedException {
        List<Coroutine> all = new ArrayList<>();
        for (int i = 0; i < COROUTINES; i++) {
            List<Integer> log = newLog();
            all.add(new Coroutine(() -> {
                for (int step = 0; step < STEPS; step++) {
                    log.add(step);
                    Coroutine.yield();
                }
                finished.incrementAndGet();
            }));
        }
        runOnThreads(() -> {
            SplittableRandom random = new SplittableRandom(Thread.currentThread().getName().hashCode());
            while (finished.get() < COROUTINES) {
                for (int i = 0; i < 50; i++) {
                    Coroutine co = all.get(random.nextInt(COROUTINES));
                    try {
                        if (!co.isFinished()) {
                            co.steal();
                        }
                    } catch (IllegalStateException | IllegalArgumentException raced) {
                        // finished meanwhile, or already ours
                    }
                }
                Coroutine.yield(); // a round of this worker's ring
            }
        });
        assertEveryStepRanOnceInOrder();
        // the creating thread's ring only holds coroutines that moved away or finished: it drops them
        Coroutine.yield();
        assertTrue(all.stream().allMatch(Coroutine::isFinished));
    }
}
