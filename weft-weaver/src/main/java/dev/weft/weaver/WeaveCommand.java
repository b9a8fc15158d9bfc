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
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The weaver's command line: weaves the classes of a directory in place, or of a jar into a new
 * jar (or in place).
 *
 * <pre>
 * java -cp weft-weaver.jar:asm*.jar dev.weft.weaver.WeaveCommand [--only com.example.] TARGET [OUTPUT.jar]
 * </pre>
 *
 * {@code --only} (repeatable) limits weaving to classes whose names start with a prefix.
 * Class files without stack-map frames (before version 50) need their superclasses' class
 * files: the weaver looks for them in {@code TARGET}, then on its own class path and in the JDK.
 * Exit status 0 on success, 1 if a class cannot be woven (named on standard error), 2 on a
 * usage error.
 */
public final class WeaveCommand {

    private final Weaver weaver = new Weaver();
    private final Predicate<String> selected;
    private ClassLoader classFiles;
    private int woven;

    private WeaveCommand(List<String> prefixes) {
        this.selected = name -> prefixes.isEmpty() || prefixes.stream().anyMatch(name::startsWith);
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Runs the command; returns its exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> prefixes = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--only") && i + 1 < args.length) {
                prefixes.add(args[++i]);
            } else {
                paths.add(args[i]);
            }
        }
        if (paths.isEmpty() || paths.size() > 2) {
            err.println("usage: WeaveCommand [--only PACKAGE_PREFIX]... DIRECTORY|JAR [OUTPUT_JAR]");
            return 2;
        }
        WeaveCommand command = new WeaveCommand(prefixes);
        try {
            Path target = Path.of(paths.get(0));
            if (Files.isDirectory(target)) {
                command.weaveDirectory(target);
            } else {
                command.weaveJar(target, Path.of(paths.size() == 2 ? paths.get(1) : paths.get(0)));
            }
        } catch (WeavingException | IOException e) {
            err.println("weft-weaver: " + e.getMessage());
            return 1;
        }
        out.println("weft-weaver: wove " + command.woven + " classes in " + paths.get(0));
        return 0;
    }

    /**
     * Weaves, in place, the classes under {@code root} whose names start with one of
     * {@code prefixes} (all of them if there is none); returns how many it changed.
     */
    public static int weaveDirectory(Path root, List<String> prefixes) throws IOException, WeavingException {
        WeaveCommand command = new WeaveCommand(prefixes);
        command.weaveDirectory(root);
        return command.woven;
    }

    private void weaveDirectory(Path root) throws IOException, WeavingException {
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

    private void weaveFiles(Path root) throws IOException, WeavingException {
        List<Path> classes;
        try (Stream<Path> files = Files.walk(root)) {
            classes = files.filter(p -> p.toString().endsWith(".class")).toList();
        }
        for (Path file : classes) {
            String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
            if (selected.test(name.substring(0, name.length() - ".class".length()))) {
                byte[] original = Files.readAllBytes(file);
                byte[] result = weave(original);
                if (result != original) {
                    Files.write(file, result);
                }
            }
        }
    }

    private void weaveJar(Path jar, Path output) throws IOException, WeavingException {
        Path temporary = Files.createTempFile(output.toAbsolutePath().getParent(), "weft", ".jar");
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
                if (name.endsWith(".class") && selected.test(name.substring(0, name.length() - 6).replace('/', '.'))) {
                    content = weave(content);
                }
                out.putNextEntry(new JarEntry(name));
                out.write(content);
                out.closeEntry();
            }
        }
        Files.move(temporary, output, StandardCopyOption.REPLACE_EXISTING);
    }

    private byte[] weave(byte[] original) throws WeavingException {
        byte[] result = weaver.weave(original, classFiles);
        if (result != original) {
            woven++;
        }
        return result;
    }
}
