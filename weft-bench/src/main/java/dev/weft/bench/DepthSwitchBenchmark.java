package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import dev.weft.bench.woven.DepthMembers;

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
 * The cost of a call+ret round trip against the depth of the stack (issue 12, point 1), on the
 * woven engine, the native engine and a bare HotSpot continuation, in two shapes:
 * <ul>
 *   <li><b>parked</b> ({@link #wovenParked}, {@link #nativeParked}, {@link #rawParked}): the
 *       coroutine called down {@code depth} frames below its body once, and its innermost frame
 *       loops on {@code ret}; the frames below stay put between switches. A switch whose cost
 *       does not grow with the depth costs the same at every depth here;</li>
 *   <li><b>round trip</b> ({@link #wovenRoundTrip}, {@link #nativeRoundTrip},
 *       {@link #rawRoundTrip}): for each call the body calls down {@code depth} frames, {@code ret}s
 *       there, and returns back up to the body before the next call: every frame runs on every
 *       round trip. {@link #plainRoundTrip} makes the same calls down and back with no coroutine:
 *       what the calls alone cost, which every engine pays on top of its switch.</li>
 * </ul>
 * {@code depth} 0 is a body that suspends itself. The woven coroutines are
 * {@link DepthMembers}, woven at build time; the native ones run the same code unwoven. One
 * operation is one {@code call} (one {@code run} of the continuation) and the suspension that
 * ends it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class DepthSwitchBenchmark {

    /** One suspended coroutine or continuation of each kind and shape, at {@code depth}. */
    @State(Scope.Thread)
    public static class Stacks {
        @Param({"0", "1", "10", "50", "200", "1000"})
        public int depth;

        AsymCoroutine<Object, Object> wovenParked;
        AsymCoroutine<Object, Object> wovenRoundTrip;
        AsymCoroutine<Object, Object> nativeParked;
        AsymCoroutine<Object, Object> nativeRoundTrip;
        Continuation rawParked;
        Continuation rawRoundTrip;

        @Setup(Level.Trial)
        public void create() {
            wovenParked = new DepthMembers.Parked(depth);
            wovenRoundTrip = new DepthMembers.RoundTrip(depth);
            nativeParked = new AsymCoroutine<>((self, first) -> parkedDown(self, depth, first), Engine.NATIVE);
            nativeRoundTrip = new AsymCoroutine<>((self, first) -> {
                Object in = first;
                while (true) {
                    in = roundTripDown(self, depth, in);
                }
            }, Engine.NATIVE);
            rawParked = new Continuation(RawContinuations.SCOPE, () -> rawParkedDown(depth));
            rawRoundTrip = new Continuation(RawContinuations.SCOPE, () -> {
                while (true) {
                    rawRoundTripDown(depth);
                }
            });
            for (AsymCoroutine<Object, Object> c : java.util.List.of(wovenParked, wovenRoundTrip, nativeParked, nativeRoundTrip)) {
                c.call(c); // runs down to its first ret
            }
            rawParked.run();
            rawRoundTrip.run();
        }

        @TearDown(Level.Trial)
        public void close() {
            wovenParked = wovenRoundTrip = nativeParked = nativeRoundTrip = null;
            rawParked = rawRoundTrip = null; // never finished: left to the garbage collector
            CoroutineBase.closeAll();
        }
    }

    private static Object parkedDown(AsymCoroutine<?, ? super Object> self, int remaining, Object in) {
        if (remaining == 0) {
            Object x = in;
            while (true) {
                x = self.ret(x);
            }
        }
        return parkedDown(self, remaining - 1, in);
    }

    private static Object roundTripDown(AsymCoroutine<?, ? super Object> self, int remaining, Object in) {
        if (remaining == 0) {
            return self.ret(in);
        }
        return roundTripDown(self, remaining - 1, in);
    }

    private static int rawParkedDown(int remaining) {
        if (remaining == 0) {
            while (true) {
                Continuation.yield(RawContinuations.SCOPE);
            }
        }
        return rawParkedDown(remaining - 1) + 1;
    }

    private static int rawRoundTripDown(int remaining) {
        if (remaining == 0) {
            Continuation.yield(RawContinuations.SCOPE);
            return 0;
        }
        return rawRoundTripDown(remaining - 1) + 1;
    }

    @Benchmark
    public Object wovenParked(Stacks s) {
        return s.wovenParked.call(s);
    }

    @Benchmark
    public Object nativeParked(Stacks s) {
        return s.nativeParked.call(s);
    }

    @Benchmark
    public void rawParked(Stacks s) {
        s.rawParked.run();
    }

    @Benchmark
    public Object wovenRoundTrip(Stacks s) {
        return s.wovenRoundTrip.call(s);
    }

    @Benchmark
    public Object nativeRoundTrip(Stacks s) {
        return s.nativeRoundTrip.call(s);
    }

    /** The round trip's calls down {@code depth} frames and back, with no suspension at the bottom. */
    @Benchmark
    public Object plainRoundTrip(Stacks s) {
        return plainDown(s.depth, s);
    }

    private static Object plainDown(int remaining, Object in) {
        if (remaining == 0) {
            return in;
        }
        return plainDown(remaining - 1, in);
    }

    @Benchmark
    public void rawRoundTrip(Stacks s) {
        s.rawRoundTrip.run();
    }
}
