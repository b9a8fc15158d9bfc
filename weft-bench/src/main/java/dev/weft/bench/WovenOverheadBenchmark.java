package dev.weft.bench;

import dev.weft.weaver.Weaver;
import dev.weft.weaver.WeavingException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToLongFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What weaving costs code that is never serialized: {@link CallHeavyWork} as compiled
 * ({@link #plain}) against the same class woven by {@code weft-weaver} ({@link #woven}), loaded
 * side by side. The woven copy's methods are javac's own (format 10), its twins unused here.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class WovenOverheadBenchmark {

    /** The Fibonacci argument: about 2^n/1.6 calls. */
    @Param({"20"})
    public int n;

    private IntToLongFunction plain;
    private IntToLongFunction woven;

    @Setup
    public void load() throws ReflectiveOperationException {
        plain = new CallHeavyWork();
        woven = (IntToLongFunction) new WovenCopies().load(CallHeavyWork.class).getDeclaredConstructor().newInstance();
        if (plain.applyAsLong(n) != woven.applyAsLong(n)) {
            throw new IllegalStateException("the woven copy computes something else");
        }
    }

    @Benchmark
    public long plain() {
        return plain.applyAsLong(n);
    }

    @Benchmark
    public long woven() {
        return woven.applyAsLong(n);
    }

    /** Defines woven copies of classes, with their nested classes, and leaves everything else to its parent. */
    static final class WovenCopies extends ClassLoader {

        WovenCopies() {
            super(WovenCopies.class.getClassLoader());
        }

        Class<?> load(Class<?> type) throws ClassNotFoundException {
            return loadClass(type.getName());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(CallHeavyWork.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] woven = weave(name);
                    loaded = defineClass(name, woven, 0, woven.length);
                }
                return loaded;
            }
        }

        private byte[] weave(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                return new Weaver().weave(in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (WeavingException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
