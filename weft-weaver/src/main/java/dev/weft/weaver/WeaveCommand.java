package dev.weft.weaver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The weaver's command line: weaves the classes of a directory in place, or of a jar into a new
 * jar (or in place). The agent jar is its executable jar, with ASM inside:
 *
 * <pre>
 * java -jar weft-weaver-VERSION-agent.jar [--only com.example.flows]... TARGET [OUTPUT.jar]
 * java -jar weft-weaver-VERSION-agent.jar --help
 * </pre>
 *
 * {@code --only} (repeatable, or comma-separated) limits weaving to packages and their
 * subpackages, or to classes and their nested classes, in the syntax of {@link ClassSelection}
 * that the agent and the Maven plugin share; without it, every class is woven. Class files
 * without stack-map frames (before version 50) need their superclasses' class files: the weaver
 * looks for them in {@code TARGET}, then on its own class path and in the JDK. An {@code --only}
 * entry that selects no class of {@code TARGET} is most likely a typo: it gets a warning on
 * standard error, with a near name there if there is one ({@link ClassSelection#nearName}),
 * and the weaving goes on.
 *
 * <p>A class that cannot be woven is left as compiled, named on standard error, and the rest is
 * woven; a jar is written with what could be woven, through a temporary file beside it that is
 * removed whatever happens. What was left as compiled, classes and methods, is counted on
 * standard output, and listed with why by {@code --report FILE}.
 *
 * <p>Exit status 0 on success, warnings or not (and for {@code --help}), 1 if a file cannot be
 * read or written, or if {@code --strict} was given and anything was left as compiled, 2 on a
 * usage error (with the usage text on standard error).
 */
public final class WeaveCommand {

    /** What {@code --help} prints, and what follows every usage error. */
    static final String USAGE = """
            Usage: java -jar weft-weaver-VERSION-agent.jar [OPTION]... TARGET [OUTPUT_JAR]

            Weaves class files so that coroutines running them can be serialized and can run
            on the woven engine. TARGET is a directory of classes, woven in place (no
            OUTPUT_JAR), or a jar, woven into OUTPUT_JAR (into TARGET itself without one).
            Woven classes are left as they are.

            Options:
              --only NAME   weave only the package NAME and its subpackages, or the class NAME
                            and its nested classes (com.example.flows, with or without a
                            trailing dot); repeatable, or comma-separated. Without it, every
                            class is woven. A NAME that matches no class in TARGET gets a
                            warning on standard error (a typo?), and the rest is woven.
              --report FILE write what was left as compiled, and why, to FILE: a line per
                            class that cannot be woven and per method too large to weave
                            (or of a shape the weaver leaves alone), CLASS TAB METHOD (* for
                            a whole class) TAB REASON
              --strict      exit with status 1 if anything was left as compiled
              -h, --help    print this text and exit
              --            end of options

            A class that cannot be woven is left as compiled and named on standard error,
            and the rest is woven; a jar is written with what could be woven. A suspension
            inside what was left as compiled is refused at run time.

            Exit status: 0 done (with or without warnings, unless --strict), 1 something was
            left as compiled and --strict was given, or a file cannot be read or written,
            2 usage error.
            """;

    /**
     * What a weaving run did: how many classes it changed, and what it left as compiled where it
     * could have woven, in the order met.
     *
     * @param woven how many classes it changed
     * @param left  the classes it could not weave and the methods it left as compiled, with why
     */
    public record Report(int woven, List<Left> left) {

        /**
         * A class ({@code method} null) or a method of it ({@code name+descriptor}) left as
         * compiled, and why.
         *
         * @param className the class's binary name
         * @param method    the method's name and descriptor, or null for the whole class
         * @param reason    why it was left as compiled
         */
        public record Left(String className, String method, String reason) {

            /**
             * This, as a line of the {@code --report} file: {@code class TAB method-or-* TAB reason}.
             *
             * @return the line
             */
            public String line() {
                return className + "\t" + (method == null ? "*" : method) + "\t" + reason.replace('\n', ' ').replace('\t', ' ');
            }

            /**
             * This, as a sentence for a log: {@code left com.example.Big.run(I)I as compiled: reason}.
             *
             * @return the sentence
             */
            public String describe() {
                return "left " + className + (method == null ? "" : "." + method) + " as compiled: " + reason;
            }
        }

        /**
         * How many classes were left whole, and how many methods of woven classes.
         *
         * @return the summary, as a sentence's end
         */
        public String summary() {
            long classes = left.stream().filter(l -> l.method() == null).count();
            return "left " + classes + (classes == 1 ? " class" : " classes") + " and " + (left.size() - classes)
                    + (left.size() - classes == 1 ? " method" : " methods") + " as compiled";
        }
    }

    private final Weaver weaver = new Weaver();
    private final ClassSelection selected;
    /** The binary names of the class files seen in the target, woven or not. */
    private final List<String> classNames = new ArrayList<>();
    private final List<Report.Left> left = new ArrayList<>();
    private ClassLoader classFiles;
    private int woven;

    private WeaveCommand(ClassSelection selected) {
        this.selected = selected;
    }

    /**
     * Runs the command and exits with its status if that is not 0.
     *
     * @param args the command line, as {@link #USAGE} describes it
     */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the command.
     *
     * @param args the command line, as {@link #USAGE} describes it
     * @param out  where the usage text ({@code --help}) and the summary go
     * @param err  where errors go
     * @return the exit status: 0 done, 1 a class cannot be woven, 2 usage error
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> only = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        Path report = null;
        boolean strict = false;
        boolean options = true;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (options && (arg.equals("-h") || arg.equals("--help"))) {
                out.print(USAGE);
                return 0;
            } else if (options && arg.equals("--")) {
                options = false;
            } else if (options && arg.equals("--only")) {
                if (i + 1 == args.length || args[i + 1].startsWith("-") || args[i + 1].isBlank()) {
                    return usageError(err, "--only needs a package or class name");
                }
                only.add(args[++i]);
            } else if (options && arg.startsWith("--only=")) {
                only.add(arg.substring("--only=".length()));
            } else if (options && arg.equals("--report")) {
                if (i + 1 == args.length || args[i + 1].isBlank()) {
                    return usageError(err, "--report needs a file");
                }
                report = Path.of(args[++i]);
            } else if (options && arg.equals("--strict")) {
                strict = true;
            } else if (options && arg.startsWith("-") && arg.length() > 1) {
                return usageError(err, "unknown option '" + arg + "'");
            } else {
                paths.add(arg);
            }
        }
        if (paths.isEmpty()) {
            return usageError(err, "no TARGET given");
        }
        if (paths.size() > 2) {
            return usageError(err, "too many arguments: " + String.join(" ", paths));
        }
        ClassSelection selection;
        try {
            selection = ClassSelection.parse(String.join(",", only));
            if (!only.isEmpty() && selection.isEverything()) {
                return usageError(err, "--only needs a package or class name");
            }
        } catch (IllegalArgumentException e) {
            return usageError(err, e.getMessage());
        }
        return weave(selection, paths, report, strict, out, err);
    }

    private static int usageError(PrintStream err, String problem) {
        err.println("weft-weaver: " + problem);
        err.println();
        err.print(USAGE);
        return 2;
    }

    private static int weave(ClassSelection selection, List<String> paths, Path reportFile, boolean strict,
            PrintStream out, PrintStream err) {
        WeaveCommand command = new WeaveCommand(selection);
        Path target = Path.of(paths.get(0));
        try {
            if (Files.isDirectory(target)) {
                if (paths.size() == 2) {
                    return usageError(err, "a directory is woven in place: OUTPUT_JAR " + paths.get(1)
                            + " goes only with a jar TARGET");
                }
                command.weaveDirectory(target);
            } else if (Files.isRegularFile(target)) {
                command.weaveJar(target, Path.of(paths.size() == 2 ? paths.get(1) : paths.get(0)));
            } else {
                return usageError(err, "no directory or jar at " + target);
            }
            if (reportFile != null) {
                command.writeReport(reportFile);
            }
        } catch (IOException e) {
            err.println("weft-weaver: " + e.getMessage());
            return 1;
        }
        out.println("weft-weaver: wove " + command.woven + " classes in " + target);
        Report report = command.report();
        if (!report.left().isEmpty()) {
            report.left().stream().filter(l -> l.method() == null).forEach(l -> err.println("weft-weaver: " + l.describe()));
            out.println("weft-weaver: " + report.summary() + (reportFile == null
                    ? "; --report FILE lists each with why" : ", each with why in " + reportFile));
        }
        command.warnUnmatched(target, err);
        return strict && !report.left().isEmpty() ? 1 : 0;
    }

    private Report report() {
        return new Report(woven, List.copyOf(left));
    }

    private void writeReport(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# weft-weaver: what was left as compiled: class, method (* for the whole class), why");
        left.forEach(l -> lines.add(l.line()));
        Files.write(file, lines);
    }

    /**
     * Warns, for each entry that selected no class of the target, that it matched nothing:
     * <pre>
     * weft-weaver: warning: --only com.exmple.flows matched no class in target/classes; did you mean com.example.flows?
     * </pre>
     */
    private void warnUnmatched(Path target, PrintStream err) {
        for (String entry : selected.unmatched(classNames)) {
            err.println("weft-weaver: warning: --only " + entry + " matched no class in " + target
                    + ClassSelection.nearName(entry, classNames).map(near -> "; did you mean " + near + "?").orElse(""));
        }
    }

    /**
     * Weaves, in place, the classes under {@code root} that {@code only} selects, in the syntax
     * of {@link ClassSelection} (every class if it is empty). A class that cannot be woven is
     * left as it is, and reported with the methods left as compiled.
     *
     * @param root a directory of class files
     * @param only package or class names, each with or without a trailing dot
     * @return how many classes it changed, and what it left as compiled
     * @throws IOException if a class file cannot be read or written
     * @throws IllegalArgumentException naming the entry, if one of {@code only} is not a Java name
     */
    public static Report weaveDirectory(Path root, List<String> only) throws IOException {
        WeaveCommand command = new WeaveCommand(ClassSelection.of(only));
        command.weaveDirectory(root);
        return command.report();
    }

    private void weaveDirectory(Path root) throws IOException {
        try (URLClassLoader resources = classFilesOf(root)) {
            classFiles = resources;
            weaveFiles(root);
        }
    }

    /**
     * Where the weaver reads superclasses (for class files before version 50): the classes of
     * {@code target}, a directory or a jar, then the system class loader's resources.
     */
    private static URLClassLoader classFilesOf(Path target) throws IOException {
        return new URLClassLoader("weft-weaver-classes", new URL[] {target.toUri().toURL()},
                ClassLoader.getSystemClassLoader());
    }

    /**
     * The binary names of the classes under {@code root}, read from the class files' paths: what
     * {@link ClassSelection#unmatched} takes, to check a selection before weaving with it.
     *
     * @param root a directory of class files
     * @return the names ({@code com.example.Main$Step}), in no particular order
     * @throws IOException if the directory cannot be read
     */
    public static List<String> classNames(Path root) throws IOException {
        return classFiles(root).stream().map(file -> className(fileName(root, file))).toList();
    }

    private static List<Path> classFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".class")).toList();
        }
    }

    /** The path of {@code file} relative to {@code root}, with dots for separators. */
    private static String fileName(Path root, Path file) {
        return root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
    }

    private void weaveFiles(Path root) throws IOException {
        for (Path file : classFiles(root)) {
            String name = fileName(root, file);
            if (selected(name)) {
                byte[] original = Files.readAllBytes(file);
                byte[] result = weave(original, className(name));
                if (result != original) {
                    Files.write(file, result);
                }
            }
        }
    }

    /**
     * Writes the woven jar to a temporary file beside {@code output}, then moves it there; the
     * temporary file is removed whatever happens.
     */
    private void weaveJar(Path jar, Path output) throws IOException {
        Path temporary = Files.createTempFile(output.toAbsolutePath().getParent(), "weft", ".jar");
        try {
            writeWovenJar(jar, temporary);
            Files.move(temporary, output, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private void writeWovenJar(Path jar, Path temporary) throws IOException {
        try (URLClassLoader resources = classFilesOf(jar);
                InputStream file = Files.newInputStream(jar);
                JarInputStream in = new JarInputStream(file);
                OutputStream target = Files.newOutputStream(temporary);
                JarOutputStream out = in.getManifest() == null ? new JarOutputStream(target)
                        : new JarOutputStream(target, in.getManifest())) {
            classFiles = resources;
            for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                byte[] content = in.readAllBytes();
                String name = entry.getName();
                if (name.endsWith(".class") && selected(name)) {
                    content = weave(content, className(name));
                }
                out.putNextEntry(new JarEntry(name));
                out.write(content);
                out.closeEntry();
            }
        }
    }

    /** Whether the class file of this name, relative to the target, is selected; records its class's name. */
    private boolean selected(String fileName) {
        String className = className(fileName);
        classNames.add(className);
        return selected.includes(className);
    }

    /** The binary name of the class in a class file, from the file's path relative to the target. */
    private static String className(String fileName) {
        return fileName.substring(0, fileName.length() - ".class".length()).replace('/', '.');
    }

    /** The class file {@code className} woven, or as it is if it cannot be; what it leaves as compiled is recorded. */
    private byte[] weave(byte[] original, String className) {
        try {
            Weaver.Outcome outcome = weaver.weaveReporting(original, classFiles);
            outcome.leftAsCompiled().forEach((method, why) -> left.add(new Report.Left(className, method, why)));
            if (outcome.classFile() != original) {
                woven++;
            }
            return outcome.classFile();
        } catch (WeavingException e) {
            left.add(new Report.Left(className, null, e.getMessage()));
            return original;
        }
    }
}
