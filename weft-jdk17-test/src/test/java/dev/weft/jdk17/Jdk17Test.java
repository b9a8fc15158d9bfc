package dev.weft.jdk17;

import dev.weft.CoroutineBase;
import dev.weft.jdk17.woven.Jdk17Check;
import dev.weft.jdk17.woven.SessionsCheck;
import dev.weft.sessions.Sessions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Weft on JDK 17 (issue 12, point 3): a child JVM of JDK 17, started with no JVM option but the
 * agent, runs {@link Jdk17Check} from this module's classes (compiled for 17, woven at build
 * time) and weft-core's jar: woven coroutines, a sealed serialization read back and resumed, arrays copied by {@code clone()} in twins, a
 * class woven by the agent as it loads, and the native engine's refusals; and
 * {@link SessionsCheck}, a sealed session in SQLite, with weft-sessions' jar and SQLite's driver. Then the weaver's
 * command line, on JDK 17, weaves that class instead, and the same program runs with no option
 * at all; and the agent weaves it again with weft-core on the module path (module {@code dev.weft}).
 * The JDK 17 is {@code java} on the PATH if it is one, else one under {@code /usr/lib/jvm};
 * where there is none, the tests are skipped and say so. The children run one at a time, on
 * the test's thread.
 */
class Jdk17Test {

    private static final String FEATURE = "17";
    /** The package the build leaves unwoven, for the agent or the command line to weave. */
    private static final String LOAD_TIME_PACKAGE = "dev.weft.jdk17.loadtime";
    private static final Path JVM_DIRECTORY = Path.of("/usr/lib/jvm");

    @Test
    void wovenCoroutinesSerializationAndTheAgentRunOnJdk17WithNoJvmOption(TestReporter reporter) throws Exception {
        Path home = jdk17(reporter);
        Child child = run(List.of(java(home), "-javaagent:" + agentJar() + "=" + LOAD_TIME_PACKAGE,
                "-cp", classPath(classes(), core()), Jdk17Check.class.getName()));

        assertEquals("", child.errors, "the child's standard error");
        assertEquals(expectedLines(home), child.lines);
        assertEquals(0, child.status, "the child's exit status");
    }

    @Test
    void theWeaveCommandRunsOnJdk17AndWhatItWeavesRunsWithNoJvmOptionAtAll(TestReporter reporter, @TempDir Path woven)
            throws Exception {
        Path home = jdk17(reporter);
        weaveLoadTimeClasses(home, woven);

        Child child = run(List.of(java(home), "-cp", classPath(woven, classes(), core()), Jdk17Check.class.getName()));

        assertEquals("", child.errors, "the child's standard error");
        assertEquals(expectedLines(home), child.lines);
        assertEquals(0, child.status, "the child's exit status");
    }

    @Test
    void weftCoreRunsOnJdk17AsAModuleOnTheModulePathWithTheAgent(TestReporter reporter) throws Exception {
        Path home = jdk17(reporter);
        Child child = run(List.of(java(home), "-javaagent:" + agentJar() + "=" + LOAD_TIME_PACKAGE,
                "-p", core().toString(), "--add-modules", "dev.weft", "-cp", classes().toString(),
                Jdk17Check.class.getName()));

        assertEquals("", child.errors, "the child's standard error");
        assertEquals(expectedLines(home), child.lines);
        assertEquals(0, child.status, "the child's exit status");
    }

    @Test
    void aSealedSessionIsStoredAndResumedOnJdk17WithNoJvmOption(TestReporter reporter, @TempDir Path work)
            throws Exception {
        Path home = jdk17(reporter);
        Child child = run(List.of(java(home), "-cp", classPath(classes(), core(), sessions(), sqlite()),
                SessionsCheck.class.getName(), work.resolve("sessions.db").toString()));

        assertEquals("", child.errors, "the child's standard error");
        assertEquals(List.of("version 1: name?", "version 2: visits, Ada?", "version 3, finished: Ada visited 3 times",
                "stored afterwards: false"), child.lines);
        assertEquals(0, child.status, "the child's exit status");
    }

    /** Copies the classes the build left unwoven into {@code woven} and weaves them there, on JDK 17, with the command line. */
    private static void weaveLoadTimeClasses(Path home, Path woven) throws Exception {
        Path loadTime = Path.of(LOAD_TIME_PACKAGE.replace('.', '/'));
        Files.createDirectories(woven.resolve(loadTime));
        try (Stream<Path> files = Files.list(classes().resolve(loadTime))) {
            for (Path file : files.toList()) {
                Files.copy(file, woven.resolve(loadTime).resolve(file.getFileName()));
            }
        }
        Child weave = run(List.of(java(home), "-jar", agentJar().toString(), "--only", LOAD_TIME_PACKAGE, woven.toString()));
        assertEquals(new Child(List.of("weft-weaver: wove 1 classes in " + woven), "", 0), weave, "the weave command");
    }

    /** What {@link Jdk17Check} prints on the JDK at {@code home}. */
    private static List<String> expectedLines(Path home) throws IOException {
        String version = release(home).getProperty("JAVA_RUNTIME_VERSION");
        String refusal = " on Engine.NATIVE: the native engine runs on HotSpot's continuations, which need JDK 21 or newer,"
                + " and this JVM is JDK " + version + " (" + home + "); create it on Engine.WOVEN with its classes woven,"
                + " or run on JDK 21 or newer";
        return List.of(
                "JDK " + version + " at " + home + ", default engine WOVEN",
                "symmetric: b1 a1 b2 a2 b3 a3",
                "asymmetric: 1 4 9 16 25",
                "deep: bottom, up 1 over 0, up 2 over 1, up 3 over 3, up 4 over 6, done after 10",
                "serialized: 8 written, then 18 from the copy and 9 from the original",
                "woven after the build: 3 2 1 liftoff",
                "from another thread: java.lang.IllegalStateException",
                "array clones: boolean[] copied byte[] copied char[] copied short[] copied, int[] copied long[] copied"
                        + " float[] copied double[] copied, String[] [x, y] copied, int[][] shallow, null: NullPointerException",
                "native engine: cannot create dev.weft.AsymCoroutine" + refusal,
                "native engine by default: cannot create dev.weft.jdk17.woven.Squares" + refusal,
                "after the refusals: 1 4 9 16 25");
    }

    /** The JDK 17 the test runs its children on; skips the test, saying so, where there is none. */
    private static Path jdk17(TestReporter reporter) throws IOException {
        Optional<Path> jdk = findJdk17();
        assumeTrue(jdk.isPresent(), "skipped: no JDK 17 found, neither java on the PATH nor under " + JVM_DIRECTORY);
        reporter.publishEntry("JDK 17", jdk.get().toString());
        return jdk.get();
    }

    private static String java(Path home) {
        return home.resolve("bin/java").toString();
    }

    private static String classPath(Path... entries) {
        return Stream.of(entries).map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    /** weft-core, as this test loads it: its jar when the build has packaged it. */
    private static Path core() throws URISyntaxException {
        return location(CoroutineBase.class.getProtectionDomain().getCodeSource());
    }

    /** weft-sessions, as this test loads it. */
    private static Path sessions() throws URISyntaxException {
        return location(Sessions.class.getProtectionDomain().getCodeSource());
    }

    /** SQLite's driver, which weft-sessions depends on. */
    private static Path sqlite() throws URISyntaxException {
        return location(org.sqlite.JDBC.class.getProtectionDomain().getCodeSource());
    }

    /** This module's main classes, compiled for 17, {@code dev.weft.jdk17.woven} woven by the build. */
    private static Path classes() throws URISyntaxException {
        return location(Jdk17Check.class.getProtectionDomain().getCodeSource());
    }

    /** What a finished child JVM wrote and returned. */
    private record Child(List<String> lines, String errors, int status) {
    }

    private static Child run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        // no JVM option from the environment either
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("_JAVA_OPTIONS");
        Process process = builder.start();
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> text(process.getErrorStream()));
        String output = text(process.getInputStream());
        // a guard against a hung child, not a measurement
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the JDK 17 child did not end; it wrote:\n" + output);
        }
        return new Child(output.lines().toList(), errors.join(), process.exitValue());
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The home of {@code java} on the PATH if it is a JDK 17, else of the first JDK 17 under /usr/lib/jvm. */
    private static Optional<Path> findJdk17() throws IOException {
        List<Path> candidates = new ArrayList<>();
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path java = Path.of(directory, "java");
            if (!directory.isEmpty() && Files.isExecutable(java)) {
                candidates.add(java.toRealPath().getParent().getParent());
                break;
            }
        }
        if (Files.isDirectory(JVM_DIRECTORY)) {
            try (Stream<Path> homes = Files.list(JVM_DIRECTORY)) {
                homes.sorted().forEach(candidates::add);
            }
        }
        for (Path home : candidates) {
            Path real = home.toRealPath();
            if (Files.isExecutable(real.resolve("bin/java")) && isFeature17(real)) {
                return Optional.of(real);
            }
        }
        return Optional.empty();
    }

    private static boolean isFeature17(Path home) throws IOException {
        if (!Files.isRegularFile(home.resolve("release"))) {
            return false;
        }
        String version = release(home).getProperty("JAVA_VERSION", "");
        return version.equals(FEATURE) || version.startsWith(FEATURE + ".");
    }

    /** The JDK's {@code release} file, its values unquoted. */
    private static Properties release(Path home) throws IOException {
        Properties values = new Properties();
        try (var in = Files.newBufferedReader(home.resolve("release"))) {
            values.load(in);
        }
        values.replaceAll((name, value) -> value.toString().replaceAll("^\"|\"$", ""));
        return values;
    }

    private static Path location(CodeSource source) throws URISyntaxException {
        return Path.of(source.getLocation().toURI());
    }

    /** weft-weaver's agent jar, a test dependency of this module. */
    private static Path agentJar() throws IOException, URISyntaxException {
        URL agentClass = Jdk17Test.class.getClassLoader().getResource("dev/weft/weaver/WeaverAgent.class");
        assertTrue(agentClass != null && agentClass.getProtocol().equals("jar"),
                "weft-weaver's agent jar is not on the test class path: " + agentClass);
        Path jar = Path.of(((JarURLConnection) agentClass.openConnection()).getJarFileURL().toURI());
        assertTrue(jar.getFileName().toString().endsWith("-agent.jar"), "not the agent jar: " + jar);
        return jar;
    }
}
