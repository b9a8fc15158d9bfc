package dev.weft.weaver.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The packaged agent jar, in a JVM of its own: {@code -javaagent:...=prefixes} is all a program needs. */
class AgentIT {

    @Test
    void theAgentWeavesAtLoadTimeAndIsTheOnlyOptionNeeded() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command("dev.weft.weaver.fixtures", AgentMain.class));
        Process process = builder.redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, process.exitValue(), output);
        assertEquals(8, output.lines().filter(l -> l.startsWith("original ") || l.endsWith(" ok")).count(), output);
        assertFalse(output.contains("MISMATCH") || output.contains("weft-weaver: left"), output);
        assertFalse(output.contains("weft-weaver: warning"), output);
    }

    @Test
    void anEntryThatMatchedNoClassLoadedIsWarnedOfAtShutdownWithANearName() throws Exception {
        Process process = new ProcessBuilder(command("dev.weft.weaver.agnet,dev.weft.weaver.agent.Hello,org.nowhere",
                Hello.class)).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, process.exitValue(), errors);
        assertEquals(List.of("hello"), output.lines().toList());
        assertEquals(List.of(
                "weft-weaver: warning: agent entry dev.weft.weaver.agnet matched no class loaded by this JVM;"
                        + " did you mean dev.weft.weaver.agent?",
                "weft-weaver: warning: agent entry org.nowhere matched no class loaded by this JVM"),
                errors.lines().toList());
    }

    @Test
    void entriesThatEachMatchedAClassPrintNothing() throws Exception {
        Process process = new ProcessBuilder(command("dev.weft.weaver.agent.Hello", Hello.class)).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, process.exitValue(), errors);
        assertEquals(List.of("hello"), output.lines().toList());
        assertEquals("", errors);
    }

    /** This JVM's java with the agent jar, its argument {@code selection}, running {@code main} on this test's class path. */
    private static List<String> command(String selection, Class<?> main) throws IOException {
        Path agent = Path.of(System.getProperty("weft.agent.jar"));
        assertTrue(Files.isRegularFile(agent), "no agent jar at " + agent);
        return List.of(ProcessHandle.current().info().command().orElseThrow(), "-javaagent:" + agent + "=" + selection,
                "-cp", System.getProperty("java.class.path"), main.getName());
    }
}
