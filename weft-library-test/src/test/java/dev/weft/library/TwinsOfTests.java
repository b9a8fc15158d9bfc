package dev.weft.library;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/**
 * Which tests, named by JUnit's unique ids, have methods with twins in a woven jar of test
 * classes: read from the class files, independently of the extension that enters tests
 * through their twins. A method has a twin if its class declares a method of its name followed
 * by {@code $weft} (overloads are not told apart). Dynamic tests have no method of their own,
 * and are never counted. A JUnit 3 test's id, from JUnit's vintage engine, names its method and
 * class in its last segment.
 *
 * <p>Functions of their arguments and the jar's files only; thread-safe.
 */
final class TwinsOfTests {

    /** The class and method segments of a test's unique id: {@code [class:C]}, {@code [nested-class:N]}, {@code [method:m(...)]}. */
    private static final Pattern SEGMENT = Pattern.compile("\\[(class|nested-class|method|test-template|test-factory):([^(\\]]+)");

    /** The start of the unique ids of the tests that JUnit's vintage engine runs (JUnit 3 and 4). */
    private static final String VINTAGE = "[engine:junit-vintage]";
    /**
     * The last segment of a vintage test's unique id, {@code [test:NAME(CLASS)]}, whose NAME is
     * a JUnit 3 test's method's, followed by what guava-testlib adds to it, its suite's name in
     * brackets (escaped as {@code %5B}).
     */
    private static final Pattern VINTAGE_TEST = Pattern.compile("\\[test:([^(%\\[\\]]+)[^/]*\\(([^()/]+)\\)\\]$");

    private TwinsOfTests() {
    }

    /** The tests of {@code ids} whose methods have twins in {@code jar}, in the order given. */
    static List<String> withTwins(Path jar, List<String> ids) throws IOException {
        List<String> twinned = new ArrayList<>();
        try (JarFile classes = new JarFile(jar.toFile())) {
            for (String id : ids) {
                if (!id.contains("[dynamic-test:") && hasTwin(classes, id)) {
                    twinned.add(id);
                }
            }
        }
        return twinned;
    }

    private static boolean hasTwin(JarFile classes, String id) throws IOException {
        String className = null;
        String method = null;
        Matcher vintage = VINTAGE_TEST.matcher(id);
        if (id.startsWith(VINTAGE) && vintage.find()) {
            className = vintage.group(2);
            method = vintage.group(1);
        }
        Matcher segment = SEGMENT.matcher(id.startsWith(VINTAGE) ? "" : id);
        while (segment.find()) {
            switch (segment.group(1)) {
                case "class" -> className = segment.group(2);
                case "nested-class" -> className = className + "$" + segment.group(2);
                default -> method = segment.group(2);
            }
        }
        if (className == null || method == null) {
            throw new IllegalArgumentException("no class and method in the unique id " + id);
        }
        String twin = method + "$weft";
        return classNode(classes, className).methods.stream().anyMatch(m -> m.name.equals(twin));
    }

    private static ClassNode classNode(JarFile classes, String className) throws IOException {
        ZipEntry entry = classes.getEntry(className.replace('.', '/') + ".class");
        if (entry == null) {
            throw new IllegalArgumentException(className + " is not in " + classes.getName());
        }
        ClassNode node = new ClassNode();
        try (InputStream in = classes.getInputStream(entry)) {
            new ClassReader(in).accept(node, ClassReader.SKIP_CODE);
        }
        return node;
    }
}
