package dev.weft.weaver;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The weaver as a Java agent: weaves the classes of the given packages as they load, and opens
 * HotSpot's continuations to Weft, so that the agent is the only option a program needs.
 *
 * <pre>
 * java -javaagent:weft-weaver-VERSION-agent.jar=com.example.app,com.example.flows -cp ... Main
 * </pre>
 *
 * <p>The argument is a comma-separated list of package (or class name) prefixes; without one,
 * nothing is woven. A class that cannot be woven is left as it was, with a line on standard
 * error naming it. The transformer never loads a class, so it is safe for classes seen before
 * their supertypes: where it needs superclasses (class files before version 50), it reads their
 * class files from the resources of the loader that is defining the class.
 */
public final class WeaverAgent {

    private WeaverAgent() {
    }

    public static void premain(String arguments, Instrumentation instrumentation) {
        openContinuations(instrumentation);
        instrumentation.addTransformer(new Transformer(prefixes(arguments)));
    }

    public static void agentmain(String arguments, Instrumentation instrumentation) {
        premain(arguments, instrumentation);
    }

    /** Internal names ({@code com/example/}) of the prefixes in {@code arguments}. */
    static List<String> prefixes(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return List.of();
        }
        return Arrays.stream(arguments.split(",")).map(String::strip).filter(p -> !p.isEmpty())
                .map(p -> p.replace('.', '/')).toList();
    }

    /**
     * Exports {@code jdk.internal.vm} to the class path's unnamed module and, if it is in the boot
     * layer, to module {@code dev.weft}: what {@code --add-exports} would do.
     */
    private static void openContinuations(Instrumentation instrumentation) {
        Module base = Object.class.getModule();
        Set<Module> readers = new HashSet<>();
        readers.add(ClassLoader.getSystemClassLoader().getUnnamedModule());
        ModuleLayer.boot().findModule("dev.weft").ifPresent(readers::add);
        instrumentation.redefineModule(base, Set.of(), Map.of("jdk.internal.vm", readers), Map.of(), Set.of(), Map.of());
    }

    /** Weaves the classes whose names start with one of its prefixes. */
    private static final class Transformer implements ClassFileTransformer {

        private final Weaver weaver = new Weaver();
        private final List<String> prefixes;

        Transformer(List<String> prefixes) {
            this.prefixes = prefixes;
        }

        @Override
        public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
                ProtectionDomain domain, byte[] classFile) {
            if (className == null || prefixes.stream().noneMatch(className::startsWith)) {
                return null;
            }
            try {
                byte[] woven = weaver.weave(classFile, loader);
                return woven == classFile ? null : woven;
            } catch (WeavingException | RuntimeException e) {
                System.err.println("weft-weaver: left " + className.replace('/', '.') + " unwoven: " + e.getMessage());
                return null;
            }
        }
    }
}
