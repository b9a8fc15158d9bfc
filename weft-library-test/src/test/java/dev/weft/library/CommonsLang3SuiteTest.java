package dev.weft.library;

import static dev.weft.library.WovenLibraries.REPORT_HEADER;
import static dev.weft.library.WovenLibraries.assertEndsAsUnwovenInCoroutines;
import static dev.weft.library.WovenLibraries.assertFindsTheSuiteAndPassesIt;
import static dev.weft.library.WovenLibraries.jdk17Java;
import static dev.weft.library.WovenLibraries.location;
import static dev.weft.library.WovenLibraries.recreate;
import static dev.weft.library.WovenLibraries.weave;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import dev.weft.library.WovenLibraries.Weaving;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import org.apache.commons.lang3.StringUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * commons-lang3 and its tests jar woven whole with the weaver's command line, and its own test
 * suite run three times, each in a child JVM of its own ({@link SuiteJvm}) on the build's java:
 * unwoven; woven; and woven with each test inside a coroutine of the woven engine, entered
 * through its twin ({@code InWovenCoroutine}), so that the library runs as twins. The woven runs
 * must find the same tests as the unwoven one, and end each the same way; a difference fails
 * the test, listed with the test's unique id and what it threw.
 *
 * <p>The suite runs twice more on a JDK 17, the oldest JDK the woven engine runs on, found as
 * {@link Jdk17} finds it: unwoven, and woven in woven-engine coroutines, compared with each other
 * in the same way. The woven engine links some calls differently there (a twin's call of an
 * array's {@code clone()} was linked through a handle that JDK 17 narrows to the caller's class,
 * and failed only there); where there is no JDK 17, those two tests are skipped and say so.
 *
 * <p>By default the suite is {@link #SLICE}, some 20 seconds a run;
 * {@code -Dweft.library.suite=full} runs commons-lang3's whole suite instead (README, "Libraries
 * woven whole"). Weaving and the unwoven run on the build's java happen once, before the tests;
 * the unwoven run on JDK 17 once too, when a JDK 17 test first needs it.
 *
 * <p>Runs on the test's thread, one child JVM at a time.
 */
class CommonsLang3SuiteTest {

    /**
     * The part of commons-lang3's suite that runs by default: all but its tests of threads and
     * timing, which would make the comparison as flaky as they are under load, and its slowest
     * tests, which go through every locale or time zone of the JDK (minutes on JDK 25) or sleep.
     */
    static final List<String> SLICE = List.of("package:org.apache.commons.lang3",
            "not-package:org.apache.commons.lang3.concurrent",
            "not-package:org.apache.commons.lang3.time",
            "not-class:org.apache.commons.lang3.builder.ToStringStyleConcurrencyTest",
            "not-class:org.apache.commons.lang3.text.ExtendedMessageFormatTest",
            "not-class:org.apache.commons.lang3.ClassUtilsOssFuzzTest");
    /** commons-lang3's whole suite. */
    static final List<String> FULL = List.of("package:org.apache.commons.lang3");
    /** A class of commons-lang3 that weaving changes, whose being woven tells whether the library is. */
    private static final String PROBE = StringUtils.class.getName();
    /** Where the woven jars and the runs' directories go. */
    private static final Path WORK = Path.of("target", "commons-lang3");
    /** How long a run may take before it is ended and fails: a guard against a hung child. */
    private static final long GUARD_MINUTES = 60;
    /** The system property that has the suite's JVM register {@code InWovenCoroutine}, by its {@code META-INF/services}. */
    private static final List<String> IN_COROUTINES = List.of("-Djunit.jupiter.extensions.autodetection.enabled=true");

    /** commons-lang3's jar and its tests jar. */
    private record Jars(Path library, Path tests) {
    }

    private static Jars woven;
    private static Weaving libraryWeaving;
    private static Weaving testsWeaving;
    private static SuiteOutcome unwoven;
    /** The unwoven run on JDK 17; null until a JDK 17 test first needs it. */
    private static SuiteOutcome unwovenOnJdk17;

    @BeforeAll
    static void weaveTheLibraryAndItsTestsAndRunTheSuiteUnwoven() throws Exception {
        recreate(WORK);
        Jars jars = jars();
        woven = new Jars(WORK.resolve("commons-lang3-woven.jar"), WORK.resolve("commons-lang3-tests-woven.jar"));
        libraryWeaving = weave(jars.library(), woven.library());
        testsWeaving = weave(jars.tests(), woven.tests());
        unwoven = run("unwoven", SuiteJvm.buildJava(), jars, List.of());
    }

    @Test
    void theWeaverWeavesCommonsLang3WholeAndLeavesNothingAsCompiled() {
        assertEquals(List.of(REPORT_HEADER), libraryWeaving.report(), "the weaver's report of what it left as compiled");
        assertTrue(libraryWeaving.output().startsWith("weft-weaver: wove "), libraryWeaving.output());
    }

    @Test
    void theWeaverWeavesCommonsLang3sTestsAndLeavesAsCompiledOnlyTwoMethodsTooLargeToWeave() {
        assertEquals(List.of(REPORT_HEADER,
                "org.apache.commons.lang3.ArrayUtilsTest\ttestSameLengthAll()V\tit is too large to weave: woven, its code"
                        + " would be 1,622,515 bytes, over the JVM's limit of 65,535 a method",
                "org.apache.commons.lang3.SystemUtilsTest\ttestJavaVersionMatches()V\tit is too large to weave: woven, its"
                        + " code would be 89,716 bytes, over the JVM's limit of 65,535 a method"),
                testsWeaving.report(), "the weaver's report of what it left as compiled");
    }

    @Test
    void theUnwovenRunFindsTheSuiteAndPassesIt(TestReporter reporter) {
        assertFindsTheSuiteAndPassesIt("the library", "unwoven", unwoven, reporter);
    }

    @Test
    void onJdk17TheUnwovenRunFindsTheSuiteAndPassesIt(TestReporter reporter) throws Exception {
        assertFindsTheSuiteAndPassesIt("the library", "unwoven on JDK 17", unwovenOnJdk17(jdk17Java(reporter)), reporter);
    }

    @Test
    void wovenTheSuiteFindsTheSameTestsAndEndsEachTheSameWay(TestReporter reporter) throws Exception {
        SuiteOutcome outcome = run("woven", SuiteJvm.buildJava(), woven, List.of());
        reporter.publishEntry("woven", outcome.counts());

        assertTrue(outcome.woven(), "the library was not woven in the woven run");
        List<String> differences = SuiteComparison.differences("unwoven", unwoven, "woven", outcome);
        assertEquals(List.of(), differences, SuiteComparison.report(differences));
    }

    @Test
    void wovenAndInsideWovenEngineCoroutinesTheSuiteFindsTheSameTestsAndEndsEachTheSameWay(TestReporter reporter)
            throws Exception {
        SuiteOutcome outcome = run("in-coroutines", SuiteJvm.buildJava(), woven, IN_COROUTINES);
        assertEndsAsUnwovenInCoroutines("the library", woven.tests(), "", unwoven, outcome, reporter);
    }

    @Test
    void onJdk17WovenAndInsideWovenEngineCoroutinesTheSuiteFindsTheSameTestsAndEndsEachTheSameWay(TestReporter reporter)
            throws Exception {
        String java = jdk17Java(reporter);
        SuiteOutcome baseline = unwovenOnJdk17(java);
        SuiteOutcome outcome = run("in-coroutines-jdk17", java, woven, IN_COROUTINES);
        assertEndsAsUnwovenInCoroutines("the library", woven.tests(), " on JDK 17", baseline, outcome, reporter);
    }

    /** The unwoven run on JDK 17, whose {@code java} is {@code java}, run the first time a test asks for it. */
    private static SuiteOutcome unwovenOnJdk17(String java) throws Exception {
        if (unwovenOnJdk17 == null) {
            unwovenOnJdk17 = run("unwoven-jdk17", java, jars(), List.of());
        }
        return unwovenOnJdk17;
    }

    /**
     * Runs the suite in a child JVM of {@code java} whose class path has {@code jars} for
     * commons-lang3's, in a directory of its own named {@code name}, laid out as commons-lang3's
     * project is where its tests read files.
     */
    private static SuiteOutcome run(String name, String java, Jars jars, List<String> systemProperties) throws Exception {
        Path directory = WORK.resolve(name);
        recreate(directory);
        copyTestResources(directory.resolve("src/test/resources"));
        List<String> selectors = new ArrayList<>(suite());
        selectors.add("engine:junit-jupiter"); // commons-lang3's tests are Jupiter's; guava's, on the class path too, vintage's
        return SuiteJvm.run(java, directory, classPath(jars), systemProperties, PROBE, selectors, GUARD_MINUTES);
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
     * the build lists them in {@code weft.library.classpath}, with {@code jars} in the place of
     * commons-lang3's jars.
     */
    private static List<Path> classPath(Jars jars) throws Exception {
        String listing = Objects.requireNonNull(System.getProperty("weft.library.classpath"),
                "the system property weft.library.classpath: the file that lists the test class path (set in the POM)");
        Jars original = jars();
        List<Path> entries = new ArrayList<>();
        entries.add(location(SuiteRunner.class));
        for (String entry : Files.readString(Path.of(listing)).strip().split(File.pathSeparator)) {
            Path path = Path.of(entry);
            entries.add(Files.isSameFile(path, original.library()) ? jars.library().toAbsolutePath()
                    : Files.isSameFile(path, original.tests()) ? jars.tests().toAbsolutePath() : path);
        }
        return entries;
    }

    /** commons-lang3's jars, as this test loads them. */
    private static Jars jars() throws URISyntaxException, ClassNotFoundException {
        Class<?> test = Class.forName("org.apache.commons.lang3.StringUtilsTest", false, CommonsLang3SuiteTest.class.getClassLoader());
        return new Jars(location(StringUtils.class), location(test));
    }

    /** The files of commons-lang3's tests jar that are not classes, into {@code target}, where its tests look for them. */
    private static void copyTestResources(Path target) throws IOException, URISyntaxException, ClassNotFoundException {
        Files.createDirectories(target);
        try (InputStream file = Files.newInputStream(jars().tests()); JarInputStream jar = new JarInputStream(file)) {
            for (JarEntry entry = jar.getNextJarEntry(); entry != null; entry = jar.getNextJarEntry()) {
                String name = entry.getName();
                if (!entry.isDirectory() && !name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    Files.copy(jar, target.resolve(name));
                }
            }
        }
    }
}
