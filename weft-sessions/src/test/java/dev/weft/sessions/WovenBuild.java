package dev.weft.sessions;

import dev.weft.weaver.Weaver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A build of a node's code made by a test: the classes a test compiled, woven, and loaded by a
 * class loader of their own, whose parent is the tests' loader. Two such builds of one class
 * are two nodes' code over one store.
 */
final class WovenBuild {

    private final Map<String, byte[]> woven = new HashMap<>();
    private final ClassLoader loader;

    /** Weaves every class file under {@code classes}, for a loader named {@code name}. */
    WovenBuild(String name, Path classes) throws Exception {
        Weaver weaver = new Weaver();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String className = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                woven.put(className, weaver.weave(Files.readAllBytes(file)));
            }
        }
        loader = new ClassLoader(name, WovenBuild.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String className) throws ClassNotFoundException {
                byte[] bytes = woven.get(className);
                if (bytes == null) {
                    throw new ClassNotFoundException(className);
                }
                return defineClass(className, bytes, 0, bytes.length);
            }
        };
    }

    /** The names of the classes woven. */
    Set<String> classNames() {
        return Set.copyOf(woven.keySet());
    }

    ClassLoader loader() {
        return loader;
    }
}
