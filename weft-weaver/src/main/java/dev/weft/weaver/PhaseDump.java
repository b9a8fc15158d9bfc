package dev.weft.weaver;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.TraceClassVisitor;

/**
 * The weaver's dump switch: with the system property {@code weft.weaver.dump} set to a
 * directory, every class is listed there after each phase ({@code Name.1-read.txt}, ...), and
 * the woven class is checked with ASM's {@link CheckClassAdapter} (structure and data flow) into
 * {@code Name.check.txt}. For debugging the weaver; it costs nothing when the property is unset.
 */
final class PhaseDump {

    private static final String PROPERTY = "weft.weaver.dump";

    private final Path directory;

    private PhaseDump(Path directory) {
        this.directory = directory;
    }

    /** The dump for this run, or null when the switch is off. */
    static PhaseDump fromSystemProperty() {
        String directory = System.getProperty(PROPERTY);
        return directory == null || directory.isBlank() ? null : new PhaseDump(Path.of(directory));
    }

    /** Lists {@code type} as it is after phase {@code number}, {@code name}. */
    void phase(ClassNode type, int number, String name) {
        StringWriter text = new StringWriter();
        type.accept(new TraceClassVisitor(new PrintWriter(text)));
        write(type.name, number + "-" + name + ".txt", text.toString());
    }

    /** Checks the woven class file and writes what the check found (or "ok"). */
    void check(String className, byte[] woven) {
        StringWriter problems = new StringWriter();
        try {
            CheckClassAdapter.verify(new ClassReader(woven), getClass().getClassLoader(), false, new PrintWriter(problems));
            new ClassReader(woven).accept(new CheckClassAdapter(new ClassWriter(0), true), 0);
        } catch (RuntimeException e) {
            problems.append(e.toString());
        }
        write(className, "check.txt", problems.toString().isEmpty() ? "ok\n" : problems.toString());
    }

    private void write(String className, String suffix, String content) {
        Path file = directory.resolve(className.replace('/', '.') + "." + suffix);
        try {
            Files.createDirectories(directory);
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the weaver's dump " + file, e);
        }
    }
}
