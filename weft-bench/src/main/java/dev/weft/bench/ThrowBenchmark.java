package dev.weft.bench;

import dev.weft.CoroutineBase;
import dev.weft.Engine;
import dev.weft.bench.woven.CatchingThrower;
import dev.weft.bench.woven.Thrower;

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
 * An exception thrown and caught inside a coroutine ({@link Thrower}): {@link #thrown} is one
 * {@code call(true)}, which resumes the coroutine in {@code middle}, where {@code inner} throws
 * into {@code outer}'s {@code catch}, and the coroutine rets again; {@link #returned} is the same
 * round with nothing thrown ({@code call(false)}), so that the difference is what the throw
 * costs inside a coroutine; {@link #caught} is a {@code call(true)} of {@link CatchingThrower},
 * where the frame that calls {@code inner} catches what it throws; {@link #direct} throws and
 * catches the same exception on the thread, outside any coroutine. {@code engine} is
 * {@code NATIVE} or {@code WOVEN}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class ThrowBenchmark {

    @Param({"NATIVE", "WOVEN"})
    public String engine;

    private Thrower coroutine;
    private CatchingThrower catching;

    @Setup(Level.Trial)
    public void start() {
        coroutine = new Thrower(Engine.valueOf(engine));
        coroutine.call(false); // to its first ret
        catching = new CatchingThrower(Engine.valueOf(engine));
        catching.call(false);
    }

    @TearDown(Level.Trial)
    public void close() {
        CoroutineBase.closeAll();
    }

    @Benchmark
    public int thrown() {
        return coroutine.call(true);
    }

    @Benchmark
    public int returned() {
        return coroutine.call(false);
    }

    @Benchmark
    public int caught() {
        return catching.call(true);
    }

    @Benchmark
    public int direct() {
        return Thrower.direct(coroutine);
    }
}
