package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.woven.WovenMethods;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.Printer;

/** Every fixture class, woven: well formed, accepted by the JVM's verifier, and left alone when woven again. */
class WovenClassesTest {

    /** The fixtures with nothing to weave: an annotation type, interfaces of abstract methods, and classes whose methods call nothing. */
    private static final java.util.Set<String> LEFT_AS_COMPILED = java.util.Set.of("SerialForms$Marked",
            "SerialForms$Arithmetic", "SerialForms$Quiet", "LambdaBodies$Step", "ReceiverInLocal$Step");

    private final Weaver weaver = new Weaver();

    /** The binary names of every class compiled from the fixtures package, nested and synthetic ones included. */
    static List<String> fixtureClasses() {
        try {
            Path directory = Path.of(WovenClassesTest.class.getClassLoader().getResource("dev/weft/weaver/fixtures").toURI());
            try (Stream<Path> files = Files.list(directory)) {
                return files.map(f -> f.getFileName().toString())
                        .filter(f -> f.endsWith(".class"))
                        .map(f -> "dev.weft.weaver.fixtures." + f.substring(0, f.length() - ".class".length()))
                        .sorted()
                        .toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private byte[] weave(byte[] classFile) {
        try {
            return weaver.weave(classFile);
        } catch (WeavingException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aClassIsCapturableAnywhereOnlyIfNoMethodItMaySuspendInIsUnwovenOrHoldsAMonitor() throws ClassNotFoundException {
        WovenLoader loader = new WovenLoader();
        for (String capturable : List.of("Accumulator", "Recursion", "Lambdas")) {
            assertTrue(tableOf(loader, capturable).everyFrameCapturable(), capturable);
        }
        WovenMethods built = tableOf(loader, "InConstructor$Built");
        assertFalse(built.everyFrameCapturable(), "its constructor calls ret");
        assertTrue(built.method("<init>(Ldev/weft/AsymCoroutine;)V").unsupported().contains("constructors"));
        assertFalse(tableOf(loader, "HoldingMonitor").everyFrameCapturable(), "it suspends inside synchronized");
    }

    private static WovenMethods tableOf(WovenLoader loader, String simpleName) throws ClassNotFoundException {
        return WovenMethods.of(loader.loadClass("dev.weft.weaver.fixtures." + simpleName));
    }

    /**
     * A twin calls the twin of a static or private method of its own class directly, as the
     * linker would link the call, so that a recursion of twins takes no more stack than the
     * recursion of the methods; a call that may select another method (one inherited, or
     * overridable) stays linked.
     */
    @Test
    void aTwinCallsTheTwinsOfItsOwnClassesStaticAndPrivateMethodsDirectly() {
        ClassNode woven = new ClassNode();
        new ClassReader(weave(WovenLoader.original("dev.weft.weaver.fixtures.Recursion"))).accept(woven, 0);
        assertEquals(List.of("INVOKESPECIAL down$weft"), callsOf(woven, "down$weft", "down"), "private, of itself");
        assertEquals(List.of("INVOKESPECIAL odd$weft"), callsOf(woven, "even$weft", "odd"), "private, on another receiver");
        assertEquals(List.of("INVOKESTATIC even$weft"), callsOf(woven, "odd$weft", "even"), "static");
        assertEquals(List.of("INVOKEDYNAMIC ret", "INVOKEDYNAMIC ret"), callsOf(woven, "down$weft", "ret"),
                "inherited from AsymCoroutine: linked");
        assertEquals(List.of("INVOKEVIRTUAL down"), callsOf(woven, "down", "down"), "the original, left as compiled");
    }

    /** The calls in {@code method} of {@code woven} of methods named {@code callee} or its twin, as "OPCODE name". */
    private static List<String> callsOf(ClassNode woven, String method, String callee) {
        MethodNode m = woven.methods.stream().filter(n -> n.name.equals(method)).findFirst().orElseThrow();
        List<String> calls = new ArrayList<>();
        for (AbstractInsnNode insn : m.instructions) {
            String name = insn instanceof MethodInsnNode call ? call.name : insn instanceof InvokeDynamicInsnNode indy ? indy.name : null;
            if (name != null && (name.equals(callee) || name.equals(callee + "$weft"))) {
                calls.add(Printer.OPCODES[insn.getOpcode()] + " " + name);
            }
        }
        return calls;
    }

    @Test
    void weavingAWovenClassAgainChangesNothing() {
        List<String> names = fixtureClasses();
        assertTrue(names.size() >= 20, "fixtures: " + names);
        for (String name : names) {
            byte[] original = WovenLoader.original(name);
            byte[] woven = weave(original);
            if (LEFT_AS_COMPILED.contains(name.substring(name.lastIndexOf('.') + 1))) {
                assertSame(original, woven, name + " has nothing to weave");
                continue;
            }
            assertFalse(Arrays.equals(original, woven), name + " is woven");
            byte[] again = weave(woven);
            assertSame(woven, again, name + " woven twice");
            assertArrayEquals(woven, weave(woven.clone()), name + " woven twice, from a copy of its bytes");
        }
    }

    @Test
    void everyWovenFixturePassesAsmsChecksAndTheJvmsVerifier() throws ClassNotFoundException {
        WovenLoader loader = new WovenLoader();
        for (String name : fixtureClasses()) {
            byte[] woven = weave(WovenLoader.original(name));
            try {
                new ClassReader(woven).accept(new CheckClassAdapter(new ClassWriter(0)), 0);
            } catch (RuntimeException e) {
                throw new AssertionError(name + " fails ASM's checks: " + e.getMessage(), e);
            }
            Class.forName(name, true, loader); // links the class, so HotSpot's verifier checks its stack maps
        }
    }
}
