package dev.weft.bench;

import dev.weft.Coroutine;
import dev.weft.bench.woven.SwitchMembers;

import java.lang.ref.Reference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Switches per second and resident memory with many coroutines in a ring, as in tables 4.1
 * and 4.4 of the 004 thesis; one kind and one count per JVM:
 * {@code java RingProbe KIND COUNT WARMUP_MS MEASURE_MS}.
 *
 * <p>One token goes round a ring of {@code COUNT} members, each passing it to the next; a
 * switch is one member receiving it and passing it on. Kinds: {@code weft} (a ring of
 * {@link Coroutine}s, each looping on {@code yield()}; the main thread's own yield starts
 * each round), {@code woven} (the same ring on the woven engine: {@link SwitchMembers.Yielder}), {@code virtual-thread} and {@code platform-thread} (threads parked in
 * {@link LockSupport#park}, each unparking the next once it has set the next one's token).
 * Prints the rate over the measuring window, and the resident set and heap after the window
 * and a full collection (every member suspended or parked by then), as {@code key=value} lines.
 */
public final class RingProbe {

    private RingProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        String kind = args[0];
        int count = Integer.parseInt(args[1]);
        long warmupNanos = Long.parseLong(args[2]) * 1_000_000;
        long measureNanos = Long.parseLong(args[3]) * 1_000_000;
        double rate = switch (kind) {
            case "weft" -> coroutineRing(count, RingProbe::yieldingForever, warmupNanos, measureNanos);
            case "woven" -> coroutineRing(count, SwitchMembers.Yielder::new, warmupNanos, measureNanos);
            case "virtual-thread" -> new TokenRing(count, Thread.ofVirtual()).measure(warmupNanos, measureNanos);
            case "platform-thread" -> new TokenRing(count, Thread.ofPlatform().daemon()).measure(warmupNanos, measureNanos);
            default -> throw new IllegalArgumentException("unknown kind " + kind);
        };
        ProcessMemory after = ProcessMemory.settled(); // every member suspended or parked now
        System.out.println("switches-per-second=" + rate);
        System.out.println("rss-after=" + after.rssBytes());
        System.out.println("heap-after=" + after.heapUsedBytes());
        System.out.println("count=" + count);
        System.exit(0); // parked threads would keep the JVM alive
    }

    private static Coroutine yieldingForever() {
        return new Coroutine(() -> {
            while (true) {
                Coroutine.yield();
            }
        });
    }

    private static double coroutineRing(int count, Supplier<Coroutine> member, long warmupNanos, long measureNanos) {
        Coroutine[] ring = new Coroutine[count];
        for (int i = 0; i < count; i++) {
            ring[i] = member.get();
        }
        long end = System.nanoTime() + warmupNanos;
        while (System.nanoTime() < end) {
            Coroutine.yield();
        }
        long rounds = 0;
        long start = System.nanoTime();
        long now;
        end = start + measureNanos;
        while ((now = System.nanoTime()) < end) {
            Coroutine.yield();
            rounds++;
        }
        Reference.reachabilityFence(ring);
        return rounds * (double) count / ((now - start) / 1e9);
    }

    /** A ring of threads passing one token by park and unpark. */
    static final class TokenRing {
        private final Member[] members;
        private volatile boolean stop;

        private static final class Member {
            Thread thread;
            Member next;
            volatile boolean token;
            volatile long passes;
        }

        TokenRing(int count, Thread.Builder builder) {
            members = new Member[count];
            for (int i = 0; i < count; i++) {
                members[i] = new Member();
            }
            for (int i = 0; i < count; i++) {
                members[i].next = members[(i + 1) % count];
            }
            members[0].token = true;
            for (Member m : members) {
                m.thread = builder.unstarted(() -> pass(m));
            }
            for (Member m : members) {
                m.thread.start();
            }
        }

        private void pass(Member me) {
            while (!stop) {
                while (!me.token) {
                    LockSupport.park(this);
                    if (stop) {
                        return;
                    }
                }
                me.token = false;
                me.passes = me.passes + 1; // only the token holder writes it
                me.next.token = true;
                LockSupport.unpark(me.next.thread);
            }
        }

        private long passes() {
            long sum = 0;
            for (Member m : members) {
                sum += m.passes;
            }
            return sum;
        }

        double measure(long warmupNanos, long measureNanos) throws InterruptedException {
            Thread.sleep(warmupNanos / 1_000_000);
            long startPasses = passes();
            long start = System.nanoTime();
            Thread.sleep(measureNanos / 1_000_000);
            long endPasses = passes();
            long elapsed = System.nanoTime() - start;
            stop = true; // the token holder stops after its pass; the others stay parked
            return (endPasses - startPasses) / (elapsed / 1e9);
        }
    }
}
