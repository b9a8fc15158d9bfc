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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.testing.AbstractTester;
import dev.weft.library.WovenLibraries.Weaving;
import dev.weft.library.guava.GuavaCollectionSuites;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * guava and guava-testlib woven whole with the weaver's command line, and the JUnit 3 suites
 * that guava-testlib's suite builders generate for guava's collections
 * ({@link GuavaCollectionSuites}) run by JUnit's vintage engine three times, each in a child JVM
 * of its own ({@link SuiteJvm}, with the same JVM options as commons-lang3's) on the build's
 * java: unwoven; woven; and woven with each test inside a coroutine of the woven engine, entered
 * through its test method's twin ({@code JUnit3InWovenCoroutine}), so that guava's collections
 * and testlib's testers run as twins. The woven runs must find the same tests as the unwoven
 * one, and end each the same way; a difference fails the test, listed with the test's unique id
 * and what it threw. On a JDK 17, where there is one, the suites run twice more, unwoven and in
 * woven-engine coroutines, compared with each other, as {@link CommonsLang3SuiteTest}'s do.
 *
 * <p>By default the suites are {@link GuavaCollectionSuites}' slice;
 * {@code -Dweft.library.suite=full} runs them all (README, "Libraries woven whole"), which needs
 * a larger heap than the default 512 MB ({@code -Dweft.library.heap}). Weaving and the unwoven
 * run on the build's java happen once, before the tests; the unwoven run on JDK 17 once too,
 * when a JDK 17 test first needs it.
 *
 * <p>Runs on the test's thread, one child JVM at a time.
 */
class GuavaSuiteTest {

    /** A class of guava that weaving changes, whose being woven tells whether the library is. */
    private static final String PROBE = ImmutableList.class.getName();
    /** The suites, by the selectors of {@link SuiteRunner}: JUnit 4 runs the class's suite() method. */
    private static final List<String> SELECTORS = List.of("class:" + GuavaCollectionSuites.class.getName(),
            "engine:junit-vintage");
    /** Where the woven jars and the runs' directories go. */
    private static final Path WORK = Path.of("target", "guava");
    /** How long a run may take before it is ended and fails: a guard against a hung child. */
    private static final long GUARD_MINUTES = 60;
    /** The system property that has {@link GuavaCollectionSuites} run each test in a woven-engine coroutine. */
    private static final List<String> IN_COROUTINES = List.of("-D" + GuavaCollectionSuites.IN_COROUTINES + "=true");

    /** guava's jar and guava-testlib's. */
    private record Jars(Path library, Path testlib) {
    }

    private static Jars woven;
    private static Weaving libraryWeaving;
    private static Weaving testlibWeaving;
    private static SuiteOutcome unwoven;
    /** The unwoven run on JDK 17; null until a JDK 17 test first needs it. */
    private static SuiteOutcome unwovenOnJdk17;

    @BeforeAll
    static void weaveGuavaAndItsTestlibAndRunTheSuitesUnwoven() throws Exception {
        recreate(WORK);
        Jars jars = jars();
        woven = new Jars(WORK.resolve("guava-woven.jar"), WORK.resolve("guava-testlib-woven.jar"));
        libraryWeaving = weave(jars.library(), woven.library());
        testlibWeaving = weave(jars.testlib(), woven.testlib());
        unwoven = run("unwoven", SuiteJvm.buildJava(), jars, List.of());
    }

    @Test
    void theWeaverWeavesGuavaWholeAndLeavesNothingAsCompiled() {
        assertEquals(List.of(REPORT_HEADER), libraryWeaving.report(), "the weaver's report of what it left as compiled");
        assertTrue(libraryWeaving.output().startsWith("weft-weaver: wove "), libraryWeaving.output());
    }

    @Test
    void theWeaverWeavesGuavaTestlibWholeAndLeavesNothingAsCompiled() {
        assertEquals(List.of(REPORT_HEADER), testlibWeaving.report(), "the weaver's report of what it left as compiled");
        assertTrue(testlibWeaving.output().startsWith("weft-weaver: wove "), testlibWeaving.output());
    }

    @Test
    void theUnwovenRunFindsTheSuitesAndPassesThem(TestReporter reporter) {
        assertFindsTheSuiteAndPassesIt("guava", "unwoven", unwoven, reporter);
    }

    @Test
    void onJdk17TheUnwovenRunFindsTheSuitesAndPassesThem(TestReporter reporter) throws Exception {
        assertFindsTheSuiteAndPassesIt("guava", "unwoven on JDK 17", unwovenOnJdk17(jdk17Java(reporter)), reporter);
    }

    @Test
    void wovenTheSuitesFindTheSameTestsAndEndEachTheSameWay(TestReporter reporter) throws Exception {
        SuiteOutcome outcome = run("woven", SuiteJvm.buildJava(), woven, List.of());
        reporter.publishEntry("woven", outcome.counts());

        assertTrue(outcome.woven(), "guava was not woven in the woven run");
        List<String> differences = SuiteComparison.differences("unwoven", unwoven, "woven", outcome);
        assertEquals(List.of(), differences, SuiteComparison.report(differences));
    }

    @Test
    void wovenAndInsideWovenEngineCoroutinesTheSuitesFindTheSameTestsAndEndEachTheSameWay(TestReporter reporter)
            throws Exception {
        SuiteOutcome outcome = run("in-coroutines", SuiteJvm.buildJava(), woven, IN_COROUTINES);
        assertEndsAsUnwovenInCoroutines("guava", woven.testlib(), "", unwoven, outcome, reporter);
    }

    @Test
    void onJdk17WovenAndInsideWovenEngineCoroutinesTheSuitesFindTheSameTestsAndEndEachTheSameWay(TestReporter reporter)
            throws Exception {
        String java = jdk17Java(reporter);
        SuiteOutcome baseline = unwovenOnJdk17(java);
        SuiteOutcome outcome = run("in-coroutines-jdk17", java, woven, IN_COROUTINES);
        assertEndsAsUnwovenInCoroutines("guava", woven.testlib(), " on JDK 17", baseline, outcome, reporter);
    }

    /** The unwoven run on JDK 17, whose {@code java} is {@code java}, run the first time a test asks for it. */
    private static SuiteOutcome unwovenOnJdk17(String java) throws Exception {
        if (unwovenOnJdk17 == null) {
            unwovenOnJdk17 = run("unwoven-jdk17", java, jars(), List.of());
        }
        return unwovenOnJdk17;
    }

    /**
     * Runs the suites in a child JVM of {@code java} whose class path has {@code jars} for
     * guava's and guava-testlib's, in a directory of its own named {@code name}.
     */
    private static SuiteOutcome run(String name, String java, Jars jars, List<String> systemProperties) throws Exception {
        Path directory = WORK.resolve(name);
        recreate(directory);
        List<String> properties = new ArrayList<>(systemProperties);
        properties.add("-D" + GuavaCollectionSuites.SUITE + "=" + suite());
        return SuiteJvm.run(java, directory, classPath(jars), properties, PROBE, SELECTORS, GUARD_MINUTES);
    }

    /** The system property {@code weft.library.suite}: slice (the default) or full. */
    private static String suite() {
        String suite = System.getProperty("weft.library.suite", "slice");
        if (!suite.equals("slice") && !suite.equals("full")) {
            throw new IllegalArgumentException("weft.library.suite is slice (the default) or full, not " + suite);
        }
        return suite;
    }

    /**
     * This module's test classes (the runner, the suites, and the decorator) and its test
     * dependencies as the build lists them in {@code weft.library.classpath}, with {@code jars}
     * in the place of guava's and guava-testlib's.
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
                    : Files.isSameFile(path, original.testlib()) ? jars.testlib().toAbsolutePath() : path);
        }
        return entries;
    }

    /** guava's jar and guava-testlib's, as this test loads them. */
    private static Jars jars() throws Exception {
        return new Jars(location(ImmutableList.class), location(AbstractTester.class));
    }
}
