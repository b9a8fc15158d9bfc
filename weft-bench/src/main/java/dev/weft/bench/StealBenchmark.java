package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import dev.weft.bench.woven.DeepSuspension;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * The time of {@link CoroutineBase#steal()} itself, against the number of frames on the stolen
 * coroutine's stack (thesis section 6.4, figure 6.4).
 *
 * <p>Before each measured iteration an owner thread creates {@code batch} coroutines, runs each
 * until it suspends {@code frames} frames deep, and waits. The measured invocation, on the
 * benchmark thread, steals all of them one after another; {@link Report} runs it with
 * {@code batch} operations per invocation, so the score is the time of one steal, cache
 * misses on state the owner wrote included. The benchmark thread then closes what it stole,
 * outside the measurement. Single-shot mode: one batch per iteration.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class StealBenchmark {

    /** The thread that creates and suspends the coroutines to be stolen. */
    @State(Scope.Thread)
    public abstract static class Victims {
        @Param({"1", "1000"})
        public int frames;

        @Param({"100"})
        public int batch;

        private ExecutorService owner;

        @Setup(Level.Trial)
        public void startOwner() {
            owner = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(null, r, "steal-victim-owner", 64L << 20); // woven frames run on it, 1,000 deep
                t.setDaemon(true);
                return t;
            });
        }

        @Setup(Level.Iteration)
        public void prepareBatch() throws InterruptedException, ExecutionException {
            owner.submit(this::createSuspended).get();
        }

        /** On the owner thread: {@code batch} coroutines, each suspended {@code frames} deep. */
        abstract void createSuspended();

        @TearDown(Level.Iteration)
        public void closeStolen() {
            CoroutineBase.closeAll();
        }

        @TearDown(Level.Trial)
        public void stopOwner() throws InterruptedException, ExecutionException {
            owner.submit(CoroutineBase::closeAll).get();
            owner.shutdown();
        }
    }

    @State(Scope.Thread)
    public static class AsymmetricVictims extends Victims {
        AsymCoroutine<Object, Object>[] coroutines;

        @Override
        @SuppressWarnings("unchecked")
        void createSuspended() {
            coroutines = (AsymCoroutine<Object, Object>[]) new AsymCoroutine<?, ?>[batch];
            for (int i = 0; i < batch; i++) {
                coroutines[i] = new AsymCoroutine<>((self, in) -> {
                    Frames.descend(frames, () -> {
                        while (true) {
                            self.ret(null);
                        }
                    });
                    return null;
                });
                coroutines[i].call(null);
            }
        }
    }

    /** The same on the woven engine: {@link DeepSuspension}, whose frames save themselves at each {@code ret}. */
    @State(Scope.Thread)
    public static class WovenAsymmetricVictims extends Victims {
        AsymCoroutine<Integer, Integer>[] coroutines;

        @Override
        @SuppressWarnings("unchecked")
        void createSuspended() {
            coroutines = (AsymCoroutine<Integer, Integer>[]) new AsymCoroutine<?, ?>[batch];
            for (int i = 0; i < batch; i++) {
                coroutines[i] = new DeepSuspension(frames, Engine.WOVEN);
                coroutines[i].call(0);
            }
        }
    }

    @State(Scope.Thread)
    public static class SymmetricVictims extends Victims {
        Coroutine[] coroutines;

        @Override
        void createSuspended() {
            coroutines = new Coroutine[batch];
            for (int i = 0; i < batch; i++) {
                coroutines[i] = new Coroutine(() -> Frames.descend(frames, () -> {
                    while (true) {
                        Coroutine.yield();
                    }
                }));
            }
            Coroutine.yield(); // each runs down to its yield
        }
    }

    @Benchmark
    public int stealAsymmetric(AsymmetricVictims victims) {
        return stealAll(victims.coroutines);
    }

    @Benchmark
    public int stealWovenAsymmetric(WovenAsymmetricVictims victims) {
        return stealAll(victims.coroutines);
    }

    @Benchmark
    public int stealSymmetric(SymmetricVictims victims) {
        return stealAll(victims.coroutines);
    }

    private static int stealAll(CoroutineBase[] coroutines) {
        int stolen = 0;
        for (CoroutineBase c : coroutines) {
            if (c.steal()) {
                stolen++;
            }
        }
        if (stolen != coroutines.length) {
            throw new IllegalStateException("stole only " + stolen + " of " + coroutines.length);
        }
        return stolen;
    }
}
