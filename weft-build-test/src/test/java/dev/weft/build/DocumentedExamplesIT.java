package dev.weft.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Engine;
import dev.weft.weaver.WeaveCommand;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The documentation's examples, run as written: the {@code <pre>{@code ...}}} blocks of the
 * javadoc of {@code dev.weft}'s package and of the classes listed in {@link #EXPECTED}, and the
 * java blocks of README.md marked {@code <!-- runnable: name -->}. Each example is compiled as
 * it stands, its class declarations each in a file of its own and its statements as the body of
 * a {@code main} method, with the imports a reader would add ({@link #IMPORTS}); the classes are
 * woven, and the program runs in a child JVM on each engine, started with the JVM options the
 * README gives, in a directory of its own. What it prints, standard error included, must be
 * exactly what {@link #EXPECTED} lists, so that an example that throws, prints a warning or
 * prints something other than its comments say fails here.
 *
 * <p>Every block of those sources must have its entry, and every entry its block: a new example
 * in one of them is run from the day it is written.
 */
class DocumentedExamplesIT {

    private static final Path ROOT = Path.of(System.getProperty("weft.readme")).getParent();
    private static final Path CORE_SOURCES = ROOT.resolve("weft-core/src/main/java");

    /** What each example prints, by where it is: a README block by its mark, a javadoc block by its file and position. */
    private static final Map<String, List<String>> EXPECTED = Map.of(
            "README.md#squares", List.of("1", "4", "9"),
            "README.md#sessions", List.of("Please enter your name:", "Please enter your country:",
                    "Hello John Doe from Austria"),
            "dev/weft/package-info.java#1", List.of("1", "4", "9"),
            "dev/weft/Coroutine.java#1", List.of("start", "Coroutine running 1", "middle", "Coroutine running 2", "end"),
            "dev/weft/AsymCoroutine.java#1", List.of("2", "10"),
            "dev/weft/AsymRunnable.java#1", List.of());

    private static final List<String> IMPORTS = List.of("dev.weft.*", "dev.weft.sessions.*", "java.io.*",
            "java.nio.file.*", "java.util.*");

    private static final Pattern README_BLOCK = Pattern.compile("<!-- runnable: ([a-z-]+) -->\\n```java\\n(.*?)```",
            Pattern.DOTALL);
    private static final Pattern JAVADOC_BLOCK = Pattern.compile("<pre>\\{@code\\n(.*?)\\}</pre>", Pattern.DOTALL);
    /** The first line of a class declaration, at the example's left margin. */
    private static final Pattern DECLARATION = Pattern.compile(
            "^(?:public |final |abstract |static )*(?:class|interface|record|enum) (\\w+)");

    @ParameterizedTest
    @EnumSource(names = {"NATIVE", "WOVEN"})
    void everyDocumentedExamplePrintsWhatItsCommentsSay(Engine engine, @TempDir Path work) throws Exception {
        Map<String, String> examples = examples();
        assertEquals(new TreeMap<>(EXPECTED).keySet(), examples.keySet(), "the documented examples");
        for (Map.Entry<String, String> example : examples.entrySet()) {
            Path directory = Files.createDirectories(work.resolve(example.getKey().replaceAll("[^A-Za-z0-9]", "_")));
            compile(example.getKey(), example.getValue(), directory);
            WeaveCommand.weaveDirectory(directory.resolve("classes"), List.of());
            List<String> printed = run(engine, directory);
            assertEquals(EXPECTED.get(example.getKey()), printed, example.getKey() + " on " + engine);
        }
    }

    /** Every example of the sources this test reads, by where it is. */
    private static Map<String, String> examples() throws IOException {
        Map<String, String> examples = new TreeMap<>();
        Matcher readme = README_BLOCK.matcher(Files.readString(ROOT.resolve("README.md")));
        while (readme.find()) {
            examples.put("README.md#" + readme.group(1), readme.group(2));
        }
        for (String key : EXPECTED.keySet()) {
            if (!key.startsWith("README.md#")) {
                String file = key.substring(0, key.indexOf('#'));
                examples.putAll(javadocExamples(file));
            }
        }
        return examples;
    }

    /** The {@code <pre>{@code}} blocks of a source file's comments, numbered from 1, their {@code " * "} margins taken off. */
    private static Map<String, String> javadocExamples(String file) throws IOException {
        String text = Files.readString(CORE_SOURCES.resolve(file)).replaceAll("(?m)^\\s*\\* ?", "");
        Map<String, String> examples = new TreeMap<>();
        Matcher block = JAVADOC_BLOCK.matcher(text);
        for (int n = 1; block.find(); n++) {
            examples.put(file + "#" + n, block.group(1));
        }
        return examples;
    }

    /** Compiles an example into {@code directory/classes}: its declarations as they are, its statements as {@code Example.main}. */
    private static void compile(String name, String example, Path directory) throws IOException {
        Path sources = Files.createDirectories(directory.resolve("sources"));
        StringBuilder statements = new StringBuilder();
        List<String> lines = example.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher declaration = DECLARATION.matcher(lines.get(i));
            if (!declaration.find()) {
                statements.append("        ").append(lines.get(i)).append('\n');
                continue;
            }
            StringBuilder type = new StringBuilder(lines.get(i)).append('\n');
            while (!lines.get(i).equals("}")) {
                type.append(lines.get(++i)).append('\n');
            }
            Files.writeString(sources.resolve(declaration.group(1) + ".java"), imports() + type);
        }
        Files.writeString(sources.resolve("Example.java"), imports() + "public final class Example {\n"
                + "    public static void main(String[] args) throws Exception {\n" + statements + "    }\n}\n");
        List<String> arguments = new ArrayList<>(List.of("-d", directory.resolve("classes").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xlint:none", "-nowarn"));
        try (Stream<Path> files = Files.list(sources)) {
            files.map(Path::toString).forEach(arguments::add);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, arguments.toArray(String[]::new));
        assertEquals(0, status, name + " does not compile as written:\n" + errors.toString(StandardCharsets.UTF_8));
    }

    private static String imports() {
        StringBuilder imports = new StringBuilder();
        IMPORTS.forEach(i -> imports.append("import ").append(i).append(";\n"));
        return imports.append('\n').toString();
    }

    /** Runs {@code Example} in a child JVM in {@code directory}; returns what it printed, standard error after standard output. */
    private static List<String> run(Engine engine, Path directory) throws IOException, InterruptedException {
        String classPath = directory.resolve("classes") + File.pathSeparator + System.getProperty("java.class.path");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-D" + Engine.DEFAULT_PROPERTY + "=" + engine.name().toLowerCase(java.util.Locale.ROOT),
                "-cp", classPath, "Example").directory(directory.toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        Process process = builder.start();
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> text(process.getErrorStream()));
        String output = text(process.getInputStream());
        // a guard against a hung child, not a measurement
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the example did not end; it printed:\n" + output);
        List<String> printed = new ArrayList<>(output.lines().toList());
        printed.addAll(errors.join().lines().toList());
        if (process.exitValue() != 0) {
            printed.add("exit status " + process.exitValue());
        }
        return printed;
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
