package dev.weft.bench;

import dev.weft.internal.contract.WeavingContract;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
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
 * Section 10's steady state: one operation of a {@link LibraryWork}, outside any coroutine,
 * compiled unwoven. Whether the library it calls is woven is decided by the fork's class path
 * alone ({@link LibrariesSection} puts the original jars or their woven copies on it); the fork
 * is told which through {@link #woven}, and its set-up fails if the library's classes are not as
 * told, or if the operation's result is wrong.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS})
public class WovenLibraryBenchmark {

    /** The workload's name ({@link LibraryWork#named}). */
    @Param({LibraryWork.COMMONS_LANG3})
    public String library;

    /** Whether the fork's class path has the library's woven copy: checked, not chosen, here. */
    @Param({"false"})
    public boolean woven;

    private LibraryWork work;

    @Setup
    public void prepare() {
        work = LibraryWork.named(library);
        LibraryWork.expect(library + " woven on this class path", woven, isWoven(work.libraryClass()));
        work.check(work.run());
    }

    @Benchmark
    public Object operation() {
        return work.run();
    }

    /** Whether {@code type}'s class file was woven: it declares the method the weaver marks woven classes with. */
    static boolean isWoven(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(WeavingContract.WOVEN_SITES_METHOD));
    }
}
