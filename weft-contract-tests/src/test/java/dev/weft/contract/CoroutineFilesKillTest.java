package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.CoroutineBase;
import dev.weft.CoroutineFiles;
import dev.weft.CoroutineInputStream;
import dev.weft.Engine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link CoroutineFiles#write} killed with SIGKILL in a child JVM ({@link KillMidWriteMain})
 * that writes one file again and again: when the kill is triggered by the progress the child
 * reports (never by the clock), the file holds a whole state, the last one reported written or
 * a later one, and loads; a kill in the middle of a write leaves the previous state and a
 * temporary file, which the next write removes.
 */
class CoroutineFilesKillTest {

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aKillInTheMiddleOfAWriteLeavesThePreviousStateAndATemporaryFileTheNextWriteRemoves(Engine engine,
            @TempDir Path directory) throws Exception {
        Path file = directory.resolve("state.bin");
        for (int stopIn : new int[] {1, 2, 5}) {
            killAt(file, engine, stopIn, "WRITING " + stopIn);
            if (stopIn == 1) {
                assertTrue(Files.notExists(file), "no state was written before the first write");
            } else {
                assertEquals(stopIn - 1, heldIn(file, engine), "the previous state, whole");
            }
            assertEquals(1, names(directory, ".weft-tmp").size(), "the write killed midway left its temporary file");
            StreamSafetyTest.Holder next = new StreamSafetyTest.Holder(engine);
            next.call(new KillMidWriteMain.Payload(100 + stopIn));
            CoroutineFiles.write(file, next, KillMidWriteMain.KEY);
            assertEquals(List.of(), names(directory, ".weft-tmp"), "the next write removed the stale temporary file");
            assertEquals(100 + stopIn, heldIn(file, engine));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aKillAfterAWriteLeavesThatStateOrALaterOneWhole(Engine engine, @TempDir Path directory) throws Exception {
        Path file = directory.resolve("state.bin");
        for (int wrote : new int[] {1, 3, 6, 10}) {
            killAt(file, engine, 0, "WROTE " + wrote);
            int held = heldIn(file, engine);
            // the child may have finished further writes before the signal landed: any whole state from the last one reported on
            assertTrue(held >= wrote, "killed after write " + wrote + ", the file holds " + held);
        }
        StreamSafetyTest.Holder next = new StreamSafetyTest.Holder(engine);
        next.call(new KillMidWriteMain.Payload(99));
        CoroutineFiles.write(file, next, KillMidWriteMain.KEY);
        assertEquals(List.of("state.bin"), names(directory, ""), "whatever the kills left, one write leaves only the file");
    }

    /** Starts the child on {@code file} and kills it (SIGKILL) as soon as it prints {@code line}. */
    private static void killAt(Path file, Engine engine, int stopIn, String line) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                KillMidWriteMain.class.getName(), file.toString(), engine.name(), String.valueOf(stopIn));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuilder seen = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l = out.readLine(); l != null; l = out.readLine()) {
                seen.append(l).append('\n');
                if (l.equals(line)) {
                    child.destroyForcibly(); // SIGKILL
                    break;
                }
            }
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not end");
        assertEquals(137, child.exitValue(), () -> "the child was not killed at '" + line + "':\n" + seen);
    }

    private static int heldIn(Path file, Engine engine) throws IOException {
        try (CoroutineInputStream<Object, Object> in = new CoroutineInputStream<Object, Object>(
                Files.newInputStream(file), KillMidWriteMain.KEY).allow(KillMidWriteMain.Payload.class)) {
            StreamSafetyTest.Holder copy = (StreamSafetyTest.Holder) in.readAsymCoroutine(new StreamSafetyTest.Holder(engine));
            return ((KillMidWriteMain.Payload) copy.call(null)).n;
        }
    }

    private static List<String> names(Path directory, String containing) throws IOException {
        try (var files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.contains(containing)).sorted().toList();
        }
    }
}
