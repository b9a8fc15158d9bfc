package dev.weft.library;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A child JVM that runs a library's test suite with {@link SuiteRunner}: the {@code java} given
 * ({@link #buildJava()}, this JVM's or the one the system property {@code weft.library.java}
 * names; or another JDK's, such as a JDK 17), the library's own JVM options for its tests (its
 * heap of 512 MB, or {@code weft.library.heap}) whatever the JDK, the class path and system
 * properties given, in a working directory of its own, which holds its log and its outcome
 * afterwards.
 *
 * <p>Each call starts one child and waits for it on the calling thread.
 */
final class SuiteJvm {

    /**
     * commons-lang3's JVM options for its tests (the add-opens of its POM's {@code java9+}
     * profile, for tests that reflect into {@code java.base}; its {@code heapSize} is
     * {@link #heap()}), and the one that Weft's native engine needs, for woven code (README,
     * "Access to jdk.internal.vm").
     */
    private static final List<String> JVM_OPTIONS = List.of(
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED", "--add-opens", "java.base/java.time=ALL-UNNAMED",
            "--add-opens", "java.base/java.time.chrono=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED");

    private SuiteJvm() {
    }

    /**
     * Runs the suite that {@code selectors} choose in a child JVM, in {@code directory} (which
     * must exist), and returns its outcome.
     *
     * @param java             the {@code java} command the child runs on
     * @param directory        the child's working directory; its log goes to {@code suite.log} there
     * @param classPath        the child's class path, which must hold {@link SuiteRunner} and JUnit
     * @param systemProperties {@code -Dname=value} options for the child
     * @param probe            a class of the library, whose being woven tells whether the library is
     * @param selectors        {@code package:NAME} or {@code class:NAME}, as {@link SuiteRunner} takes
     * @param minutes          how long the child may take before it is ended and the run fails
     * @throws AssertionError if the child exits with another status than 0, or does not end in time
     */
    static SuiteOutcome run(String java, Path directory, List<Path> classPath, List<String> systemProperties, String probe,
            List<String> selectors, long minutes) throws IOException, InterruptedException {
        Path outcome = directory.resolve("suite.outcome");
        Path log = directory.resolve("suite.log");
        Files.deleteIfExists(outcome);
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("-Xmx" + heap());
        command.addAll(JVM_OPTIONS);
        command.addAll(systemProperties);
        command.addAll(List.of("-cp", classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
                SuiteRunner.class.getName(), outcome.toAbsolutePath().toString(), probe));
        command.addAll(selectors);
        Process process = start(command, directory, log);
        // a guard against a hung child, not a measurement
        if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the suite's JVM did not end within " + minutes + " minutes; its log is " + log);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("the suite's JVM exited with status " + process.exitValue() + "; its log is " + log);
        }
        return SuiteOutcome.read(outcome);
    }

    /** The system property {@code weft.library.heap} if it is set and not blank, else commons-lang3's 512m. */
    private static String heap() {
        String heap = System.getProperty("weft.library.heap", "");
        return heap.isBlank() ? "512m" : heap;
    }

    /** The system property {@code weft.library.java} if it is set and not blank, else the java of this JVM. */
    static String buildJava() {
        String java = System.getProperty("weft.library.java", "");
        if (!java.isBlank()) {
            return java;
        }
        return ProcessHandle.current().info().command().orElseThrow(() -> new IllegalStateException("this JVM's java command is"
                + " not known: set the system property weft.library.java to the java to run the suite with"));
    }

    private static Process start(List<String> command, Path directory, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // the options above and no others: none from the environment
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("_JAVA_OPTIONS");
        return builder.start();
    }
}
