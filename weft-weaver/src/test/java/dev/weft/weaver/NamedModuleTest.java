package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Woven classes in a named module that opens none of its packages to Weft (Weft is on the class
 * path here, in the unnamed module, which may then look into none of them): the runtime reaches
 * their private twins through the lookups the classes register, a static call of a class not
 * initialized yet initializes it when the call links, as {@code invokestatic} would, and a
 * suspended woven coroutine's frames are read, written back and resumed.
 */
class NamedModuleTest {

    private static final String MODULE = "weft.fixtures.closed";
    private static final String FIXTURES = "dev/weft/weaver/fixtures/closed";
    private static final String CALLER = "dev.weft.weaver.fixtures.closed.calling.Caller";
    private static final List<String> OUTPUTS = List.of("static", "own instance", "reference",
            "static=1, own instance=2, reference=3");

    @TempDir
    Path modules;

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    @Test
    void theModuleOpensNothingToWeft() throws Exception {
        Class<?> caller = newLayer().findLoader(MODULE).loadClass(CALLER);
        Module module = caller.getModule();
        assertTrue(module.isNamed() && module.getDescriptor().opens().isEmpty() && !module.getDescriptor().isOpen());
        assertThrows(IllegalAccessException.class, () -> MethodHandles.privateLookupIn(caller, MethodHandles.lookup()),
                "Weft's module, the unnamed one, cannot look into it");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void callsAcrossItsPackagesSuspendAndTheCalleeIsInitializedWhereTheCallIs(Engine engine) throws Exception {
        Class<?> caller = newLayer().findLoader(MODULE).loadClass(CALLER);
        AsymCoroutine<Object, String> co = create(caller, engine);
        assertEquals(OUTPUTS, drive(co, 0));
        assertEquals(List.of("run 0", "Callee initialized"), log(caller),
                "the callee was initialized by its static call, after the coroutine started");
    }

    /**
     * Suspended in the static call and in the instance call's private callee. (Not in the method
     * reference's call: frames that a method reference of one class to another's method chains
     * are refused on reading, in any module, since Weft cannot tell the reference's target.)
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aCoroutineSuspendedInEachCallIsWrittenToFramesAndResumedFromThem(Engine engine) throws Exception {
        Class<?> caller = newLayer().findLoader(MODULE).loadClass(CALLER);
        for (int suspended = 1; suspended < OUTPUTS.size() - 1; suspended++) {
            AsymCoroutine<Object, String> original = create(caller, engine);
            assertEquals(OUTPUTS.subList(0, suspended), drive(original, 0, suspended));
            AsymCoroutine<Object, String> copy = create(caller, engine);
            copy.deserialize(Replay.rehome(original.serialize(), original, copy));
            original.close();
            assertEquals(OUTPUTS.subList(suspended, OUTPUTS.size()), drive(copy, suspended, OUTPUTS.size()),
                    "resumed from its frames after " + suspended + " calls");
        }
    }

    @SuppressWarnings("unchecked")
    private static AsymCoroutine<Object, String> create(Class<?> caller, Engine engine) throws ReflectiveOperationException {
        return (AsymCoroutine<Object, String>) caller.getConstructor(Engine.class).newInstance(engine);
    }

    /** Calls {@code co} with the numbers from {@code from} until it finishes; its outputs. */
    private static List<String> drive(AsymCoroutine<Object, String> co, int from) {
        return drive(co, from, Integer.MAX_VALUE);
    }

    private static List<String> drive(AsymCoroutine<Object, String> co, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to && !co.isFinished(); i++) {
            out.add(co.call(i));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<String> log(Class<?> caller) throws ReflectiveOperationException {
        return List.copyOf((List<String>) caller.getField("LOG").get(null));
    }

    /**
     * A new layer of the module: the fixtures of {@code closed} woven, and a module descriptor
     * that exports the calling package, opens none, and reads Weft's module (the class path's).
     */
    private ModuleLayer newLayer() throws IOException, WeavingException {
        Path directory = Files.createTempDirectory(modules, "module");
        Path root = classesDirectory();
        Weaver weaver = new Weaver();
        try (Stream<Path> files = Files.walk(root.resolve(FIXTURES))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                Path target = directory.resolve(root.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.write(target, weaver.weave(Files.readAllBytes(file)));
            }
        }
        Files.write(directory.resolve("module-info.class"), moduleInfo());
        Configuration configuration = ModuleLayer.boot().configuration().resolve(ModuleFinder.of(directory),
                ModuleFinder.of(), Set.of(MODULE));
        ClassLoader parent = NamedModuleTest.class.getClassLoader();
        ModuleLayer.Controller controller = ModuleLayer.defineModulesWithOneLoader(configuration, List.of(ModuleLayer.boot()),
                parent);
        controller.addReads(controller.layer().findModule(MODULE).orElseThrow(), parent.getUnnamedModule());
        return controller.layer();
    }

    /** The directory of the test classes, which holds the fixtures' class files. */
    private static Path classesDirectory() {
        try {
            return Path.of(NamedModuleTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] moduleInfo() {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V9, Opcodes.ACC_MODULE, "module-info", null, null, null);
        ModuleVisitor module = writer.visitModule(MODULE, 0, null);
        module.visitRequire("java.base", Opcodes.ACC_MANDATED, null);
        module.visitExport(FIXTURES + "/calling", 0);
        module.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    @Test
    void theFixturesAreWovenAndTheirTwinsPrivate() throws Exception {
        Class<?> caller = newLayer().findLoader(MODULE).loadClass(CALLER);
        assertFalse(List.of(caller.getMethods()).stream().anyMatch(m -> m.getName().contains("$weft")));
        assertTrue(List.of(caller.getDeclaredMethods()).stream().anyMatch(m -> m.getName().equals("run$weft")));
    }
}
