package dev.weft.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.library.SuiteOutcome.Status;
import dev.weft.weaver.WeaveCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.stream.Stream;
import org.apache.commons.lang3.StringUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * commons-lang3 woven whole with the weaver's command line, and its own test suite run on it,
 * each run in a child JVM of its own ({@link SuiteJvm}): unwoven, woven, and woven with each
 * test inside a coroutine of the woven engine ({@code InWovenCoroutine}). The woven runs must
 * find the same tests as the unwoven one, and end each the same way.
 *
 * <p>By default the suite is {@link #SLICE}, a large slice that takes about a minute a run;
 * {@code -Dweft.library.suite=full} runs commons-lang3's whole suite instead (README, "Weaving
 * real libraries"). The unwoven run goes first, once, for both comparisons.
 *
 * <p>Runs on the test's thread, one child JVM at a time.
 */
class CommonsLang3SuiteTest {

    /** The packages and classes of commons-lang3's suite that run by default. */
    static final List<String> SLICE = List.of("package:org.apache.commons.lang3.builder");
    /** commons-lang3's whole suite. */
    static final List<String> FULL = List.of("package:org.apache.commons.lang3");
    /** A class of commons-lang3 that weaving changes, whose being woven tells whether the library is. */
    private static final String PROBE = StringUtils.class.getName();
    /** Where the woven jar and the runs' directories go. */
    private static final Path WORK = Path.of("target", "commons-lang3");
    /** How long a run may take before it is ended and fails: a guard against a hung child. */
    private static final long GUARD_MINUTES = 60;

    private static Path wovenJar;
    private static String weaveOutput;
    private static List<String> weaveReport;
    private static SuiteOutcome unwoven;

    @BeforeAll
    static void weaveTheLibraryAndRunItsSuiteUnwoven() throws Exception {
        recreate(WORK);
        wovenJar = WORK.resolve("commons-lang3-woven.jar");
        weave(libraryJar(), wovenJar, WORK.resolve("weave.report"));
        unwoven = run("unwoven", libraryJar(), List.of());
    }

    @Test
    void theWeaverWeavesEveryClassOfCommonsLang3AndLeavesNothingAsCompiled() {
        assertEquals(List.of("# weft-weaver: what was left as compiled: class, method (* for the whole class), why"), weaveReport,
                "the weaver's report of what it left as compiled");
        assertTrue(weaveOutput.startsWith("weft-weaver: wove "), weaveOutput);
    }

    @Test
    void theUnwovenRunFindsTheSuiteAndPassesIt(TestReporter reporter) {
        reporter.publishEntry("unwoven", unwoven.counts());
        assertFalse(unwoven.woven(), "the library was woven in the unwoven run");
        assertEquals(List.of(), SuiteComparison.tests(unwoven, r -> r.status() == Status.FAILED),
                "the tests that failed unwoven");
        assertTrue(unwoven.tests(Status.SUCCESSFUL) > 0, unwoven.counts());
    }

    @Test
    void wovenTheSuiteFindsTheSameTestsAndEndsEachTheSameWay(TestReporter reporter) throws Exception {
        SuiteOutcome woven = run("woven", wovenJar, List.of());
        reporter.publishEntry("woven", woven.counts());

        assertTrue(woven.woven(), "the library was not woven in the woven run");
        List<String> differences = SuiteComparison.differences("unwoven", unwoven, "woven", woven);
        assertEquals(List.of(), differences, SuiteComparison.report(differences));
    }

    @Test
    void wovenAndInsideWovenEngineCoroutinesTheSuiteFindsTheSameTestsAndEndsEachTheSameWay(TestReporter reporter)
            throws Exception {
        SuiteOutcome inCoroutines = run("in-coroutines", wovenJar, List.of("-Djunit.jupiter.extensions.autodetection.enabled=true"));
        reporter.publishEntry("in woven-engine coroutines", inCoroutines.counts());

        assertTrue(inCoroutines.woven(), "the library was not woven in the run in coroutines");
        assertEquals(List.of(), SuiteComparison.tests(inCoroutines, r -> r.status() == Status.SUCCESSFUL && !"WOVEN".equals(r.coroutine())),
                "the tests that passed without running in a woven-engine coroutine");
        List<String> differences = SuiteComparison.differences("unwoven", unwoven, "in coroutines", inCoroutines);
        assertEquals(List.of(), differences, SuiteComparison.report(differences));
    }

    /** Weaves {@code jar} into {@code woven} with the command line, as a user would; keeps its output and report. */
    private static void weave(Path jar, Path woven, Path report) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WeaveCommand.run(new String[] {"--report", report.toString(), jar.toString(), woven.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, "the weave command's exit status; it wrote: " + out + err);
        assertEquals("", err.toString(StandardCharsets.UTF_8), "the weave command's standard error");
        weaveOutput = out.toString(StandardCharsets.UTF_8);
        weaveReport = Files.readAllLines(report);
    }

    /**
     * Runs the suite in a child JVM whose class path has {@code library} for commons-lang3, in a
     * directory of its own named {@code name}, laid out as commons-lang3's project is where its
     * tests read files.
     */
    private static SuiteOutcome run(String name, Path library, List<String> systemProperties) throws Exception {
        Path directory = WORK.resolve(name);
        recreate(directory);
        copyTestResources(directory.resolve("src/test/resources"));
        return SuiteJvm.run(directory, classPath(library), systemProperties, PROBE, suite(), GUARD_MINUTES);
    }

    /** {@link #FULL} if the system property {@code weft.library.suite} is {@code full}, else {@link #SLICE}. */
    private static List<String> suite() {
        String suite = System.getProperty("weft.library.suite", "slice");
        if (!suite.equals("slice") && !suite.equals("full")) {
            throw new IllegalArgumentException("weft.library.suite is slice (the default) or full, not " + suite);
        }
        return suite.equals("full") ? FULL : SLICE;
    }

    /**
     * This module's test classes (the runner, and the extension) and its test dependencies as
     * the build lists them in {@code weft.library.classpath}, with {@code library} in the place
     * of commons-lang3's jar.
     */
    private static List<Path> classPath(Path library) throws IOException, URISyntaxException {
        String listing = Objects.requireNonNull(System.getProperty("weft.library.classpath"),
                "the system property weft.library.classpath: the file that lists the test class path (set in the POM)");
        List<Path> entries = new ArrayList<>();
        entries.add(location(SuiteRunner.class));
        Path jar = libraryJar();
        for (String entry : Files.readString(Path.of(listing)).strip().split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            entries.add(Files.isSameFile(path, jar) ? library.toAbsolutePath() : path);
        }
        return entries;
    }

    private static Path libraryJar() throws URISyntaxException {
        return location(StringUtils.class);
    }

    private static Path testsJar() throws URISyntaxException, ClassNotFoundException {
        return location(Class.forName("org.apache.commons.lang3.StringUtilsTest", false, CommonsLang3SuiteTest.class.getClassLoader()));
    }

    private static Path location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** The files of commons-lang3's tests jar that are not classes, into {@code target}, where its tests look for them. */
    private static void copyTestResources(Path target) throws IOException, URISyntaxException, ClassNotFoundException {
        Files.createDirectories(target);
        try (InputStream file = Files.newInputStream(testsJar()); JarInputStream jar = new JarInputStream(file)) {
            for (JarEntry entry = jar.getNextJarEntry(); entry != null; entry = jar.getNextJarEntry()) {
                String name = entry.getName();
                if (!entry.isDirectory() && !name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    Files.copy(jar, target.resolve(name));
                }
            }
        }
    }

    private static void recreate(Path directory) throws IOException {
        if (Files.exists(directory)) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
        Files.createDirectories(directory);
    }
}
