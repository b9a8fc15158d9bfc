package dev.weft.maven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/** The mojo over a directory of real class files: it weaves the selected ones, once. */
class WeaveMojoTest {

    @TempDir
    Path classes;

    /** A class of this test's own to weave, copied into the directory. */
    public static final class Sample {
        public String twice(String s) {
            return s.concat(String.valueOf(s.length())).concat(echo(s));
        }

        private static String echo(String s) {
            return s;
        }
    }

    /** The warnings a mojo logs. */
    private final List<String> warnings = new ArrayList<>();

    private final SystemStreamLog log = new SystemStreamLog() {
        @Override
        public void warn(CharSequence content) {
            warnings.add(content.toString());
        }
    };

    private Path copy(Class<?> type) throws IOException {
        return copy(type, classes);
    }

    private static Path copy(Class<?> type, Path directory) throws IOException {
        String resource = type.getName().replace('.', '/') + ".class";
        Path target = directory.resolve(resource);
        Files.createDirectories(target.getParent());
        try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
        return target;
    }

    private static boolean isWoven(Path file) throws IOException {
        ClassNode node = new ClassNode();
        new ClassReader(Files.readAllBytes(file)).accept(node, 0);
        return node.methods.stream().anyMatch(m -> m.name.equals("$weft$wovenSites")); // the method that marks a woven class
    }

    @Test
    void aClassThatCannotBeWovenIsLeftAsItIsWithAWarningAndTheRestIsWoven() throws Exception {
        Path sample = copy(Sample.class);
        Path broken = Files.writeString(classes.resolve("Broken.class"), "not a class file");
        WeaveMojo mojo = new WeaveMojo();
        mojo.setLog(log);
        mojo.classesDirectory = classes.toFile();
        mojo.execute();
        assertTrue(isWoven(sample));
        assertEquals("not a class file", Files.readString(broken));
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("weft: left Broken as compiled: cannot read a class file: "), warnings.get(0));
        assertEquals("weft: left 1 class and 0 methods as compiled; a suspension inside one is refused at run time",
                warnings.get(1));
    }

    @Test
    void strictFailsTheBuildForWhatIsLeftAsCompiled() throws Exception {
        copy(Sample.class);
        Files.writeString(classes.resolve("Broken.class"), "not a class file");
        WeaveMojo mojo = new WeaveMojo();
        mojo.setLog(log);
        mojo.classesDirectory = classes.toFile();
        mojo.strict = true;
        MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
        assertEquals("weft: left 1 class and 0 methods as compiled; a suspension inside one is refused at run time"
                + " (<strict>true</strict>)", e.getMessage());
        assertTrue(warnings.get(0).startsWith("weft: left Broken as compiled: "), warnings.toString());
    }

    @Test
    void weavesTheSelectedClassesOnce() throws Exception {
        Path sample = copy(Sample.class);
        Path self = copy(WeaveMojoTest.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.classesDirectory = classes.toFile();
        mojo.packages = List.of(Sample.class.getName());
        mojo.execute();
        assertTrue(isWoven(sample));
        assertFalse(isWoven(self), "not selected");
        byte[] once = Files.readAllBytes(sample);
        mojo.execute();
        assertArrayEquals(once, Files.readAllBytes(sample), "weaving twice changes nothing");
    }

    /** A package name with or without its trailing dot: the package and its subpackages. */
    @ParameterizedTest
    @ValueSource(strings = {"dev.weft.maven", "dev.weft.maven.", "dev.weft", "dev/weft/maven/"})
    void aPackageSelectsItsClassesAndSubpackagesWithOrWithoutATrailingDot(String entry) throws Exception {
        Path sample = copy(Sample.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.classesDirectory = classes.toFile();
        mojo.packages = List.of(entry);
        mojo.execute();
        assertTrue(isWoven(sample), entry);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev.weft.mav", "dev.weft.maven.Other", "dev.weft.maven.WeaveMojoTest$Sam"})
    void aNameThatIsOnlyTheStartOfAnotherSelectsNothing(String entry) throws Exception {
        Path sample = copy(Sample.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.setLog(log);
        mojo.classesDirectory = classes.toFile();
        mojo.packages = List.of(entry);
        mojo.failOnUnmatched = false;
        mojo.execute();
        assertFalse(isWoven(sample), entry);
        assertEquals(1, warnings.size(), warnings.toString());
    }

    @Test
    void anEntryThatMatchesNoClassFailsTheBuildNamingItAndTheDirectoryBeforeWeavingAnything() throws Exception {
        Path sample = copy(Sample.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.classesDirectory = classes.toFile();
        mojo.packages = List.of("dev.weft.maven", "dev.weft.mavne", "org.nowhere");
        MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
        assertEquals("weft: <package>dev.weft.mavne</package> matched no class in " + classes
                + "; did you mean dev.weft.maven?\n"
                + "weft: <package>org.nowhere</package> matched no class in " + classes + "\n"
                + "weft: to weave the rest anyway, with a warning, set <failOnUnmatched>false</failOnUnmatched>"
                + " or -Dweft.weave.failOnUnmatched=false", e.getMessage());
        assertFalse(isWoven(sample), "nothing woven");
    }

    @Test
    void failOnUnmatchedFalseWarnsAndWeavesTheRest() throws Exception {
        Path sample = copy(Sample.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.setLog(log);
        mojo.classesDirectory = classes.toFile();
        mojo.packages = List.of("dev.weft.maven", "dev.weft.mavne");
        mojo.failOnUnmatched = false;
        mojo.execute();
        assertTrue(isWoven(sample));
        assertEquals(List.of("weft: <package>dev.weft.mavne</package> matched no class in " + classes
                + "; did you mean dev.weft.maven?"), warnings);
    }

    @Test
    void everyClassHasNothingToMatch() throws Exception {
        Path sample = copy(Sample.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.setLog(log);
        mojo.classesDirectory = classes.toFile();
        mojo.execute();
        assertTrue(isWoven(sample));
        assertEquals(List.of(), warnings);
    }

    /** weave and weave-tests share one configuration: a package of main classes alone does not fail weave-tests. */
    @Test
    void weaveTestsCountsAMatchInTheMainClassesToo(@TempDir Path main) throws Exception {
        Path sample = copy(Sample.class);
        copy(Test.class, main);
        WeaveTestsMojo tests = new WeaveTestsMojo();
        tests.setLog(log);
        tests.testClassesDirectory = classes.toFile();
        tests.classesDirectory = main.toFile();
        tests.packages = List.of("dev.weft.maven", "org.junit.jupiter.api");
        tests.execute();
        assertTrue(isWoven(sample));
        assertFalse(isWoven(main.resolve("org/junit/jupiter/api/Test.class")), "main classes are weave's");
        assertEquals(List.of(), warnings);
        tests.packages = List.of("org.junit.jupiter.apj");
        MojoFailureException e = assertThrows(MojoFailureException.class, tests::execute);
        assertTrue(e.getMessage().startsWith("weft: <package>org.junit.jupiter.apj</package> matched no class in "
                + classes + " or " + main + "; did you mean org.junit.jupiter.api?\n"), e.getMessage());
    }

    @Test
    void anEntryThatIsNoJavaNameFailsTheBuildNamingIt() throws Exception {
        copy(Sample.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.classesDirectory = classes.toFile();
        mojo.packages = List.of("com.example..flows");
        MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
        assertTrue(e.getMessage().contains("'com.example..flows'"), e.getMessage());
    }

    @Test
    void weaveTestsWeavesTheTestClassesDirectory() throws Exception {
        Path sample = copy(Sample.class);
        WeaveTestsMojo tests = new WeaveTestsMojo();
        tests.testClassesDirectory = classes.toFile();
        tests.classesDirectory = classes.resolve("absent").toFile();
        tests.packages = List.of("dev.weft.maven.");
        tests.execute();
        assertTrue(isWoven(sample));
    }

    @Test
    void skipAndMissingDirectoriesDoNothing() throws Exception {
        Path sample = copy(Sample.class);
        WeaveMojo mojo = new WeaveMojo();
        mojo.classesDirectory = classes.toFile();
        mojo.skip = true;
        mojo.execute();
        assertFalse(isWoven(sample));
        WeaveTestsMojo tests = new WeaveTestsMojo();
        tests.testClassesDirectory = classes.resolve("absent").toFile();
        tests.packages = List.of("org.nowhere");
        tests.execute();
    }
}
