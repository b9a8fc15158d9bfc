package dev.weft.weaver.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;

/**
 * The superclass and the interface flag of classes, read from their class files, never by
 * loading them: what the weaver needs to merge reference types the way the JVM's old
 * type-inferencing verifier does, for class files without stack-map frames. The class files
 * come from a class loader's resources (a JDK class, {@code java/lang/Object.class}, comes from
 * the run-time image through any loader), and the classes being woven are added as they are.
 *
 * <p>Confined to one thread; it remembers what it read for as long as it lives, so a weaver
 * makes one per class it weaves.
 */
public final class ClassHierarchy {

    /** What is known of one class: its superclass (null for {@code java/lang/Object}), whether it is an interface, and its interfaces. */
    private record Header(String superName, boolean isInterface, List<String> interfaces) {
    }

    /** A chain longer than this is taken for a cycle in broken class files: its top is unresolved. */
    private static final int DEEPEST = 1_000;

    private final Function<String, byte[]> classFiles;
    private final Map<String, Header> headers = new HashMap<>();

    private ClassHierarchy(Function<String, byte[]> classFiles) {
        this.classFiles = classFiles;
    }

    /**
     * The hierarchy that {@code loader}'s resources describe; the system class loader's when
     * {@code loader} is null (the bootstrap loader, as a Java agent is told).
     */
    public static ClassHierarchy of(ClassLoader loader) {
        return new ClassHierarchy(name -> read(loader, name + ".class"));
    }

    private static byte[] read(ClassLoader loader, String resource) {
        try (InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(resource)
                : loader.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** Makes the class {@code name} known as it is being woven, whether or not its class file can be found. */
    public void add(String name, String superName, int access, List<String> interfaces) {
        headers.put(name, new Header(superName, (access & Opcodes.ACC_INTERFACE) != 0, List.copyOf(interfaces)));
    }

    /**
     * Whether {@code name} is {@code supertype} or a subtype of it, through its superclasses and
     * interfaces; null if it is not found to be and a class file on the way cannot be found.
     */
    public Boolean isSubtype(String name, String supertype) {
        Deque<String> pending = new ArrayDeque<>(List.of(name));
        Set<String> seen = new HashSet<>();
        boolean complete = true;
        while (!pending.isEmpty() && seen.size() < DEEPEST) {
            String next = pending.pop();
            if (next.equals(supertype)) {
                return true;
            }
            if (!seen.add(next)) {
                continue;
            }
            Header header = header(next);
            if (header == null) {
                complete = false;
                continue;
            }
            if (header.superName() != null) {
                pending.push(header.superName());
            }
            header.interfaces().forEach(pending::push);
        }
        return complete ? Boolean.FALSE : null;
    }

    /** Whether {@code name} is an interface; null if its class file cannot be found. */
    Boolean isInterface(String name) {
        Header header = header(name);
        return header == null ? null : header.isInterface();
    }

    /**
     * {@code name} and its superclasses, nearest first. If the chain ends at a class whose class
     * file cannot be found, rather than at {@code java/lang/Object}, that class is its last
     * element and {@link #isComplete} is false for it.
     */
    List<String> superclasses(String name) {
        List<String> chain = new ArrayList<>();
        for (String n = name; n != null && chain.size() < DEEPEST; n = superName(n)) {
            chain.add(n);
            if (header(n) == null) {
                break;
            }
        }
        return chain;
    }

    /** Whether a chain from {@link #superclasses} reaches {@code java/lang/Object}. */
    static boolean isComplete(List<String> chain) {
        return chain.get(chain.size() - 1).equals("java/lang/Object");
    }

    private String superName(String name) {
        Header header = header(name);
        return header == null ? null : header.superName();
    }

    private Header header(String name) {
        if (!headers.containsKey(name)) {
            byte[] classFile = classFiles.apply(name);
            headers.put(name, classFile == null ? null : headerOf(classFile));
        }
        return headers.get(name);
    }

    private static Header headerOf(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        return new Header(reader.getSuperName(), (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0,
                List.of(reader.getInterfaces()));
    }
}
