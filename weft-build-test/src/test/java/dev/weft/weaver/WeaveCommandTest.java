package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
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
        return node.methods.stream().anyMatch(m -> m.name.equals("$weft$wovenSites")); // the method that marks a woven class
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

    @Test
    void aDirectoryWithAnOutputJarIsAUsageErrorAndWeavesNothing() throws IOException {
        Path sample = copySample();
        Path jar = classes.resolve("woven.jar");
        assertEquals(2, run(classes.toString(), jar.toString()));
        assertTrue(err().startsWith("weft-weaver: a directory is woven in place: OUTPUT_JAR " + jar
                + " goes only with a jar TARGET\n"), err());
        assertTrue(!isWoven(sample), "the directory is as it was");
        assertTrue(!Files.exists(jar), "no jar written");
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

    /** A class one of whose methods, {@code big}, makes 1,300 calls: too large for the JVM once woven. */
    private static byte[] bigCalls() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "p/BigCalls", null, "java/lang/Object", null);
        MethodVisitor inc = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "inc", "(I)I", null, null);
        inc.visitCode();
        inc.visitVarInsn(Opcodes.ILOAD, 0);
        inc.visitInsn(Opcodes.IRETURN);
        inc.visitMaxs(0, 0);
        inc.visitEnd();
        MethodVisitor big = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "big", "(I)I", null, null);
        big.visitCode();
        big.visitVarInsn(Opcodes.ILOAD, 0);
        for (int i = 0; i < 1_300; i++) {
            big.visitMethodInsn(Opcodes.INVOKESTATIC, "p/BigCalls", "inc", "(I)I", false);
        }
        big.visitInsn(Opcodes.IRETURN);
        big.visitMaxs(0, 0);
        big.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** A jar of the sample, the class with a method too large to weave, and a class file that is none. */
    private Path jarOfThree() throws IOException {
        String sample = Sample.class.getName().replace('.', '/') + ".class";
        Path jar = classes.resolve("app.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream in = Sample.class.getClassLoader().getResourceAsStream(sample)) {
            add(out, sample, in.readAllBytes());
            add(out, "p/BigCalls.class", bigCalls());
            add(out, "p/Broken.class", "not a class file".getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    private static void add(JarOutputStream jar, String name, byte[] content) throws IOException {
        jar.putNextEntry(new JarEntry(name));
        jar.write(content);
        jar.closeEntry();
    }

    private static Map<String, byte[]> entries(Path jar) throws IOException {
        Map<String, byte[]> entries = new TreeMap<>();
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
            for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                entries.put(entry.getName(), in.readAllBytes());
            }
        }
        return entries;
    }

    private static boolean isWoven(byte[] classFile) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, 0);
        return node.methods.stream().anyMatch(m -> m.name.equals("$weft$wovenSites")); // the method that marks a woven class
    }

    @Test
    void whatCannotBeWovenIsLeftAsCompiledReportedAndTheRestOfTheJarWoven() throws IOException {
        Path jar = jarOfThree();
        Path woven = classes.resolve("woven.jar");
        Path report = classes.resolve("report.tsv");
        assertEquals(0, run("--report", report.toString(), jar.toString(), woven.toString()), err());

        assertEquals("weft-weaver: wove 2 classes in " + jar + "\n"
                + "weft-weaver: left 1 class and 1 method as compiled, each with why in " + report + "\n", out());
        assertTrue(err().startsWith("weft-weaver: left p.Broken as compiled: cannot read a class file: "), err());
        assertEquals(1, err().lines().count(), err());
        List<String> lines = Files.readAllLines(report);
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("# weft-weaver: "), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.matches("p\\.BigCalls\tbig\\(I\\)I\tit is too large to weave: woven, its"
                + " code would be [0-9,]+ bytes, over the JVM's limit of 65,535 a method")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("p.Broken\t*\tcannot read a class file: ")), lines.toString());

        Map<String, byte[]> entries = entries(woven);
        assertTrue(isWoven(entries.get(Sample.class.getName().replace('.', '/') + ".class")), "the sample is woven");
        assertTrue(isWoven(entries.get("p/BigCalls.class")), "the class of the large method is woven");
        assertEquals("not a class file", new String(entries.get("p/Broken.class"), StandardCharsets.UTF_8));
        try (Stream<Path> files = Files.list(classes)) {
            assertEquals(List.of("app.jar", "report.tsv", "woven.jar"),
                    files.map(f -> f.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
    }

    @Test
    void strictExitsWithStatus1WhenAnythingIsLeftAsCompiled() throws IOException {
        Path jar = jarOfThree();
        assertEquals(1, run("--strict", jar.toString()));
        assertTrue(out().endsWith("weft-weaver: left 1 class and 1 method as compiled; --report FILE lists each with why\n"),
                out());
        assertTrue(isWoven(entries(jar).get("p/BigCalls.class")), "strict still writes what it wove");
        err.reset();
        out.reset();
        Files.delete(jar);
        copySample();
        assertEquals(0, run("--strict", classes.toString()), err());
        assertEquals("weft-weaver: wove 1 classes in " + classes + "\n", out(), "nothing left: status 0");
    }

    @Test
    void aJarThatCannotBeWrittenLeavesNoTemporaryFileAndTheTargetAsItWas() throws IOException {
        Path jar = jarOfThree();
        byte[] before = Files.readAllBytes(jar);
        Path output = Files.createDirectories(classes.resolve("out.jar"));
        Files.writeString(output.resolve("in the way"), "a directory where the jar would go");
        assertEquals(1, run(jar.toString(), output.toString()));
        assertTrue(err().startsWith("weft-weaver: "), err());
        assertArrayEquals(before, Files.readAllBytes(jar), "the target is left as it was");
        try (Stream<Path> files = Files.list(classes)) {
            assertEquals(List.of("app.jar", "out.jar"), files.map(f -> f.getFileName().toString()).sorted().toList(),
                    "no temporary file is left");
        }
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
