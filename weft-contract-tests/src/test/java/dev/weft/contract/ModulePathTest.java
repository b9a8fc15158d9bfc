package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.CoroutineBase;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every suite again, in a child JVM that has weft-core on the module path, as the named module
 * {@code dev.weft}, and the suites on the class path: what weft-core's {@code module-info}
 * exports and the JVM options a modular application uses must be enough. One dynamic test per
 * test of the child, so that a failure there names the test.
 */
class ModulePathTest {

    /** The options of a modular application: the API module, resolved, and access to HotSpot's continuations for it. */
    private static List<String> command() throws URISyntaxException {
        Path core = Path.of(CoroutineBase.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).toAbsolutePath().equals(core.toAbsolutePath()))
                .collect(Collectors.joining(File.pathSeparator));
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", core.toString(),
                "--add-modules", "dev.weft",
                "--add-exports", "java.base/jdk.internal.vm=dev.weft",
                "-Xss4m",
                "-cp", classPath,
                ModulePathLauncher.class.getName());
    }

    @TestFactory
    Stream<DynamicTest> everySuitePassesWithWeftCoreOnTheModulePath() throws Exception {
        List<String> command = command();
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!child.waitFor(5, TimeUnit.MINUTES)) {
            child.destroyForcibly();
            throw new AssertionError("the child JVM did not end: " + command);
        }
        assertEquals(0, child.exitValue(), () -> "the child JVM failed:\n" + output);

        List<String[]> module = fields(output, "MODULE");
        assertEquals(1, module.size(), output);
        assertEquals(List.of("dev.weft", "true", "true", "false"), List.of(module.get(0)).subList(1, 5),
                "the API is the named module dev.weft, which exports its API and the woven code's package, not the engines'");

        List<String[]> results = fields(output, "RESULT");
        assertFalse(results.isEmpty(), () -> "no test ran in the child JVM:\n" + output);
        List<String> suites = results.stream().map(r -> r[1].substring(0, r[1].indexOf('.'))).distinct().sorted().toList();
        assertEquals(28, suites.size(), "each contract on each engine: " + suites);
        return results.stream().map(r -> DynamicTest.dynamicTest(r[1],
                () -> assertTrue(r[2].equals("SUCCESSFUL"), r[1] + ": " + r[2] + " on the module path: " + r[3])));
    }

    /** The tab-separated fields of the lines of {@code output} that start with {@code tag}. */
    private static List<String[]> fields(String output, String tag) {
        List<String[]> lines = new ArrayList<>();
        for (String line : output.split("\\R")) {
            if (line.startsWith(tag + "\t")) {
                lines.add(line.split("\t", -1));
            }
        }
        return lines;
    }
}
