package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bounded fuzz run of the build: {@link FuzzMain} in a child JVM, so that a crash or a hang
 * is counted, not suffered. Asserts the campaign's goals: the child ends and reports; no sealed
 * mutation is accepted; every refusal is of a documented type; nothing accepted fails inside
 * Weft's code. Unsealed input whose changed value (within its slot's type) makes the body's own
 * code throw is counted and printed, not failed: no type check can rule it out, a seal does.
 * The long run ({@code mvn -pl weft-contract-tests -am verify -Dtest=FuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dweft.fuzz.cases=100000}) prints the counts per class.
 */
class FuzzTest {

    private static final int CASES = Integer.getInteger("weft.fuzz.cases", 20_000);

    @Test
    void mutatedStreamsAndFramesAreRefusedOrResumeWithinTheirTypes() throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "-Xss4m", "-Xmx512m", "-XX:-OmitStackTraceInFastThrow",
                "-cp", System.getProperty("java.class.path"), FuzzMain.class.getName(), String.valueOf(CASES), "11");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(30, TimeUnit.MINUTES), "the child JVM did not end");
        assertEquals(0, child.exitValue(), () -> "the child JVM crashed:\n" + output);
        assertTrue(output.contains("DONE"), output);
        List<String> failures = new ArrayList<>();
        for (String line : output.split("\\R")) {
            if (line.startsWith("COUNT\t")) {
                System.out.println(line);
                if (line.contains("\tundocumented ") || line.contains("\tfailed after accept ")
                        || line.contains("\tsealed accepted")) {
                    failures.add(line);
                }
            }
        }
        assertTrue(failures.isEmpty(), () -> "cases outside the goals:\n" + String.join("\n", failures) + "\n" + output);
    }
}
