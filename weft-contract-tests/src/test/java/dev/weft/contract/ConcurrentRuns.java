package dev.weft.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one body on several threads of its own, for the stress contracts: each thread gets its
 * number and a barrier at which the threads wait for each other once each is ready; the first
 * throwable of any thread is thrown once all of them have ended.
 */
final class ConcurrentRuns {

    /** What each thread runs, given its number and the barrier of all the threads. */
    interface Body {
        void run(int thread, CyclicBarrier start) throws Throwable;
    }

    private ConcurrentRuns() {
    }

    /** Runs {@code body} on {@code count} threads named {@code name-N}; throws the first failure. */
    static void run(int count, String name, Body body) throws Throwable {
        CyclicBarrier start = new CyclicBarrier(count);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    body.run(id, start);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    start.reset(); // a thread that failed before the barrier never reaches it
                }
            }, name + "-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
