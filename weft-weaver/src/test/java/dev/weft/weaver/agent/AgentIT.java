package dev.weft.weaver.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        Path agent = Path.of(System.getProperty("weft.agent.jar"));
        assertTrue(Files.isRegularFile(agent), "no agent jar at " + agent);
        List<String> command = List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-javaagent:" + agent + "=dev.weft.weaver.fixtures",
                "-cp", System.getProperty("java.class.path"), AgentMain.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, process.exitValue(), output);
        assertEquals(8, output.lines().filter(l -> l.startsWith("original ") || l.endsWith(" ok")).count(), output);
        assertFalse(output.contains("MISMATCH") || output.contains("weft-weaver: left"), output);
    }
}
