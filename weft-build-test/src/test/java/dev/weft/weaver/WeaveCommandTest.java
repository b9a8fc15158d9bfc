package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/** The weave command line as a user meets it: its usage, its errors and its exit statuses. */
class WeaveCommandTest {

    @TempDir
    Path classes;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** A class of this test's own to weave. */
    public static final class Sample {
        public String twice(String s) {
            return s.concat(echo(s));
        }

        private static String echo(String s) {
            return s;
        }
    }

    private int run(String... args) {
        return WeaveCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path copySample() throws IOException {
        String resource = Sample.class.getName().replace('.', '/') + ".class";
        Path target = classes.resolve(resource);
        Files.createDirectories(target.getParent());
        try (InputStream in = Sample.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
        return target;
    }

    private static boolean isWoven(Path file) throws IOException {
        ClassNode node = new ClassNode();
        new ClassReader(Files.readAllBytes(file)).accept(node, 0);
        return node.fields.stream().anyMatch(f -> f.name.equals("$weft$woven"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void helpPrintsTheUsageAndSucceeds(String option) {
        assertEquals(0, run(option, "ignored"));
        assertTrue(out().startsWith("Usage: java -jar weft-weaver-VERSION-agent.jar"), out());
        assertTrue(out().contains("--only NAME"), out());
        assertEquals("", err());
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        assertEquals(2, run("--weave-all", classes.toString()));
        assertTrue(err().startsWith("weft-weaver: unknown option '--weave-all'\n"), err());
        assertTrue(err().contains("Usage: "), err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "--help"})
    void onlyWithoutAValueIsAUsageErrorAndWeavesNothing(String next) throws IOException {
        Path sample = copySample();
        String[] args = next.isEmpty() ? new String[] {classes.toString(), "--only"}
                : new String[] {"--only", next, classes.toString()};
        assertEquals(2, run(args));
        assertTrue(err().startsWith("weft-weaver: --only needs a package or class name\n"), err());
        assertTrue(err().contains("Usage: "), err());
        assertTrue(!isWoven(sample));
    }

    @Test
    void anEntryThatIsNoJavaNameIsAUsageError() {
        assertEquals(2, run("--only", "com..example", classes.toString()));
        assertTrue(err().startsWith("weft-weaver: 'com..example' is not a package or class name"), err());
    }

    @Test
    void missingOrTooManyPathsAreUsageErrors() {
        assertEquals(2, run());
        assertTrue(err().startsWith("weft-weaver: no TARGET given\n"), err());
        err.reset();
        assertEquals(2, run("a", "b", "c"));
        assertTrue(err().startsWith("weft-weaver: too many arguments: a b c\n"), err());
        err.reset();
        assertEquals(2, run(classes.resolve("absent").toString()));
        assertTrue(err().startsWith("weft-weaver: no directory or jar at "), err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev.weft.weaver", "dev.weft.weaver.", "dev.weft", "dev.weft.weaver.WeaveCommandTest"})
    void onlyTakesAPackageWithOrWithoutATrailingDotOrAClass(String entry) throws IOException {
        Path sample = copySample();
        assertEquals(0, run("--only", entry, classes.toString()), err());
        assertTrue(isWoven(sample), entry);
        assertEquals("weft-weaver: wove 1 classes in " + classes + "\n", out());
        assertEquals("", err(), "no warning for an entry that matches");
    }

    @Test
    void onlyOfAnotherPackageWeavesNothingAndWarnsWithANearName() throws IOException {
        Path sample = copySample();
        assertEquals(0, run("--only=dev.weft.weav", classes.toString()), err());
        assertTrue(!isWoven(sample));
        assertEquals("weft-weaver: wove 0 classes in " + classes + "\n", out());
        assertEquals("weft-weaver: warning: --only dev.weft.weav matched no class in " + classes
                + "; did you mean dev.weft.weaver?\n", err());
    }

    @Test
    void aMisspelledEntryIsWarnedOfAndTheRestIsWoven() throws IOException {
        Path sample = copySample();
        assertEquals(0, run("--only", "dev.weft.weaver", "--only", "dev.wfet.weaver.,org.nowhere", classes.toString()));
        assertTrue(isWoven(sample));
        assertEquals("weft-weaver: wove 1 classes in " + classes + "\n", out());
        assertEquals("weft-weaver: warning: --only dev.wfet.weaver matched no class in " + classes
                + "; did you mean dev.weft.weaver?\n"
                + "weft-weaver: warning: --only org.nowhere matched no class in " + classes + "\n", err());
    }

    @Test
    void aJarIsNamedInTheWarning() throws IOException {
        copySample();
        Path jar = classes.resolve("app.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            String resource = Sample.class.getName().replace('.', '/') + ".class";
            out.putNextEntry(new JarEntry(resource));
            out.write(Files.readAllBytes(classes.resolve(resource)));
            out.closeEntry();
        }
        assertEquals(0, run("--only", "dev.weft.weaver.WeaveCommandTest$Sampel", jar.toString()));
        assertEquals("weft-weaver: wove 0 classes in " + jar + "\n", out());
        assertEquals("weft-weaver: warning: --only dev.weft.weaver.WeaveCommandTest$Sampel matched no class in " + jar
                + "; did you mean dev.weft.weaver.WeaveCommandTest$Sample?\n", err());
    }
}
