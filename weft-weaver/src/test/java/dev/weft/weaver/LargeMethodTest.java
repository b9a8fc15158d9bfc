package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import dev.weft.internal.woven.WovenMethods;
import dev.weft.weaver.fixtures.LargeMethods;
import dev.weft.weaver.fixtures.OldClassFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.LimitExceededException;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceMethodVisitor;

/**
 * A method too large for the JVM once woven is left as compiled, with its reason, and the rest of
 * its class is woven: the coroutine runs on both engines and suspends in the woven methods; a
 * suspension inside the large one is refused on the woven engine, and its frame is refused by
 * serialize on the native engine, each naming the method and the reason.
 */
class LargeMethodTest {

    private static final OldClassFiles.Generated HUGE = new OldClassFiles.Generated(LargeMethods.NAME,
            LargeMethods.hugeSteps(), -1);
    private static final String TOO_LARGE = "it is too large to weave: woven, its code would be";

    private final WovenLoader loader = new WovenLoader(false, HUGE);

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    @Test
    void theMethodIsLeftByteForByteWithItsReasonAndTheOthersAreWoven() throws Exception {
        WovenMethods table = WovenMethods.of(loader.loadClass(LargeMethods.NAME));
        assertNotNull(table, "the class is woven");
        String reason = table.method("big(I)I").unsupported();
        assertTrue(reason != null && reason.startsWith(TOO_LARGE) && reason.endsWith("over the JVM's limit of 65,535 a method"),
                reason);
        String tooReason = table.method("bigToo(I)I").unsupported();
        assertTrue(reason.contains(" would be about ") != tooReason.contains(" would be about "),
                "the one found too large, the other of the same size left with it, at once: " + reason + " / " + tooReason);
        assertTrue(tooReason.startsWith(TOO_LARGE), tooReason);
        assertEquals(null, table.method("small(I)I").unsupported());
        assertFalse(table.method("small(I)I").sites().isEmpty(), "small is woven");
        byte[] woven = new Weaver().weave(HUGE.classFile());
        assertEquals(code(HUGE.classFile(), "big"), code(woven, "big"), "big's instructions");
        assertFalse(methodNames(woven).contains("big$weft"), "no twin of big: " + methodNames(woven));
        assertFalse(methodNames(woven).contains("bigToo$weft"), "no twin of bigToo: " + methodNames(woven));
        assertTrue(methodNames(woven).contains("small$weft"), "small's twin: " + methodNames(woven));
    }

    @Test
    void onTheWovenEngineASuspensionInsideItIsRefusedNamingItAndWhy() {
        AsymCoroutine<Integer, String> co = loader.newInstance("HugeSteps", Engine.WOVEN);
        co.setName("huge");
        assertEquals("small 1", co.call(1));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> co.call(2));
        assertMentions(e.getMessage(), "cannot suspend huge [", "on the woven engine", LargeMethods.NAME + ".big",
                "the weaver left it as compiled: " + TOO_LARGE);
        assertTrue(co.isFinished(), "the refusal went up through the body, which does not catch it");
    }

    @Test
    void onTheNativeEngineItRunsAndItsFrameIsRefusedBySerializeNamingItAndWhy() {
        AsymCoroutine<Integer, String> co = loader.newInstance("HugeSteps", Engine.NATIVE);
        assertEquals("small 1", co.call(1));
        assertTrue(co.serialize().length > 0, "suspended in a woven method, it serializes");
        assertEquals("big " + (2 + LargeMethods.CALLS), co.call(2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, co::serialize);
        assertMentions(e.getMessage(), LargeMethods.NAME + ".big", "was not woven: " + TOO_LARGE);
        assertEquals("done 0", co.call(0), "the refused serialize left it as it was");
    }

    /**
     * ASM's {@code LimitExceededException} names no method (jruby's prism {@code Loader.loadNode}
     * meets it in CI, WovenJRubyTest): the weaver leaves the method with the most sites first,
     * then the next on each further refusal, and names the class when none is left to leave.
     */
    @Test
    void whenASMGivesUpTheMethodWithTheMostSitesIsLeftFirstAndTheClassNamedWhenNoneIsLeft() throws WeavingException {
        LimitExceededException limit = new LimitExceededException("Too many operations");
        Map<String, String> left = new LinkedHashMap<>();
        Weaver.leaveLargestAsCompiled(HUGE.classFile(), limit, left);
        Weaver.leaveLargestAsCompiled(HUGE.classFile(), limit, left);
        assertEquals(Set.of("big(I)I", "bigToo(I)I"), left.keySet(), "the two with 1,300 calls first");
        assertEquals("it is too large to weave: ASM could not compute the stack-map frames of its twin (Too many operations)",
                left.get("big(I)I"));
        WeavingException e = assertThrows(WeavingException.class, () -> {
            while (true) {
                int before = left.size();
                Weaver.leaveLargestAsCompiled(HUGE.classFile(), limit, left);
                assertEquals(before + 1, left.size(), "one more left each time: " + left.keySet());
            }
        });
        assertEquals("cannot weave " + LargeMethods.NAME + ": Too many operations", e.getMessage());
        assertEquals(Set.of("big(I)I", "bigToo(I)I", "small(I)I", "run(Ljava/lang/Object;)Ljava/lang/Object;"), left.keySet(),
                "every method with a site, and no other (inc calls nothing)");
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message != null && message.contains(part), "missing '" + part + "' in: " + message);
        }
    }

    private static List<String> methodNames(byte[] classFile) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, ClassReader.SKIP_CODE);
        return type.methods.stream().map(m -> m.name).toList();
    }

    /** The instructions of {@code name} in {@code classFile}, as text, without labels, frames and line numbers. */
    private static List<String> code(byte[] classFile, String name) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG);
        MethodNode method = type.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
        List<String> code = new ArrayList<>();
        Textifier text = new Textifier();
        TraceMethodVisitor printer = new TraceMethodVisitor(text);
        for (AbstractInsnNode insn : method.instructions) {
            if (insn.getOpcode() >= 0) {
                insn.accept(printer);
                code.add(text.getText().remove(text.getText().size() - 1).toString().strip());
            }
        }
        return code;
    }
}
