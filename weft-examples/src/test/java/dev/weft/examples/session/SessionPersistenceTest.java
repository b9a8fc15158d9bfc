package dev.weft.examples.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thesis section 5.2, driven as the thesis drives it: every step is a separate JVM that loads
 * the suspended interaction from {@code data.bin}, answers, prints and stores it again.
 */
class SessionPersistenceTest {

    @TempDir
    Path directory;

    private record Run(int exitCode, String output) {
    }

    private List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-XX:-UsePerfData", "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Questions.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private Run run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the step did not end");
        return new Run(process.exitValue(), output);
    }

    /** Runs {@code java Questions [answer]} in the session's directory and returns what it printed. */
    private String step(String... answer) throws IOException, InterruptedException {
        Run run = run(javaCommand(answer));
        assertEquals(0, run.exitCode(), run.output());
        return run.output();
    }

    @Test
    void theTranscriptOfSection52() throws Exception {
        assertEquals("Please enter your name:\n", step());
        assertEquals("Please enter your country:\n", step("John Doe"));
        assertEquals("Please enter your age:\n", step("Genovia"));
        assertEquals("Please enter your age:\nPlease enter a valid number!\n", step("twenty-eight"));
        assertTrue(Files.exists(directory.resolve("data.bin")));
        assertEquals("Please enter your email address:\n", step("28"));
        assertEquals("Name: John Doe, Country: Genovia, Age: 28, Email: nospam@nospam.at\n", step("nospam@nospam.at"));
        assertFalse(Files.exists(directory.resolve("data.bin")), "a finished interaction leaves no file");
    }

    @Test
    void theOtherBranchAsksForATelephoneNumber() throws Exception {
        step();
        step("Old Timer");
        step("Austria");
        assertEquals("Please enter your telephone number:\n", step("81"));
        assertEquals("Name: Old Timer, Country: Austria, Age: 81, Telephone: 555-0100\n", step("555-0100"));
    }

    /**
     * A step whose write fails (a file size limit of zero stops the JVM's write with EFBIG: the
     * compact state is smaller than the smallest other limit, a 1 KiB block) must leave the
     * previous state as it was: the next step carries on from there.
     */
    @Test
    void aWriteThatFailsHalfwayLosesNothing() throws Exception {
        step();
        step("John Doe");
        byte[] before = Files.readAllBytes(directory.resolve("data.bin"));
        List<String> limited = new ArrayList<>(List.of("bash", "-c", "ulimit -f 0; exec \"$@\"", "bash"));
        limited.addAll(javaCommand("Genovia"));
        Run failed = run(limited);
        assertNotEquals(0, failed.exitCode(), failed.output());
        assertTrue(failed.output().contains("File too large"), failed.output());
        assertEquals(new String(before, StandardCharsets.ISO_8859_1),
                new String(Files.readAllBytes(directory.resolve("data.bin")), StandardCharsets.ISO_8859_1));
        try (Stream<Path> files = Files.list(directory)) {
            assertEquals(List.of(directory.resolve("data.bin")), files.toList(), "no partial file is left behind");
        }
        assertEquals("Please enter your age:\n", step("Genovia"));
        assertEquals("Please enter your email address:\n", step("28"));
    }

    @Test
    void aCorruptedFileIsRefusedWithAClearError() throws Exception {
        step();
        Path data = directory.resolve("data.bin");
        byte[] bytes = Files.readAllBytes(data);
        Files.write(data, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Run run = run(javaCommand("John Doe"));
        assertNotEquals(0, run.exitCode());
        assertTrue(run.output().contains("cannot read a coroutine"), run.output());
    }
}
