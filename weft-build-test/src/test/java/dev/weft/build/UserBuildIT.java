package dev.weft.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A user's own Maven project, outside the reactor, made from the README's "Using Weft in your
 * build" and built by the Maven that runs this build. Its pom.xml is
 * {@code src/test/user-build/pom-template.xml} with the README's XML blocks put in verbatim, so
 * this test fails when the README drifts from what works. In the reactor's build it resolves
 * Weft from a local repository of its own, into which the build installed the just-built
 * artifacts (maven-invoker-plugin's {@code install}, see this module's pom.xml), and everything
 * else from the build's own local repository, read-only, or Maven Central. With
 * {@code -Dweft.user.installed=true} (CI, after the README's install command) it installs
 * nothing and resolves everything from the build's own local repository, where that command
 * put Weft.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UserBuildIT {

    /** The marked XML blocks: {@code <!-- user-build: name -->} and then a fenced xml block. */
    private static final Pattern BLOCK = Pattern.compile("<!-- user-build: ([a-z-]+) -->\\n```xml\\n(.*?)```", Pattern.DOTALL);

    private static final Path PROJECT = Path.of(System.getProperty("weft.user.project"));

    @BeforeAll
    static void makeTheProject() throws IOException {
        Map<String, String> blocks = readmeBlocks();
        assertEquals(List.of("bom", "dependency", "sessions", "postgres", "plugin", "surefire", "exec"), List.copyOf(blocks.keySet()),
                "the README's marked blocks");
        String version = System.getProperty("weft.version");
        for (String name : List.of("bom", "plugin")) {
            assertTrue(blocks.get(name).contains("<version>" + version + "</version>"),
                    "the README's " + name + " block names version " + version);
        }
        deleteRecursively(PROJECT);
        Path source = Path.of(System.getProperty("weft.user.sources"));
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = PROJECT.resolve(source.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        String pom = Files.readString(PROJECT.resolve("pom-template.xml"));
        for (Map.Entry<String, String> block : blocks.entrySet()) {
            pom = pom.replace("@" + block.getKey() + "@", block.getValue());
        }
        assertTrue(!Pattern.compile("@[a-z-]+@").matcher(pom).find(), "every block filled in");
        Files.writeString(PROJECT.resolve("pom.xml"), pom);
    }

    private static Map<String, String> readmeBlocks() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("weft.readme")));
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher m = BLOCK.matcher(readme);
        while (m.find()) {
            blocks.put(m.group(1), m.group(2));
        }
        return blocks;
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.sorted((a, b) -> b.compareTo(a)).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    /**
     * Where the project finds Weft: with {@code weft.user.installed}, where the README's install
     * command put it, the build's own local repository, as a user's build would; else the
     * repository this module's build installed it into, with the build's own behind it for
     * everything else.
     */
    private static List<String> repositoryOptions() {
        String buildRepository = System.getProperty("weft.build.repository");
        if (Boolean.getBoolean("weft.user.installed")) {
            return List.of("-Dmaven.repo.local=" + buildRepository);
        }
        return List.of("-Dmaven.repo.local=" + System.getProperty("weft.user.repository"),
                "-Dmaven.repo.local.tail=" + buildRepository);
    }

    /** Runs Maven in the project; returns its output, having checked that it succeeded. */
    private static String maven(String... goals) throws IOException, InterruptedException {
        Build build = build(goals);
        assertEquals(0, build.status(), build.output());
        return build.output();
    }

    /** What a run of Maven ended with, and printed (standard output and error together). */
    private record Build(int status, String output) {
    }

    /** Runs Maven in the project, adding its output to {@code mvn-GOAL.log} there. */
    private static Build build(String... goals) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("maven.home"), "bin", "mvn").toString(), "-B", "-ntp"));
        command.addAll(repositoryOptions());
        command.addAll(List.of(goals));
        ProcessBuilder builder = new ProcessBuilder(command).directory(PROJECT.toFile()).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MAVEN_ARGS");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "mvn " + goals[0] + " finished");
        Files.writeString(PROJECT.resolve("mvn-" + goals[0].replace(':', '-') + ".log"), output,
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return new Build(process.exitValue(), output);
    }

    @Test
    @Order(1)
    void itsBuildWeavesAndRunsItsOwnTests() throws Exception {
        String output = maven("verify");
        assertTrue(output.contains("weft: wove 2 classes in " + PROJECT.resolve("target/classes")), output);
        assertTrue(output.contains("weft: wove 2 classes in " + PROJECT.resolve("target/test-classes")), output);
        assertTrue(output.contains("Tests run: 3, Failures: 0, Errors: 0, Skipped: 0"), output);
    }

    @Test
    @Order(2)
    void aCoroutineAndASessionSavedInOneJvmAreResumedInAnother() throws Exception {
        String first = maven("exec:exec", "-q");
        assertEquals(List.of("squares: 1 4 9", "woven: 5 4", "saved to countdown.bin",
                "session interview at version 1: Please enter your name:"), first.lines().toList());
        String second = maven("exec:exec", "-q");
        assertEquals(List.of("loaded: 3 2 1", "session interview at version 2: Please enter your country:",
                "session interview finished: Hello Ada from Italy"), second.lines().toList());
    }

    /**
     * The README's plugin block with its package misspelled: the build fails, naming the entry
     * and the directory, unless {@code weft.weave.failOnUnmatched} is false, and then it warns.
     */
    @Test
    @Order(3)
    void aMisspelledPackageFailsTheBuildUnlessToldToOnlyWarn() throws Exception {
        String pom = Files.readString(PROJECT.resolve("pom.xml"));
        String entry = "<package>com.example.flows</package>";
        assertTrue(pom.contains(entry), "the README's plugin block selects " + entry);
        Files.writeString(PROJECT.resolve("pom-misspelled.xml"), pom.replace(entry, "<package>com.exmple.flows</package>"));
        String problem = "weft: <package>com.exmple.flows</package> matched no class in " + PROJECT.resolve("target/classes")
                + "; did you mean com.example.flows?";

        Build failed = build("process-classes", "-f", "pom-misspelled.xml");
        assertEquals(1, failed.status(), failed.output());
        assertTrue(failed.output().contains("[ERROR] Failed to execute goal dev.weft:weft-maven-plugin:"), failed.output());
        assertTrue(failed.output().contains(problem + "\n[ERROR] weft: to weave the rest anyway, with a warning,"
                + " set <failOnUnmatched>false</failOnUnmatched> or -Dweft.weave.failOnUnmatched=false"), failed.output());

        String warned = maven("process-classes", "-f", "pom-misspelled.xml", "-Dweft.weave.failOnUnmatched=false");
        assertTrue(warned.contains("[WARNING] " + problem + "\n"), warned);
        assertTrue(warned.contains("weft: wove 0 classes in " + PROJECT.resolve("target/classes")), warned);
    }
}
