package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.bench.woven.CreationMembers;
import dev.weft.bench.woven.SwitchMembers;

import java.util.concurrent.TimeUnit;
import jdk.internal.vm.Continuation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Creation time and first-call time (thesis section 6.2: "creating a new coroutine takes
 * 0.3 µs ... the first call ... takes 3 µs, whereas starting a thread takes 60 µs").
 *
 * <p>Three operations, each for Weft's two kinds, a bare continuation, and threads:
 * <ul>
 *   <li><b>create</b>: the constructor alone. A new symmetric {@link Coroutine} joins its
 *       thread's ring at once, so {@link #weftSymmetricCreate} also closes it (a never-run
 *       coroutine is just unlinked); the other kinds are created and dropped.</li>
 *   <li><b>create + first call to its first suspension</b>: the body suspends at once
 *       ({@code ret}, {@code Continuation.yield}), which allocates its first stack chunk; the
 *       suspended object is then dropped (a garbage collector's job).</li>
 *   <li><b>create + run to completion</b>: a body that returns at once; for threads, start
 *       and join.</li>
 * </ul>
 * The first-call time is the difference between the last two kinds of row and the first; the
 * report computes it. Time per operation, one operation per invocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class CreationBenchmark {

    private static final Runnable NOTHING = () -> { };
    private static final AsymRunnable<Object, Object> RETURNS = (self, in) -> in;
    private static final AsymRunnable<Object, Object> RETS = (self, in) -> self.ret(in);
    private static final Runnable YIELDS = () -> Continuation.yield(RawContinuations.SCOPE);

    /** Anything symmetric left over from a failed invocation is closed at the end of each iteration. */
    @State(Scope.Thread)
    public static class Cleanup {
        @TearDown(Level.Iteration)
        public void closeAll() {
            CoroutineBase.closeAll();
        }
    }

    @Benchmark
    public Coroutine weftSymmetricCreate(Cleanup cleanup) {
        Coroutine c = new Coroutine(NOTHING);
        c.close();
        return c;
    }

    @Benchmark
    public AsymCoroutine<Object, Object> weftAsymmetricCreate() {
        return new AsymCoroutine<>(RETURNS);
    }

    @Benchmark
    public Continuation rawCreate() {
        return new Continuation(RawContinuations.SCOPE, NOTHING);
    }

    @Benchmark
    public Thread virtualThreadCreate() {
        return Thread.ofVirtual().unstarted(NOTHING);
    }

    @Benchmark
    public Thread platformThreadCreate() {
        return Thread.ofPlatform().unstarted(NOTHING);
    }

    @Benchmark
    public Object weftAsymmetricFirstRet() {
        return new AsymCoroutine<>(RETS).call(this);
    }

    @Benchmark
    public Continuation rawFirstYield() {
        Continuation c = new Continuation(RawContinuations.SCOPE, YIELDS);
        c.run();
        return c;
    }

    @Benchmark
    public boolean weftSymmetricRun(Cleanup cleanup) {
        Coroutine c = new Coroutine(NOTHING);
        Coroutine.yieldTo(c);
        return c.isFinished();
    }

    @Benchmark
    public Object weftAsymmetricRun() {
        return new AsymCoroutine<>(RETURNS).call(this);
    }

    @Benchmark
    public boolean rawRun() {
        Continuation c = new Continuation(RawContinuations.SCOPE, NOTHING);
        c.run();
        return c.isDone();
    }

    @Benchmark
    public Coroutine wovenSymmetricCreate(Cleanup cleanup) {
        Coroutine c = new SwitchMembers.Yielder();
        c.close();
        return c;
    }

    @Benchmark
    public AsymCoroutine<Object, Object> wovenAsymmetricCreate() {
        return new SwitchMembers.Echo();
    }

    @Benchmark
    public Object wovenAsymmetricFirstRet() {
        return new SwitchMembers.Echo().call(this);
    }

    @Benchmark
    public boolean wovenSymmetricRun(Cleanup cleanup) {
        Coroutine c = new CreationMembers.Ends();
        Coroutine.yieldTo(c);
        return c.isFinished();
    }

    @Benchmark
    public Object wovenAsymmetricRun() {
        return new CreationMembers.Returns().call(this);
    }

    @Benchmark
    public Thread virtualThreadStartJoin() throws InterruptedException {
        Thread t = Thread.ofVirtual().start(NOTHING);
        t.join();
        return t;
    }

    @Benchmark
    public Thread platformThreadStartJoin() throws InterruptedException {
        Thread t = Thread.ofPlatform().start(NOTHING);
        t.join();
        return t;
    }
}
