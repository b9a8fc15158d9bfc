package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Coroutines on a virtual thread: its continuation and Weft's nest, and blocking inside a coroutine still works. */
class VirtualThreadTest {

    @Test
    void coroutinesRunOnAVirtualThreadAndMayBlockInside() throws Throwable {
        List<String> trace = new ArrayList<>();
        Thread vt = Thread.ofVirtual().name("virtual").start(CoroutineBase.draining(() -> {
            new Coroutine(() -> {
                trace.add("co 1 on " + Thread.currentThread().getName());
                Coroutine.yield();
                LockSupport.parkNanos(1_000_000); // blocks the virtual thread, coroutine and all
                trace.add("co 2");
            });
            trace.add("start");
            Coroutine.yield();
            trace.add("middle");
            Coroutine.yield();
            trace.add("end");
            AsymCoroutine<Void, Integer> gen = new AsymCoroutine<>((self, in) -> {
                for (int i = 0; i < 3; i++) {
                    synchronized (trace) {
                        LockSupport.parkNanos(1_000_000);
                    }
                    self.ret(i);
                }
                return null;
            });
            for (int x : gen) {
                trace.add("gen " + x);
            }
        }));
        vt.join();
        assertEquals(List.of("start", "co 1 on virtual", "middle", "co 2", "end", "gen 0", "gen 1", "gen 2"), trace);
    }
}
