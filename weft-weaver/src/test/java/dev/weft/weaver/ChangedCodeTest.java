package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A coroutine written on one build of a class and read on a changed one (issue 36): each edit of
 * the corpus below is compiled ({@code javac -g}) and woven here, the coroutine suspended in
 * {@code ask} on the first build is written with its sites and read, accepting changed code,
 * on the edited one, on both engines; it resumes there with the values it held and runs the new
 * code, or is refused naming the frame, the line and the variable.
 */
class ChangedCodeTest {

    private static final String NAME = "evolve.Flow";

    /** The first build: {@code ask} suspends with {@code name} and {@code count} live. */
    private static final String FIRST = """
            package evolve;

            import dev.weft.AsymCoroutine;
            import dev.weft.AsymRunnable;

            public class Flow implements AsymRunnable<String, String>, java.io.Serializable {
                @Override
                public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
                    return "run(" + ask(self, first) + ")";
                }

                String ask(AsymCoroutine<? extends String, ? super String> self, String name) {
                    int count = name.length();
                    String answer = self.ret("asked " + name);
                    return name + ":" + count + ":" + answer;
                }

                private static final long serialVersionUID = 1L; // the frames hold a Flow: its serialized form is kept
            }
            """;

    private static final String ASK_BODY = """
                    int count = name.length();
                    String answer = self.ret("asked " + name);
                    return name + ":" + count + ":" + answer;
            """;

    /** How a refusal of {@code ask}'s frame starts. */
    private static final String ASK_REFUSED = "cannot restore a frame of evolve.Flow.ask(Ldev/weft/AsymCoroutine;"
            + "Ljava/lang/String;)Ljava/lang/String; on its changed code: ";

    @TempDir
    Path directory;

    /** The first build with {@code ask}'s body replaced by {@code body}. */
    private static String withAsk(String body) {
        assertTrue(FIRST.contains(ASK_BODY));
        return FIRST.replace(ASK_BODY, body);
    }

    /** Compiles {@code source} with its variables' names, weaves it, and loads it in a class loader of its own. */
    private ClassLoader build(String label, String source) throws Exception {
        Path sources = Files.createDirectories(directory.resolve(label + "-src/evolve"));
        Path classes = Files.createDirectories(directory.resolve(label + "-classes"));
        Path file = sources.resolve("Flow.java");
        Files.writeString(file, source);
        String classPath = System.getProperty("java.class.path") + File.pathSeparator
                + System.getProperty("jdk.module.path", ""); // weft-core, where the tests run on the module path
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-g",
                "-proc:none", "-d", classes.toString(), "-cp", classPath, file.toString()).redirectErrorStream(true).start();
        String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, javac.waitFor(), "compiling " + label + ": " + output);
        Map<String, byte[]> woven = new HashMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String className = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                woven.put(className, new Weaver().weave(Files.readAllBytes(f)));
            }
        }
        return new ClassLoader("evolve-" + label, ChangedCodeTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String className) throws ClassNotFoundException {
                byte[] bytes = woven.get(className);
                if (bytes == null) {
                    throw new ClassNotFoundException(className);
                }
                return defineClass(className, bytes, 0, bytes.length);
            }
        };
    }

    /** The first build's coroutine, called with "ada" to its ret in {@code ask}, written with its sites. */
    private byte[] writtenOnTheFirstBuild(Engine engine, boolean withSites) throws Exception {
        return writtenOnTheFirstBuild(engine, withSites, new HashMap<>());
    }

    /**
     * As {@link #writtenOnTheFirstBuild(Engine, boolean)}, and puts the sites of each method of
     * the first build in {@code former}, by name and fingerprint, as a store would keep them.
     */
    private byte[] writtenOnTheFirstBuild(Engine engine, boolean withSites, Map<String, String> former)
            throws Exception {
        Class<?> flow = build("first", FIRST).loadClass(NAME);
        for (java.lang.reflect.Method method : flow.getDeclaredMethods()) {
            String sites = CoroutineOutputStream.sitesOf(method);
            if (sites != null) {
                former.put(method.getName() + "\t" + CoroutineOutputStream.fingerprintOf(method), sites);
            }
        }
        @SuppressWarnings("unchecked")
        AsymRunnable<String, String> body = (AsymRunnable<String, String>) flow.getConstructor().newInstance();
        AsymCoroutine<String, String> co = new AsymCoroutine<>(body, engine);
        assertEquals("asked ada", co.call("ada"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<String, String> out = new CoroutineOutputStream<>(bytes)) {
            if (withSites) {
                out.recordSites();
            }
            out.writeAsymCoroutine(co);
        }
        co.close();
        return bytes.toByteArray();
    }

    /** The coroutine written on the first build, read on the build of {@code source}, accepting changed code. */
    private AsymCoroutine<String, String> readOn(String label, String source, Engine engine) throws Exception {
        byte[] written = writtenOnTheFirstBuild(engine, true);
        try (CoroutineInputStream<String, String> in = new CoroutineInputStream<String, String>(
                new ByteArrayInputStream(written), build(label, source)).allowPackage("evolve").acceptChangedCode()) {
            return in.readAsymCoroutine(new AsymCoroutine<>(engine));
        }
    }

    private String refusal(String label, String source, Engine engine) {
        return assertThrows(InvalidObjectException.class, () -> readOn(label, source, engine)).getMessage();
    }

    /** The place of line {@code line} of {@code ask}, as messages name it. */
    private static String ask(int line) {
        return NAME + ".ask(Flow.java:" + line + ")";
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theSameCodeResumesAsAlways(Engine engine) throws Exception {
        assertEquals("run(ada:3:x)", readOn("same", FIRST, engine).call("x"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void linesAndCommentsAddedBeforeTheSiteOnlyMoveIt(Engine engine) throws Exception {
        String moved = FIRST.replace("    String ask(", "    // asks for an answer\n\n\n    String ask(");
        assertEquals("run(ada:3:x)", readOn("moved", moved, engine).call("x"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aStatementAddedAfterTheSiteRunsOnResume(Engine engine) throws Exception {
        String after = withAsk("""
                        int count = name.length();
                        String answer = self.ret("asked " + name);
                        answer = answer.toUpperCase();
                        return name + ":" + count + ":" + answer;
                """);
        assertEquals("run(ada:3:X)", readOn("after", after, engine).call("x"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aStatementAddedBeforeTheSiteDoesNotRunForTheSavedFrame(Engine engine) throws Exception {
        String before = withAsk("""
                        int count = name.length();
                        System.setProperty("evolve.before", name);
                        String answer = self.ret("asked " + name);
                        return name + ":" + count + ":" + answer;
                """);
        System.clearProperty("evolve.before");
        assertEquals("run(ada:3:x)", readOn("before", before, engine).call("x"));
        assertEquals(null, System.getProperty("evolve.before"));
    }

    /** The call moved above the statement before it: what that statement computes is no longer live at the call. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aCallMovedAboveAStatementLeavesWhatItComputesToTheNewCode(Engine engine) throws Exception {
        String moved = withAsk("""
                        String answer = self.ret("asked " + name);
                        int count = name.length() + 10;
                        return name + ":" + count + ":" + answer;
                """);
        assertEquals("run(ada:13:x)", readOn("call-moved", moved, engine).call("x"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aVariableTheNewCodeNoLongerReadsIsDropped(Engine engine) throws Exception {
        String removed = withAsk("""
                        int count = name.length();
                        String answer = self.ret("asked " + name);
                        return name + ":" + answer;
                """);
        assertEquals("run(ada:x)", readOn("removed", removed, engine).call("x"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aNewVariableLiveAtTheSiteIsRefusedByName(Engine engine) {
        String added = withAsk("""
                        int count = name.length();
                        long total = 3;
                        String answer = self.ret("asked " + name);
                        return name + ":" + count + ":" + answer + total;
                """);
        assertEquals(ASK_REFUSED + "`total` is live at " + ask(15) + " in the new code but not in the saved frame",
                withoutBuild(refusal("added", added, engine)));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aVariableWhoseTypeChangedIsRefused(Engine engine) {
        String retyped = withAsk("""
                        long count = name.length();
                        String answer = self.ret("asked " + name);
                        return name + ":" + count + ":" + answer;
                """);
        assertEquals(ASK_REFUSED + "`count` is of type long at " + ask(14) + " in the new code and was of type int in the"
                + " saved frame", withoutBuild(refusal("retyped", retyped, engine)));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSiteWhoseCallIsMadeTwiceCannotBeFound(Engine engine) {
        String twice = withAsk("""
                        int count = name.length();
                        self.ret("first");
                        String answer = self.ret("asked " + name);
                        return name + ":" + count + ":" + answer;
                """);
        assertEquals(ASK_REFUSED + "the frame saved at " + ask(14) + " is suspended in call 1 of 1 of dev.weft.AsymCoroutine.ret"
                + " there, and the new code makes 2: which one it is cannot be told", withoutBuild(refusal("twice", twice, engine)));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRenamedMethodIsNoLongerThere(Engine engine) {
        String renamed = FIRST.replace("ask(", "question(");
        assertTrue(refusal("renamed", renamed, engine).startsWith("cannot restore a frame of evolve.Flow.ask("
                + "Ldev/weft/AsymCoroutine;Ljava/lang/String;)Ljava/lang/String;: the method no longer exists"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMethodAddedElsewhereInTheClassChangesNoFrame(Engine engine) throws Exception {
        String added = FIRST.replace("    String ask(", "    static int twice(int n) {\n        return 2 * n;\n    }\n\n    String ask(");
        assertEquals("run(ada:3:x)", readOn("elsewhere", added, engine).call("x"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aLambdaAddedBeforeTheSiteIsNoVariableLiveThere(Engine engine) throws Exception {
        String lambda = withAsk("""
                        int count = name.length();
                        java.util.function.Supplier<String> shout = () -> name.toUpperCase();
                        System.setProperty("evolve.lambda", shout.get());
                        String answer = self.ret("asked " + name);
                        return name + ":" + count + ":" + answer;
                """);
        assertEquals("run(ada:3:x)", readOn("lambda", lambda, engine).call("x"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aLoopAroundTheSiteMakesVariablesLiveThereThatTheSavedFrameDidNotKeep(Engine engine) {
        String loop = withAsk("""
                        int count = name.length();
                        String answer = null;
                        for (int round = 0; round < 1; round++) {
                            answer = self.ret("asked " + name);
                        }
                        return name + ":" + count + ":" + answer;
                """);
        assertEquals(ASK_REFUSED + "`self` is live at " + ask(16) + " in the new code but not in the saved frame",
                withoutBuild(refusal("loop", loop, engine)));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aStreamWrittenWithoutSitesKeepsTheExactRule(Engine engine) throws Exception {
        assertRefusedAsChanged(writtenOnTheFirstBuild(engine, false), "no-sites", true, engine);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aReaderThatDoesNotAcceptChangedCodeRefusesIt(Engine engine) throws Exception {
        assertRefusedAsChanged(writtenOnTheFirstBuild(engine, true), "not-accepted", false, engine);
    }

    /** Asserts that {@code written}, read on a build whose {@code ask} changed after its call, is refused by the exact rule. */
    private void assertRefusedAsChanged(byte[] written, String label, boolean accept, Engine engine) throws Exception {
        ClassLoader changed = build(label, FIRST.replace("return name + \":\"", "return \"v2 \" + name + \":\""));
        InvalidObjectException refused = assertThrows(InvalidObjectException.class, () -> {
            try (CoroutineInputStream<String, String> in = new CoroutineInputStream<String, String>(
                    new ByteArrayInputStream(written), changed).allowPackage("evolve")) {
                if (accept) {
                    in.acceptChangedCode();
                }
                in.readAsymCoroutine(new AsymCoroutine<>(engine));
            }
        });
        assertTrue(refused.getMessage().contains(": its code changed since the coroutine was written (fingerprint "),
                refused.getMessage());
    }

    /** The coroutine written without sites on the first build, read on {@code source}'s, its sites given apart by {@code former}. */
    private AsymCoroutine<String, String> readApart(String label, String source, Engine engine,
            java.util.function.UnaryOperator<String> former) throws Exception {
        Map<String, String> sites = new HashMap<>();
        byte[] written = writtenOnTheFirstBuild(engine, false, sites);
        try (CoroutineInputStream<String, String> in = new CoroutineInputStream<String, String>(
                new ByteArrayInputStream(written), build(label, source)).allowPackage("evolve")
                .acceptChangedCode((className, method, fingerprint) -> {
                    assertEquals(NAME, className);
                    return former.apply(sites.get(method.substring(0, method.indexOf('(')) + "\t" + fingerprint));
                })) {
            return in.readAsymCoroutine(new AsymCoroutine<>(engine));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void sitesKeptApartMatchARecordWrittenWithoutThem(Engine engine) throws Exception {
        String after = withAsk("""
                        int count = name.length();
                        String answer = self.ret("asked " + name);
                        answer = answer.toUpperCase();
                        return name + ":" + count + ":" + answer;
                """);
        assertEquals("run(ada:3:X)", readApart("after", after, engine, sites -> sites).call("x"));
        String added = withAsk("""
                        int count = name.length();
                        long total = 3;
                        String answer = self.ret("asked " + name);
                        return name + ":" + count + ":" + answer + total;
                """);
        InvalidObjectException refused = assertThrows(InvalidObjectException.class,
                () -> readApart("added", added, engine, sites -> sites));
        assertEquals(ASK_REFUSED + "`total` is live at " + ask(15) + " in the new code but not in the saved frame",
                withoutBuild(refused.getMessage()));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aFrameWhoseFormerSitesAreNotKnownIsRefused(Engine engine) throws Exception {
        String after = FIRST.replace("return name + \":\"", "return \"v2 \" + name + \":\"");
        InvalidObjectException refused = assertThrows(InvalidObjectException.class,
                () -> readApart("v2", after, engine, sites -> null));
        assertTrue(refused.getMessage().startsWith("cannot restore a frame of evolve.Flow.ask(Ldev/weft/AsymCoroutine;"
                + "Ljava/lang/String;)Ljava/lang/String;: its code changed since the coroutine was written, and the"
                + " sites of its former code (fingerprint "), refused.getMessage());
        assertTrue(refused.getMessage().contains(") are not known here (the stream is of build "), refused.getMessage());
    }

    /** Sites that are not Weft's text, of another format, or of other code, each refused naming the method. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void formerSitesThatAreNotThatCodesAreRefused(Engine engine) throws Exception {
        String after = FIRST.replace("return name + \":\"", "return \"v2 \" + name + \":\"");
        java.io.StreamCorruptedException notText = assertThrows(java.io.StreamCorruptedException.class,
                () -> readApart("v2", after, engine, sites -> "not sites!"));
        assertTrue(notText.getMessage().contains("the sites given for the former code of evolve.Flow.ask("
                + "Ldev/weft/AsymCoroutine;Ljava/lang/String;)Ljava/lang/String; are not Weft's text of sites"),
                notText.getMessage());
        InvalidObjectException otherFormat = assertThrows(InvalidObjectException.class,
                () -> readApart("v2", after, engine, sites -> SitesText.textOf(new byte[] {99, 0})));
        assertTrue(otherFormat.getMessage().endsWith(": the sites given for its former code are in the frames of"
                + " woven format 99, and this Weft's are those of format 6"), otherFormat.getMessage());
        java.io.StreamCorruptedException cut = assertThrows(java.io.StreamCorruptedException.class,
                () -> readApart("v2", after, engine, sites -> {
                    byte[] deflated = java.util.Base64.getUrlDecoder().decode(sites);
                    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(
                            deflated, deflated.length / 2));
                }));
        assertTrue(cut.getMessage().contains("the sites given for the former code of evolve.Flow.ask("
                + "Ldev/weft/AsymCoroutine;Ljava/lang/String;)Ljava/lang/String; end inside their deflated bytes"),
                cut.getMessage());
        java.io.StreamCorruptedException truncated = assertThrows(java.io.StreamCorruptedException.class,
                () -> readApart("v2", after, engine, sites -> {
                    byte[] bytes = bytesOf(sites);
                    return SitesText.textOf(java.util.Arrays.copyOf(bytes, bytes.length / 2));
                }));
        assertTrue(truncated.getMessage().contains("of the sites given for the former code of evolve.Flow.ask("),
                truncated.getMessage());
        InvalidObjectException noSite = assertThrows(InvalidObjectException.class,
                () -> readApart("v2", after, engine, sites -> SitesText.textOf(new byte[] {6, 0})));
        assertTrue(noSite.getMessage().contains(" on its changed code: the sites given for its former code"
                + " (fingerprint "), noSite.getMessage());
        assertTrue(noSite.getMessage().contains(") have none at bci "), noSite.getMessage());
    }

    /** {@link SitesText#bytesOf}, for a lambda. */
    private static byte[] bytesOf(String sites) {
        try {
            return SitesText.bytesOf(sites);
        } catch (java.util.zip.DataFormatException e) {
            throw new AssertionError("sitesOf gave no deflated text", e);
        }
    }

    /**
     * A record whose sites name each other's frames (hostile bytes: the method table and its
     * fingerprint intact, the sites swapped): the changed frame is given a site of another size
     * than its own, and the reader refuses the record as corrupt instead of reading past a slot.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void sitesThatDoNotFitTheirFramesAreRefusedAsCorrupt(Engine engine) throws Exception {
        byte[] written = writtenOnTheFirstBuild(engine, true);
        swapFirstTwoSitesKeys(written);
        ClassLoader changed = build("swapped", FIRST.replace("return name + \":\"", "return \"v2 \" + name + \":\""));
        java.io.StreamCorruptedException refused = assertThrows(java.io.StreamCorruptedException.class, () -> {
            try (CoroutineInputStream<String, String> in = new CoroutineInputStream<String, String>(
                    new ByteArrayInputStream(written), changed).allowPackage("evolve").acceptChangedCode()) {
                in.readAsymCoroutine(new AsymCoroutine<>(engine));
            }
        });
        assertTrue(refused.getMessage().contains("a frame of evolve.Flow.ask(Ldev/weft/AsymCoroutine;Ljava/lang/String;)"
                + "Ljava/lang/String; has "), refused.getMessage());
        assertTrue(refused.getMessage().contains(" and the site the record gives it "), refused.getMessage());
    }

    /** Swaps the (method, bci) keys of the record's first two sites, each two one-byte varints, in place. */
    private static void swapFirstTwoSitesKeys(byte[] record) {
        int[] at = {5};
        varint(record, at); // the record's length
        varint(record, at); // the woven format
        at[0] += 8; // the build fingerprint
        int methods = varint(record, at);
        for (int i = 0; i < 4 * methods; i++) {
            skipUtf(record, at);
        }
        assertEquals(2, varint(record, at), "the sites of run and ask");
        int first = at[0];
        skipSite(record, at);
        int second = at[0];
        for (int i = 0; i < 2; i++) {
            assertTrue(record[first + i] >= 0 && record[second + i] >= 0, "one-byte varints");
            byte b = record[first + i];
            record[first + i] = record[second + i];
            record[second + i] = b;
        }
    }

    private static void skipSite(byte[] record, int[] at) {
        for (int i = 0; i < 2; i++) {
            varint(record, at); // method, bci
        }
        skipUtf(record, at); // the called method
        for (int i = 0; i < 4; i++) {
            varint(record, at); // ordinal, calls, monitors, line
        }
        int locals = varint(record, at);
        for (int i = 0; i < 2 * locals; i++) {
            skipUtf(record, at);
        }
        int stack = varint(record, at);
        for (int i = 0; i < stack; i++) {
            skipUtf(record, at);
        }
        int nonNull = varint(record, at);
        for (int i = 0; i < nonNull; i++) {
            varint(record, at);
        }
    }

    /** Moves {@code at[0]} past the utf there: its length, then its bytes. */
    private static void skipUtf(byte[] bytes, int[] at) {
        int length = varint(bytes, at);
        at[0] += length;
    }

    /** The unsigned varint at {@code at[0]}, which moves past it. */
    private static int varint(byte[] bytes, int[] at) {
        int value = 0;
        for (int shift = 0;; shift += 7) {
            int b = bytes[at[0]++] & 0xFF;
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }

    /** {@code message} without its last part, " (the stream is of build ...)". */
    private static String withoutBuild(String message) {
        int at = message.lastIndexOf(" (the stream is of build ");
        return at < 0 ? message : message.substring(0, at);
    }
}
