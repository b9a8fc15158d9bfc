package dev.weft.bench;

/**
 * Section 10's start-up probe: a fresh JVM that makes one {@link LibraryWork} and runs its
 * operation once, then checks the result. {@link LibrariesSection} times the whole process, from
 * its start to its exit, with the library's original jars or their woven copies on the class
 * path; the probe itself prints the part from {@code main}'s start to the checked result.
 *
 * <p>Arguments: the workload's name, then any words for the log's name (unwoven or woven, the
 * repetition). Prints {@code first-run-ns=} and {@code library=}.
 */
public final class LibraryStartProbe {

    private LibraryStartProbe() {
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        LibraryWork work = LibraryWork.named(args[0]);
        work.check(work.run());
        long elapsed = System.nanoTime() - start;
        System.out.println("library=" + args[0]);
        System.out.println("first-run-ns=" + elapsed);
    }
}
