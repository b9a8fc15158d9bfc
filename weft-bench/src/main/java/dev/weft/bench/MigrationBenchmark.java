package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import dev.weft.bench.woven.DeepSuspension;

import java.util.concurrent.TimeUnit;
import jdk.internal.vm.Continuation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A coroutine migrating back and forth between two threads, the way the thesis measured
 * figure 6.4: each migration is a {@code steal} on the new thread, one resume there (the
 * coroutine, {@code frames} deep, passes a value out and suspends again), and a handoff to
 * the other thread over a spin-waited volatile turn (a waiter that has spun for long yields its
 * core, so that the run survives a machine with fewer free cores than two). One invocation is two migrations (the
 * benchmark thread's and its partner's); {@link Report} runs it with two operations per
 * invocation, so the score is per migration.
 *
 * <p>The baseline, {@link #rawContinuation}, ping-pongs a bare continuation of the same depth
 * the same way: it needs no steal (a HotSpot continuation may be mounted on any thread), so
 * the ratio shows what Weft's ownership transfer adds to a migration.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class MigrationBenchmark {

    private static final int BENCH = 0;
    private static final int PARTNER = 1;

    /** Spins before a waiting thread starts yielding its core: two cores may be shared with others. */
    private static final int SPINS = 10_000;

    /** The partner thread and the turn the two threads pass to each other. */
    @State(Scope.Thread)
    public abstract static class PingPong {
        @Param({"1", "1000"})
        public int frames;

        private volatile int turn = BENCH;
        private volatile boolean stop;
        private volatile Throwable partnerFailure;
        private Thread partner;

        @Setup(Level.Trial)
        public void start() {
            create();
            partner = new Thread(this::partnerLoop, "migration-partner");
            partner.setDaemon(true);
            partner.start();
        }

        /** On the benchmark thread, which owns it first: the coroutine, suspended {@code frames} deep. */
        abstract void create();

        /** Takes the coroutine to the current thread and resumes it once. */
        abstract void migrateHere();

        private void partnerLoop() {
            try {
                while (true) {
                    for (int spins = 0; turn != PARTNER; spins++) {
                        if (stop) {
                            return;
                        }
                        pause(spins);
                    }
                    migrateHere();
                    turn = BENCH;
                }
            } catch (Throwable t) {
                partnerFailure = t;
            }
        }

        /**
         * One round trip, starting and ending with the coroutine on the benchmark thread: the
         * partner takes it, then the benchmark thread takes it back.
         */
        final void roundTrip() {
            turn = PARTNER;
            for (int spins = 0; turn != BENCH; spins++) {
                if (partnerFailure != null) {
                    throw new IllegalStateException("the partner thread failed", partnerFailure);
                }
                pause(spins);
            }
            migrateHere();
        }

        /** Spins a while, then yields the core in case the other thread needs it to make progress. */
        private static void pause(int spins) {
            if (spins < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            stop = true;
            partner.join();
        }
    }

    /** A coroutine that the benchmark thread and its partner steal from each other, calling it once each time. */
    public abstract static class CoroutinePingPong extends PingPong {
        private AsymCoroutine<Integer, Integer> coroutine;

        /** A coroutine suspended {@code frames} frames down, called once already. */
        abstract AsymCoroutine<Integer, Integer> suspendedCoroutine();

        @Override
        void create() {
            coroutine = suspendedCoroutine();
        }

        /** The benchmark thread took it back last; the partner, waiting for its turn, never touches it again. */
        @TearDown(Level.Trial)
        public void close() {
            coroutine.close();
        }

        @Override
        void migrateHere() {
            if (!coroutine.steal()) {
                throw new IllegalStateException("steal refused: " + coroutine);
            }
            coroutine.call(0);
        }
    }

    @State(Scope.Thread)
    public static class WeftPingPong extends CoroutinePingPong {
        @Override
        AsymCoroutine<Integer, Integer> suspendedCoroutine() {
            AsymCoroutine<Integer, Integer> coroutine = new AsymCoroutine<>((self, in) -> {
                Frames.descend(frames, () -> {
                    while (true) {
                        self.ret(0);
                    }
                });
                return 0;
            });
            coroutine.call(0);
            return coroutine;
        }
    }

    /** The same on the woven engine: {@link DeepSuspension} (2 frames at least), rebuilt from its saved frames on each resume. */
    @State(Scope.Thread)
    public static class WovenPingPong extends CoroutinePingPong {
        @Override
        AsymCoroutine<Integer, Integer> suspendedCoroutine() {
            AsymCoroutine<Integer, Integer> coroutine = new DeepSuspension(frames, Engine.WOVEN);
            coroutine.call(0);
            return coroutine;
        }
    }

    @State(Scope.Thread)
    public static class RawPingPong extends PingPong {
        private Continuation continuation;

        @Override
        void create() {
            continuation = new Continuation(RawContinuations.SCOPE, () -> Frames.descend(frames, () -> {
                while (true) {
                    Continuation.yield(RawContinuations.SCOPE);
                }
            }));
            continuation.run();
        }

        @Override
        void migrateHere() {
            continuation.run();
        }
    }

    @Benchmark
    public void weft(WeftPingPong pingPong) {
        pingPong.roundTrip();
    }

    @Benchmark
    public void woven(WovenPingPong pingPong) {
        pingPong.roundTrip();
    }

    @Benchmark
    public void rawContinuation(RawPingPong pingPong) {
        pingPong.roundTrip();
    }
}
