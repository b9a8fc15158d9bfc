package dev.weft.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.library.SuiteOutcome.Status;
import dev.weft.weaver.WeaveCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestReporter;

/**
 * What the tests of libraries woven whole ({@link CommonsLang3SuiteTest}, {@code GuavaSuiteTest})
 * share: weaving a jar with the weaver's command line, finding a JDK 17, files, and the checks of
 * their runs against each other.
 *
 * <p>Functions of their arguments and the file system; thread-safe.
 */
final class WovenLibraries {

    /** The first line of the weave command's report, which lists nothing more if it left nothing as compiled. */
    static final String REPORT_HEADER = "# weft-weaver: what was left as compiled: class, method (* for the whole class), why";

    /** What the weave command did to a jar: its standard output, and the lines of its report. */
    record Weaving(String output, List<String> report) {
    }

    private WovenLibraries() {
    }

    /**
     * Weaves {@code jar} into {@code woven} with the command line, as a user would, with a
     * report of what it left as compiled beside it.
     */
    static Weaving weave(Path jar, Path woven) throws IOException {
        Path report = Path.of(woven + ".report");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WeaveCommand.run(new String[] {"--report", report.toString(), jar.toString(), woven.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, "the weave command's exit status; it wrote: " + out + err);
        assertEquals("", err.toString(StandardCharsets.UTF_8), "the weave command's standard error");
        return new Weaving(out.toString(StandardCharsets.UTF_8), Files.readAllLines(report));
    }

    /** The {@code java} of the JDK 17 that {@link Jdk17} finds; skips the test, saying so, where there is none. */
    static String jdk17Java(TestReporter reporter) throws IOException {
        Optional<Path> home = Jdk17.home();
        assumeTrue(home.isPresent(), "skipped: no JDK 17 found, neither java on the PATH nor under " + Jdk17.JVM_DIRECTORY);
        reporter.publishEntry("JDK 17", home.get().toString());
        return Jdk17.java(home.get()).toString();
    }

    /**
     * That the unwoven run {@code outcome}, named {@code run}, ran {@code library} unwoven, found
     * tests and failed none.
     */
    static void assertFindsTheSuiteAndPassesIt(String library, String run, SuiteOutcome outcome, TestReporter reporter) {
        reporter.publishEntry(run, outcome.counts());
        assertFalse(outcome.woven(), library + " was woven in the run " + run);
        assertEquals(List.of(), SuiteComparison.tests(outcome, r -> r.status() == Status.FAILED),
                "the tests that failed " + run);
        assertTrue(outcome.tests(Status.SUCCESSFUL) > 0, outcome.counts());
    }

    /**
     * That the run in woven-engine coroutines {@code outcome} ran {@code library} woven, each test
     * that passed in a woven-engine coroutine and each test of {@code testsJar} whose method has a
     * twin through its twin, and found the same tests as the unwoven run {@code baseline} on the
     * same JDK, ending each the same way; {@code onJdk} names that JDK in the messages, or is
     * empty for the build's.
     */
    static void assertEndsAsUnwovenInCoroutines(String library, Path testsJar, String onJdk, SuiteOutcome baseline,
            SuiteOutcome outcome, TestReporter reporter) throws IOException {
        reporter.publishEntry("in woven-engine coroutines" + onJdk, outcome.counts());
        List<String> throughTwins = SuiteComparison.tests(outcome, r -> "WOVEN:twin".equals(r.coroutine()));
        reporter.publishEntry("entered through their twins" + onJdk, String.format("%,d", throughTwins.size()));

        assertTrue(outcome.woven(), library + " was not woven in the run in coroutines" + onJdk);
        assertEquals(List.of(), SuiteComparison.tests(outcome, r -> r.status() == Status.SUCCESSFUL
                && (r.coroutine() == null || !r.coroutine().startsWith("WOVEN:"))),
                "the tests that passed without running in a woven-engine coroutine" + onJdk);
        List<String> byInvocation = SuiteComparison.tests(outcome, r -> "WOVEN:invocation".equals(r.coroutine()));
        assertEquals(List.of(), TwinsOfTests.withTwins(testsJar, byInvocation),
                "the tests with twins that were entered by JUnit's call rather than through their twins" + onJdk);
        List<String> differences = SuiteComparison.differences("unwoven" + onJdk, baseline, "in coroutines" + onJdk, outcome);
        assertEquals(List.of(), differences, SuiteComparison.report(differences));
    }

    /** The jar or directory {@code type} was loaded from. */
    static Path location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Deletes {@code directory} with all it holds if it exists, and creates it empty. */
    static void recreate(Path directory) throws IOException {
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
