package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.bench.woven.SwitchMembers;

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
 * Switch time against the number of live coroutines (thesis section 6.2, figure 6.1).
 *
 * <p>Each benchmark holds {@code count} suspended coroutines and one invocation resumes every
 * one of them once, in a fixed round, each running until it suspends again:
 * <ul>
 *   <li>{@link #weftSymmetric}: a ring of {@code count} {@link Coroutine}s, each looping on
 *       {@link Coroutine#yield()}; the benchmark thread's own {@code yield()} sends control
 *       round the whole ring and back;</li>
 *   <li>{@link #weftAsymmetric}: {@code count} {@link AsymCoroutine}s, each looping on
 *       {@code ret}; the benchmark calls each in turn (one call and one ret per coroutine);</li>
 *   <li>{@link #wovenSymmetric} and {@link #wovenAsymmetric}: the same two on the woven
 *       engine ({@link SwitchMembers});</li>
 *   <li>{@link #rawContinuation}: the floor, {@code count} bare {@code jdk.internal.vm}
 *       continuations looping on {@code Continuation.yield}, run in turn by the benchmark.</li>
 * </ul>
 * In all three the user code suspends directly in its body (the same depth), and a "switch"
 * is one coroutine resumed and suspended again: one thaw and one freeze in HotSpot. The score
 * of one invocation covers {@code count} switches; {@link Report} runs each count with that
 * many operations per invocation, so JMH reports time per switch. Run by hand, the score is
 * per round unless {@code -opi} is given.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class SwitchBenchmark {

    /** The symmetric ring, owned by the benchmark thread. */
    @State(Scope.Thread)
    public static class SymmetricRing {
        @Param({"2", "1000"})
        public int count;

        @Setup(Level.Trial)
        public void create() {
            for (int i = 0; i < count; i++) {
                new Coroutine(SymmetricRing::loop);
            }
            Coroutine.yield(); // each runs to its first yield
        }

        private static void loop() {
            while (true) {
                Coroutine.yield();
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            CoroutineBase.closeAll();
        }
    }

    /** Asymmetric coroutines suspended in {@code ret}, owned by the benchmark thread. */
    @State(Scope.Thread)
    public static class AsymmetricSet {
        @Param({"2", "1000"})
        public int count;

        AsymCoroutine<Object, Object>[] coroutines;

        @Setup(Level.Trial)
        @SuppressWarnings("unchecked")
        public void create() {
            coroutines = (AsymCoroutine<Object, Object>[]) new AsymCoroutine<?, ?>[count];
            for (int i = 0; i < count; i++) {
                coroutines[i] = new AsymCoroutine<>((self, first) -> {
                    Object in = first;
                    while (true) {
                        in = self.ret(in);
                    }
                });
                coroutines[i].call(null); // runs to its first ret
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            coroutines = null;
            CoroutineBase.closeAll();
        }
    }

    /** The symmetric ring on the woven engine. */
    @State(Scope.Thread)
    public static class WovenRing {
        @Param({"2", "1000"})
        public int count;

        @Setup(Level.Trial)
        public void create() {
            for (int i = 0; i < count; i++) {
                new SwitchMembers.Yielder();
            }
            Coroutine.yield();
        }

        @TearDown(Level.Trial)
        public void close() {
            CoroutineBase.closeAll();
        }
    }

    /** Asymmetric coroutines on the woven engine, suspended in {@code ret}. */
    @State(Scope.Thread)
    public static class WovenSet {
        @Param({"2", "1000"})
        public int count;

        SwitchMembers.Echo[] coroutines;

        @Setup(Level.Trial)
        public void create() {
            coroutines = new SwitchMembers.Echo[count];
            for (int i = 0; i < count; i++) {
                coroutines[i] = new SwitchMembers.Echo();
                coroutines[i].call(null);
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            coroutines = null;
            CoroutineBase.closeAll();
        }
    }

    /** Bare HotSpot continuations suspended in {@code yield}. */
    @State(Scope.Thread)
    public static class RawSet {
        @Param({"2", "1000"})
        public int count;

        Continuation[] continuations;

        @Setup(Level.Trial)
        public void create() {
            continuations = new Continuation[count];
            for (int i = 0; i < count; i++) {
                continuations[i] = new Continuation(RawContinuations.SCOPE, RawSet::loop);
                continuations[i].run();
            }
        }

        private static void loop() {
            while (true) {
                Continuation.yield(RawContinuations.SCOPE);
            }
        }

        @TearDown(Level.Trial)
        public void drop() {
            continuations = null; // never finished: left to the garbage collector
        }
    }

    /** One round of the ring: {@code count} symmetric switches. */
    @Benchmark
    public void weftSymmetric(SymmetricRing ring) {
        Coroutine.yield();
    }

    /** One call and one ret for each of {@code count} coroutines. */
    @Benchmark
    public Object weftAsymmetric(AsymmetricSet set) {
        Object last = null;
        for (AsymCoroutine<Object, Object> c : set.coroutines) {
            last = c.call(c);
        }
        return last;
    }

    /** One round of the woven ring. */
    @Benchmark
    public void wovenSymmetric(WovenRing ring) {
        Coroutine.yield();
    }

    /** One call and one ret for each of {@code count} woven coroutines. */
    @Benchmark
    public Object wovenAsymmetric(WovenSet set) {
        Object last = null;
        for (SwitchMembers.Echo c : set.coroutines) {
            last = c.call(c);
        }
        return last;
    }

    /** One run and one yield for each of {@code count} continuations. */
    @Benchmark
    public void rawContinuation(RawSet set) {
        for (Continuation c : set.continuations) {
            c.run();
        }
    }
}
