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
 * <p>The argument is a comma-separated list of packages (each with its subpackages) or classes
 * (each with its nested classes), in the syntax of {@link ClassSelection} that the command line
 * and the Maven plugin share: {@code com.example.flows} and {@code com.example.flows.} mean the
 * same. Without an argument, nothing is woven; an argument that is not a list of Java names stops
 * the JVM with a message naming it. A class that cannot be woven is left as it was, with a line on standard
 * error naming it. The transformer never loads a class, so it is safe for classes seen before
 * their supertypes: where it needs superclasses (class files before version 50), it reads their
 * class files from the resources of the loader that is defining the class.
 *
 * <p>An entry that selects no class is most likely a typo, but only the end of the run tells:
 * when the JVM shuts down, a hook prints a warning on standard error for each entry that
 * selected no class the transformer saw load, with a near name among the loaded classes if
 * there is one ({@link ClassSelection#nearName}); nothing if every entry selected a class.
 * <pre>
 * weft-weaver: warning: agent entry com.exmple.flows matched no class loaded by this JVM; did you mean com.example.flows?
 * </pre>
 * Classes load on any thread, so the transformer records matches in a
 * {@link ClassSelection.Matches}, which is thread-safe.
 */
public final class WeaverAgent {

    /** weft-core's package of the names woven code and the runtime share. */
    private static final String CONTRACT_PACKAGE = "dev.weft.internal.contract";

    private WeaverAgent() {
    }

    /**
     * Called by the JVM for {@code -javaagent}: opens HotSpot's continuations to Weft and weaves
     * the selected classes from now on.
     *
     * @param arguments       what follows {@code =} in the option: the classes to weave
     * @param instrumentation the JVM's instrumentation
     * @throws IllegalArgumentException naming the entry, if {@code arguments} holds one that is
     *         not a package or class name
     */
    public static void premain(String arguments, Instrumentation instrumentation) {
        ClassSelection selection = ClassSelection.parse(arguments);
        openContinuations(instrumentation);
        exportContractToTheAgent(instrumentation);
        if (!selection.isEverything()) {
            ClassSelection.Matches matches = selection.matches();
            instrumentation.addTransformer(new Transformer(matches));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> warnUnmatched(matches, instrumentation),
                    "weft-weaver unmatched entries"));
        }
    }

    /**
     * Called by the JVM when the agent is loaded into a running JVM: the same as
     * {@link #premain}; classes loaded before are not woven.
     *
     * @param arguments       the classes to weave, as for {@link #premain}
     * @param instrumentation the JVM's instrumentation
     */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        premain(arguments, instrumentation);
    }

    /** At shutdown: warns of each entry that matched no class loaded, naming a near loaded class or package if any. */
    private static void warnUnmatched(ClassSelection.Matches matches, Instrumentation instrumentation) {
        List<String> unmatched = matches.unmatched();
        if (unmatched.isEmpty()) {
            return;
        }
        List<String> loaded = Arrays.stream(instrumentation.getAllLoadedClasses())
                .filter(type -> !type.isArray() && !type.isHidden())
                .map(Class::getName)
                .toList();
        for (String entry : unmatched) {
            System.err.println("weft-weaver: warning: agent entry " + entry + " matched no class loaded by this JVM"
                    + ClassSelection.nearName(entry, loaded).map(near -> "; did you mean " + near + "?").orElse(""));
        }
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

    /**
     * With {@code weft-core} on the module path, exports its woven-code contract (which module
     * {@code dev.weft} exports to {@code dev.weft.weaver} only) to the agent, which the JVM loads
     * on the class path: the weaver reads the contract as it weaves.
     */
    private static void exportContractToTheAgent(Instrumentation instrumentation) {
        Module agent = WeaverAgent.class.getModule();
        ModuleLayer.boot().findModule("dev.weft").filter(weft -> !weft.isExported(CONTRACT_PACKAGE, agent))
                .ifPresent(weft -> instrumentation.redefineModule(weft, Set.of(), Map.of(CONTRACT_PACKAGE, Set.of(agent)),
                        Map.of(), Set.of(), Map.of()));
    }

    /** Weaves the classes of its selection, recording which entries selected one. */
    private static final class Transformer implements ClassFileTransformer {

        private final Weaver weaver = new Weaver();
        private final ClassSelection.Matches selection;

        Transformer(ClassSelection.Matches selection) {
            this.selection = selection;
        }

        @Override
        public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
                ProtectionDomain domain, byte[] classFile) {
            if (className == null || !selection.includes(className)) {
                return null;
            }
            try {
                Weaver.Outcome outcome = weaver.weaveReporting(classFile, loader);
                outcome.leftAsCompiled().forEach((method, why) -> report(className, method, why));
                return outcome.classFile() == classFile ? null : outcome.classFile();
            } catch (WeavingException | RuntimeException e) {
                report(className, null, e.getMessage());
                return null;
            }
        }

        /** Says on standard error, as the command line and the plugin do, what was left as compiled and why. */
        private static void report(String internalName, String method, String why) {
            System.err.println("weft-weaver: " + new WeaveCommand.Report.Left(internalName.replace('/', '.'), method, why)
                    .describe());
        }
    }
}
