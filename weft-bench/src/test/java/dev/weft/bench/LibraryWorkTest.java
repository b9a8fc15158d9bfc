package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Each workload's check passes on what its operation gives, unwoven, and fails on anything else. */
class LibraryWorkTest {

    @Test
    void eachWorkloadsResultPassesItsCheckAndAWrongOneFails() {
        for (String name : new String[] {LibraryWork.COMMONS_LANG3, LibraryWork.GUAVA, LibraryWork.JACKSON}) {
            LibraryWork work = LibraryWork.named(name);
            work.check(work.run());
            assertThrows(IllegalStateException.class, () -> work.check(42L), name);
            assertFalse(WovenLibraryBenchmark.isWoven(work.libraryClass()), name);
        }
    }
}
