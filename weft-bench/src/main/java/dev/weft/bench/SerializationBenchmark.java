package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.bench.woven.DeepSuspension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
 * Serialization and deserialization against the number of frames (thesis figure 6.5), on a
 * woven coroutine suspended {@code frames} frames deep. Each operation ends with the coroutine
 * resumed once, so that it is suspended in native frames again for the next: {@link #resume}
 * alone is that baseline, and the differences are the cost of the capture or the restore.
 *
 * <ul>
 *   <li>{@link #resume}: {@code call()} of a suspended coroutine (a switch).
 *   <li>{@link #serialize}: {@code serialize()} to {@code CoroutineFrame[]}, then {@code call()},
 *       which rebuilds the frames the capture unwound.
 *   <li>{@link #deserialize}: {@code deserialize(frames)} into the coroutine (validation and a
 *       new stack), then {@code call()}, which rebuilds them.
 *   <li>{@link #throughFrames}: {@code serialize()}, {@code deserialize(frames)} of what it
 *       returned, then {@code call()}: the round trip through frames, the baseline of the two below.
 *   <li>{@link #throughBytes}: {@code CoroutineOutputStream} to bytes and
 *       {@code CoroutineInputStream} back into the coroutine, then {@code call()}.
 *   <li>{@link #throughBytesWithSites}: the same, the stream written with {@code recordSites()}
 *       and read with {@code acceptChangedCode()}: what carrying the frames' sites costs.
 *   <li>{@link #throughKryo}: {@code serialize()}, Kryo (the serializer Quasar and Corda use)
 *       writing the frames to bytes and reading them back, {@code deserialize}, then {@code call()}:
 *       {@link KryoFrames}.
 * </ul>
 * On the woven engine ({@link #engine}), the frames are saved in the coroutine's fiber at every
 * suspension: {@code serialize()} reads them without resuming anything, and {@code call()}
 * rebuilds them as every resume does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class SerializationBenchmark {

    @Param({"1", "10", "100", "1000"})
    public int frames;

    /** The engine the coroutine runs on: on the woven one, its frames are saved at every suspension already. */
    @Param({"NATIVE", "WOVEN"})
    public String engine;

    private AsymCoroutine<Integer, Integer> coroutine;
    private CoroutineFrame[] captured;
    private KryoFrames kryo;

    @Setup(Level.Trial)
    public void suspend() {
        coroutine = new DeepSuspension(frames, Engine.valueOf(engine));
        coroutine.call(1);
        captured = coroutine.serialize();
        if (captured.length != framesCaptured(frames)) {
            throw new IllegalStateException(frames + " frames wanted, " + captured.length + " captured");
        }
        coroutine.call(1);
        kryo = new KryoFrames(DeepSuspension.class, coroutine);
    }

    /** How many frames the coroutine of parameter {@code frames} is suspended in: {@code run} and the innermost call at least. */
    static int framesCaptured(int frames) {
        return Math.max(frames, 2);
    }

    @TearDown(Level.Trial)
    public void close() {
        coroutine.close();
    }

    @Benchmark
    public Integer resume() {
        return coroutine.call(1);
    }

    @Benchmark
    public Integer serialize() {
        CoroutineFrame[] frames = coroutine.serialize();
        return coroutine.call(frames.length);
    }

    @Benchmark
    public Integer deserialize() {
        coroutine.deserialize(captured);
        return coroutine.call(1);
    }

    @Benchmark
    public Integer throughFrames() {
        coroutine.deserialize(coroutine.serialize());
        return coroutine.call(1);
    }

    @Benchmark
    public Integer throughKryo() {
        coroutine.deserialize(kryo.read(kryo.write(coroutine.serialize())));
        return coroutine.call(1);
    }

    @Benchmark
    public Integer throughBytes() throws IOException {
        return throughBytes(false);
    }

    @Benchmark
    public Integer throughBytesWithSites() throws IOException {
        return throughBytes(true);
    }

    /** The bytes round trip; {@code withSites}: written with its sites, read accepting changed code (the code is the same). */
    private Integer throughBytes(boolean withSites) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, Integer> out = new CoroutineOutputStream<>(bytes)) {
            if (withSites) {
                out.recordSites();
            }
            out.writeAsymCoroutine(coroutine);
        }
        try (CoroutineInputStream<Integer, Integer> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes.toByteArray()))) {
            if (withSites) {
                in.acceptChangedCode();
            }
            in.readAsymCoroutine(coroutine);
        }
        return coroutine.call(1);
    }
}
