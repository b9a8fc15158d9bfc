package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class WovenLibraryTest {

    private static final Path LIB = Path.of("/repo/lib").toAbsolutePath();
    private static final Path WOVEN = Path.of("/target/woven").toAbsolutePath();

    private static WovenLibrary twoJars() {
        return new WovenLibrary("two", List.of(new WovenLibrary.Jar(LIB.resolve("a.jar"), WOVEN.resolve("a.jar")),
                new WovenLibrary.Jar(LIB.resolve("b.jar"), WOVEN.resolve("b.jar"))));
    }

    private static String path(Object... entries) {
        return String.join(File.pathSeparator, java.util.Arrays.stream(entries).map(Object::toString).toList());
    }

    @Test
    void theWovenClassPathHasTheWovenCopiesWhereTheOriginalsWere() {
        String host = path("classes", LIB.resolve("a.jar"), "jmh.jar", LIB.resolve("b.jar"));
        assertEquals(path("classes", WOVEN.resolve("a.jar"), "jmh.jar", WOVEN.resolve("b.jar")),
                twoJars().classPath(host, true));
        assertEquals(path("classes", LIB.resolve("a.jar"), "jmh.jar", LIB.resolve("b.jar")),
                twoJars().classPath(host, false));
    }

    @Test
    void aLibraryMissingFromTheClassPathIsAnError() {
        assertThrows(IllegalStateException.class, () -> twoJars().classPath(path("classes",
                LIB.resolve("a.jar")), true));
    }

    @Test
    void theSectionsLibrariesAreFoundOnThisClassPath() {
        String host = System.getProperty("java.class.path");
        for (WovenLibrary library : WovenLibrary.all(WOVEN)) {
            String woven = library.classPath(host, true);
            library.jars().forEach(j -> assertEquals(true, woven.contains(j.woven().toString()), woven));
        }
        assertEquals(List.of(LibraryWork.COMMONS_LANG3, LibraryWork.GUAVA, LibraryWork.JACKSON),
                WovenLibrary.all(WOVEN).stream().map(WovenLibrary::name).toList());
    }
}
