package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.bench.woven.SwitchMembers;

import java.lang.ref.Reference;
import java.util.concurrent.SynchronousQueue;
import jdk.internal.vm.Continuation;

/**
 * Memory per suspended coroutine (thesis section 6.1), one kind and one count per JVM:
 * {@code java MemoryProbe KIND COUNT [REPEAT]} (the repeat's number only names the run: it is
 * printed back, and the report's log file of each repeat differs by it). Makes {@link #JIT_WARM_UP} of the kind and finishes
 * them (so that compiling their code is not counted), then makes one and keeps it (so that
 * loading classes is not counted), reads the memory after a full collection, makes
 * {@code COUNT} suspended coroutines (or blocked threads), reads it again, and prints both
 * readings as {@code key=value} lines; the report divides the differences by the count.
 *
 * <p>Kinds: {@code weft-symmetric} (a ring of {@link Coroutine}s suspended in {@code yield}),
 * {@code weft-asymmetric} ({@link AsymCoroutine}s suspended in {@code ret}), the same two on
 * the woven engine ({@code woven-symmetric}, {@code woven-asymmetric}: {@link SwitchMembers}),
 * {@code raw-continuation} (bare continuations suspended in {@code yield}), and the
 * {@code virtual-thread} and {@code platform-thread} baselines, each blocked in
 * {@code take()} on one shared {@link SynchronousQueue}. Everything suspends directly in its
 * body; nothing is on its stack but the library's own frames.
 */
public final class MemoryProbe {

    /**
     * Made, suspended and finished before the first reading, so that compiling the code that
     * makes and suspends them (the C2 compiler's memory, megabytes that a process pays once) is
     * not counted per coroutine. Not for platform threads: a finished thread's stack stays cached
     * by the C library and the threads counted would reuse it.
     */
    static final int JIT_WARM_UP = 10_000;

    private MemoryProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        String kind = args[0];
        int count = Integer.parseInt(args[1]);
        if (!kind.equals("platform-thread")) {
            finish(create(kind, JIT_WARM_UP));
        }
        Object warmUp = create(kind, 1); // kept: loads and links the classes before the first reading
        ProcessMemory.warmUp();
        ProcessMemory before = ProcessMemory.settled();
        Object held = create(kind, count);
        ProcessMemory after = ProcessMemory.settled();
        before.print("before");
        after.print("after");
        System.out.println("count=" + count);
        if (args.length > 2) {
            System.out.println("repeat=" + Integer.parseInt(args[2]));
        }
        Reference.reachabilityFence(held);
        Reference.reachabilityFence(warmUp);
        System.exit(0); // blocked threads would keep the JVM alive
    }

    /** Finishes what {@link #create} made (closes the coroutines, ends the threads), so that the collector frees it. */
    private static void finish(Object made) throws InterruptedException {
        switch (made) {
            case CoroutineBase[] coroutines -> {
                for (CoroutineBase c : coroutines) {
                    c.close();
                }
            }
            case Thread[] threads -> {
                for (Thread t : threads) {
                    t.interrupt();
                    t.join();
                }
            }
            case Continuation[] continuations -> {
                // nothing holds a suspended continuation but this array
            }
            default -> throw new IllegalArgumentException("cannot finish " + made.getClass().getName());
        }
    }

    private static Object create(String kind, int count) throws InterruptedException {
        return switch (kind) {
            case "weft-symmetric" -> symmetric(count);
            case "weft-asymmetric" -> asymmetric(count);
            case "woven-symmetric" -> wovenSymmetric(count);
            case "woven-asymmetric" -> wovenAsymmetric(count);
            case "raw-continuation" -> raw(count);
            case "virtual-thread" -> blockedThreads(Thread.ofVirtual(), count);
            case "platform-thread" -> blockedThreads(Thread.ofPlatform().daemon(), count);
            default -> throw new IllegalArgumentException("unknown kind " + kind);
        };
    }

    private static Object symmetric(int count) {
        Coroutine[] all = new Coroutine[count];
        for (int i = 0; i < count; i++) {
            all[i] = new Coroutine(() -> {
                while (true) {
                    Coroutine.yield();
                }
            });
        }
        Coroutine.yield(); // each runs to its yield
        return all;
    }

    private static Object asymmetric(int count) {
        AsymCoroutine<?, ?>[] all = new AsymCoroutine<?, ?>[count];
        for (int i = 0; i < count; i++) {
            AsymCoroutine<Object, Object> c = new AsymCoroutine<>((self, in) -> {
                while (true) {
                    self.ret(null);
                }
            });
            c.call(null);
            all[i] = c;
        }
        return all;
    }

    private static Object wovenSymmetric(int count) {
        Coroutine[] all = new Coroutine[count];
        for (int i = 0; i < count; i++) {
            all[i] = new SwitchMembers.Yielder();
        }
        Coroutine.yield(); // each runs to its yield
        return all;
    }

    private static Object wovenAsymmetric(int count) {
        AsymCoroutine<?, ?>[] all = new AsymCoroutine<?, ?>[count];
        for (int i = 0; i < count; i++) {
            AsymCoroutine<Object, Object> c = new SwitchMembers.Echo();
            c.call(null);
            all[i] = c;
        }
        return all;
    }

    private static Object raw(int count) {
        Continuation[] all = new Continuation[count];
        for (int i = 0; i < count; i++) {
            all[i] = new Continuation(RawContinuations.SCOPE, () -> {
                while (true) {
                    Continuation.yield(RawContinuations.SCOPE);
                }
            });
            all[i].run();
        }
        return all;
    }

    private static Object blockedThreads(Thread.Builder builder, int count) throws InterruptedException {
        SynchronousQueue<Object> queue = new SynchronousQueue<>();
        Thread[] all = new Thread[count];
        for (int i = 0; i < count; i++) {
            all[i] = builder.start(() -> {
                try {
                    queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        for (Thread t : all) {
            while (t.getState() != Thread.State.WAITING) {
                Thread.sleep(1);
            }
        }
        return all;
    }
}
