package dev.weft.jruby;

import dev.weft.AsymCoroutine;

import org.jruby.Ruby;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jruby-complete woven whole by the command line, with this module's fibers woven too, runs
 * Ruby fiber programs exactly as unwoven JRuby does: Weft's fibers on the woven engine, on the
 * native engine, and JRuby's own fibers (threads, outside any coroutine), each in a JVM of its
 * own ({@link ProgramsMain}) that has the woven jars in place of JRuby's and this module's.
 *
 * <p>What a woven-engine fiber needs, besides the woven jars: JRuby's interpreter
 * ({@code -X-C}, compile mode {@code OFF}), because JRuby's JIT calls the code it compiles
 * through method handles, which the woven engine cannot unwind; and the agent for this module's
 * package, because JRuby generates the invokers of this module's Ruby methods as the program
 * runs. A fiber that switches inside a JDK method calling back into Ruby
 * ({@code java_callbacks.rb}: {@code ArrayList.forEach}) is refused there, naming the JDK frame,
 * as on any woven-engine coroutine; the native engine runs it.
 */
class WovenJRubyTest {

    /** The programs whose expected output is MRI's (or JRuby's, for Java callbacks) on any fibers of Weft's. */
    private static final List<String> WEFT_PROGRAMS =
            List.of("fiber_chain", "generator", "same_fringe", "semantics", "enumerator", "java_callbacks");

    /** The programs whose expected output JRuby's own fibers print too (SameProgramsTest). */
    private static final List<String> JRUBY_PROGRAMS = List.of("fiber_chain", "generator", "same_fringe", "java_callbacks");

    private static final Path WORK = Path.of("target", "woven-jruby");
    private static final Path WOVEN_JRUBY = WORK.resolve("jruby-complete-woven.jar");
    private static final Path WOVEN_FIBERS = WORK.resolve("weft-jruby-classes");
    private static final Path JRUBY_REPORT = WORK.resolve("jruby-complete-left-as-compiled.txt");

    private static String jrubyWeaving;

    @BeforeAll
    static void weaveJRubyAndThisModule() throws Exception {
        Files.createDirectories(WORK);
        jrubyWeaving = weave("--report", JRUBY_REPORT, location(Ruby.class), WOVEN_JRUBY);
        copyTree(location(WeftFiber.class), WOVEN_FIBERS);
        weave(WOVEN_FIBERS);
    }

    @Test
    void jrubyIsWovenWholeButForMethodsTooLargeToWeave() throws IOException {
        List<String> left = Files.readAllLines(JRUBY_REPORT).stream().filter(line -> !line.startsWith("#")).toList();
        assertTrue(jrubyWeaving.matches("(?s).*wove \\d{4,} classes.*left 0 classes and " + left.size() + " methods.*"),
                jrubyWeaving);
        assertTrue(left.size() > 0 && left.size() < 100, left.size() + " methods left as compiled");
        for (String line : left) {
            assertTrue(line.contains("it is too large to weave"), line);
        }
    }

    @Test
    void weftFibersOnTheWovenEngineRunAsOnUnwovenJRuby() throws Exception {
        Map<String, String> outputs = runPrograms(List.of("-javaagent:" + agentJar() + "=dev.weft.jruby",
                "-Dweft.engine=woven"), "WEFT", "OFF", WEFT_PROGRAMS);
        for (String program : WEFT_PROGRAMS.subList(0, WEFT_PROGRAMS.size() - 1)) {
            assertEquals(expected(program), outputs.get(program), program);
        }
        String refusal = outputs.get("java_callbacks");
        String line = "\\.java:\\d+\\)";
        assertTrue(refusal.matches(Pattern.quote(ProgramsMain.RAISED + "FiberError: cannot switch fibers here: cannot suspend "
                + "FiberCoroutine-1 [running, thread main] on the woven engine: the woven frame org.jruby.javasupport.JavaMethod"
                + ".invokeDirectWithExceptionHandling(JavaMethod") + line + Pattern.quote(" called java.util.ArrayList.forEach("
                + "ArrayList") + line + Pattern.quote(", which the woven engine cannot unwind (it is not woven: it is JDK code, "
                + "which is never woven), on the way to the suspension in dev.weft.jruby.WeftFiber.suspend(WeftFiber") + line
                + Pattern.quote(" (use Engine.NATIVE for such code); nothing was suspended, and the coroutine goes on from the "
                + "exception\n")), refusal);
    }

    @Test
    void weftFibersOnTheNativeEngineRunAsOnUnwovenJRuby() throws Exception {
        Map<String, String> outputs = runPrograms(List.of("--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED",
                "-Dweft.engine=native"), "WEFT", "JIT", WEFT_PROGRAMS);
        for (String program : WEFT_PROGRAMS) {
            assertEquals(expected(program), outputs.get(program), program);
        }
    }

    @Test
    void jrubysOwnFibersRunAsOnUnwovenJRuby() throws Exception {
        Map<String, String> outputs = runPrograms(List.of(), "JRUBY", "JIT", JRUBY_PROGRAMS);
        for (String program : JRUBY_PROGRAMS) {
            assertEquals(expected(program), outputs.get(program), program);
        }
    }

    private static String expected(String program) {
        return RubyScripts.resource(program + ".expected");
    }

    /**
     * Runs {@code programs} in a JVM with the woven jars, weft-core and this module's test
     * classes on its class path, and returns each program's output by name.
     */
    private static Map<String, String> runPrograms(List<String> options, String fibers, String compileMode,
            List<String> programs) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-Xss4m", "--enable-native-access=ALL-UNNAMED"));
        command.addAll(options);
        command.addAll(List.of("-cp", String.join(File.pathSeparator, WOVEN_JRUBY.toString(), WOVEN_FIBERS.toString(),
                location(AsymCoroutine.class).toString(), location(ProgramsMain.class).toString()),
                ProgramsMain.class.getName(), fibers, compileMode));
        command.addAll(programs);
        String output = run(command);
        Map<String, String> byProgram = new LinkedHashMap<>();
        String program = null;
        for (String line : output.split("(?<=\n)")) {
            if (line.startsWith(ProgramsMain.HEADER)) {
                program = line.substring(ProgramsMain.HEADER.length()).strip();
                byProgram.put(program, "");
            } else {
                assertTrue(program != null, "output before the first program:\n" + output);
                byProgram.merge(program, line, String::concat);
            }
        }
        assertEquals(programs, List.copyOf(byProgram.keySet()), output);
        return byProgram;
    }

    /**
     * Weaves with the command line given these arguments: options, then a jar and the jar to
     * write, or a directory to weave in place; returns its console output.
     */
    private static String weave(Object... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", agentJar().toString()));
        Stream.of(arguments).map(Object::toString).forEach(command::add);
        return run(command);
    }

    /** Copies the directory {@code from} to {@code to}, which it replaces. */
    private static void copyTree(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            try (Stream<Path> old = Files.walk(to)) {
                for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path path : files.toList()) {
                Files.copy(path, to.resolve(from.relativize(path).toString()));
            }
        }
    }

    /** Runs {@code command}, which must end with status 0 within ten minutes; returns its output and error, merged. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Stream.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS").forEach(builder.environment()::remove);
        Process process = builder.start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // a guard against a hung child, not a measurement
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("did not end: " + command + "\n" + output);
        }
        assertEquals(0, process.exitValue(), () -> command + " ended with " + process.exitValue() + ":\n" + output);
        return output;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The jar or class directory {@code type} was loaded from. */
    private static Path location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** weft-weaver's agent jar, a test dependency of this module. */
    private static Path agentJar() throws IOException, URISyntaxException {
        URL agentClass = WovenJRubyTest.class.getClassLoader().getResource("dev/weft/weaver/WeaverAgent.class");
        assertTrue(agentClass != null && agentClass.getProtocol().equals("jar"),
                "weft-weaver's agent jar is not on the test class path: " + agentClass);
        return Path.of(((JarURLConnection) agentClass.openConnection()).getJarFileURL().toURI());
    }
}
