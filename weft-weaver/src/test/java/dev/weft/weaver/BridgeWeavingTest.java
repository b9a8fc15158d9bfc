package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.woven.WovenMethods;
import dev.weft.weaver.fixtures.OldClassFiles;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Bridges and the weaver: javac's bridge (its arguments cast, the real method called, its
 * result returned) is passed through, left as compiled, with a twin that only passes the call on
 * and a site-table line naming the method it bridges to; a method with the bridge flags whose
 * code has another shape, as another compiler might write it, is woven as any method, and its
 * frame is then in the frame lists of both engines.
 */
class BridgeWeavingTest implements Opcodes {

    private static final String RUN_BRIDGE = "run(Ljava/lang/Object;)Ljava/lang/Object;";
    private static final String ODD = "dev/weft/weaver/fixtures/OddBridge";

    private static byte[] compiled(String simpleName) throws IOException {
        try (InputStream in = BridgeWeavingTest.class.getClassLoader()
                .getResourceAsStream("dev/weft/weaver/fixtures/" + simpleName + ".class")) {
            return in.readAllBytes();
        }
    }

    private static ClassNode read(byte[] classFile) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        return type;
    }

    private static MethodNode method(ClassNode type, String key) {
        return type.methods.stream().filter(m -> (m.name + m.desc).equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + key + " in " + type.name));
    }

    /** The method's instructions, as opcodes, the labels, line numbers and frames left out. */
    private static List<Integer> opcodes(MethodNode method) {
        List<Integer> opcodes = new ArrayList<>();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn.getOpcode() >= 0) {
                opcodes.add(insn.getOpcode());
            }
        }
        return opcodes;
    }

    /** The entry of {@code key} in the woven class's site table. */
    private static SiteTable.Method tableEntry(ClassNode woven, String key) {
        return SiteTable.read(SiteTables.of(woven)).stream().filter(m -> m.key().equals(key)).findFirst().orElse(null);
    }

    private static List<String> fiberCalls(MethodNode method) {
        List<String> calls = new ArrayList<>();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof MethodInsnNode call && call.owner.equals(WeavingContract.FIBER_CLASS)) {
                calls.add(call.name);
            }
        }
        return calls;
    }

    @Test
    void javacsBridgeIsLeftAsCompiledWithATwinThatOnlyPassesTheCallOn() throws Exception {
        ClassNode compiled = read(compiled("DeepLocals"));
        ClassNode woven = read(new Weaver().weave(compiled("DeepLocals")));
        MethodNode bridge = method(woven, RUN_BRIDGE);
        assertTrue((bridge.access & ACC_BRIDGE) != 0, "the fixture's run(Object) is javac's bridge");
        assertEquals(opcodes(method(compiled, RUN_BRIDGE)), opcodes(bridge), "the bridge is left as compiled");

        MethodNode twin = method(woven, "run$weft(Ljava/lang/Object;L" + WeavingContract.FIBER_CLASS + ";)Ljava/lang/Object;");
        assertEquals(List.of(), fiberCalls(twin), "no frame saved, none rebuilt");
        List<InvokeDynamicInsnNode> linked = new ArrayList<>();
        twin.instructions.forEach(insn -> {
            if (insn instanceof InvokeDynamicInsnNode call) {
                linked.add(call);
            }
        });
        assertEquals(1, linked.size());
        assertEquals(WeavingContract.LINKER_CLASS, linked.get(0).bsm.getOwner());
        assertEquals("(Ldev/weft/weaver/fixtures/DeepLocals;Ljava/lang/Integer;L" + WeavingContract.FIBER_CLASS
                + ";)Ljava/lang/String;", linked.get(0).desc, "the real run's twin, the argument cast as the bridge casts it");
        assertEquals(compiled.interfaces, woven.interfaces, "the woven engine enters the body through a handle");
        assertEquals(ACC_PRIVATE | ACC_SYNTHETIC, twin.access, "the twin is hidden as every twin is");

        SiteTable.Method entry = tableEntry(woven, RUN_BRIDGE);
        assertNotNull(entry, "the bridge has a line in the site table");
        assertEquals("run(Ljava/lang/Integer;)Ljava/lang/String;", entry.bridgeTo());
        assertEquals(List.of(), entry.sites());
        assertNull(tableEntry(woven, "run(Ljava/lang/Integer;)Ljava/lang/String;").bridgeTo(),
                "the real run is woven as any method");
    }

    @Test
    void theRuntimeReadsThePassedThroughBridgeFromTheTable() throws ClassNotFoundException {
        Class<?> type = new WovenLoader().loadClass("dev.weft.weaver.fixtures.DeepLocals");
        WovenMethods table = WovenMethods.of(type);
        assertEquals("run(Ljava/lang/Integer;)Ljava/lang/String;", table.method(RUN_BRIDGE).bridgeTo());
        assertTrue(table.everyFrameCapturable(), "a bridge passed through spoils nothing");
    }

    /**
     * {@code OddBridge extends AsymCoroutine<Integer, Integer>}: {@code run(Integer)} passes its
     * input plus one to {@code ret} and returns what it gets; its bridge {@code run(Object)} keeps
     * the result in a local before returning it, a shape javac never writes.
     */
    private static OldClassFiles.Generated oddBridge() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, ODD, null, "dev/weft/AsymCoroutine", null);
        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "(Ldev/weft/Engine;)V", null, null);
        init.visitVarInsn(ALOAD, 0);
        init.visitVarInsn(ALOAD, 1);
        init.visitMethodInsn(INVOKESPECIAL, "dev/weft/AsymCoroutine", "<init>", "(Ldev/weft/Engine;)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor run = cw.visitMethod(ACC_PROTECTED, "run", "(Ljava/lang/Integer;)Ljava/lang/Integer;", null, null);
        run.visitVarInsn(ALOAD, 0);
        run.visitVarInsn(ALOAD, 1);
        run.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Integer", "intValue", "()I", false);
        run.visitInsn(ICONST_1);
        run.visitInsn(IADD);
        run.visitMethodInsn(INVOKESTATIC, "java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;", false);
        run.visitMethodInsn(INVOKEVIRTUAL, ODD, "ret", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
        run.visitTypeInsn(CHECKCAST, "java/lang/Integer");
        run.visitInsn(ARETURN);
        run.visitMaxs(0, 0);
        run.visitEnd();
        MethodVisitor bridge = cw.visitMethod(ACC_PROTECTED | ACC_BRIDGE | ACC_SYNTHETIC, "run", "(Ljava/lang/Object;)Ljava/lang/Object;",
                null, null);
        bridge.visitVarInsn(ALOAD, 0);
        bridge.visitVarInsn(ALOAD, 1);
        bridge.visitTypeInsn(CHECKCAST, "java/lang/Integer");
        bridge.visitMethodInsn(INVOKEVIRTUAL, ODD, "run", "(Ljava/lang/Integer;)Ljava/lang/Integer;", false);
        bridge.visitVarInsn(ASTORE, 2);
        bridge.visitVarInsn(ALOAD, 2);
        bridge.visitInsn(ARETURN);
        bridge.visitMaxs(0, 0);
        bridge.visitEnd();
        cw.visitEnd();
        return new OldClassFiles.Generated(ODD.replace('/', '.'), cw.toByteArray(), -1);
    }

    @Test
    void aBridgeOfAnotherShapeIsWovenAsAnyMethod() throws WeavingException {
        ClassNode woven = read(new Weaver().weave(oddBridge().classFile()));
        SiteTable.Method entry = tableEntry(woven, RUN_BRIDGE);
        assertNotNull(entry);
        assertNull(entry.bridgeTo());
        assertEquals(1, entry.sites().size(), "its call of run(Integer) is a site");
        MethodNode twin = method(woven, "run$weft(Ljava/lang/Object;L" + WeavingContract.FIBER_CLASS + ";)Ljava/lang/Object;");
        assertTrue(fiberCalls(twin).contains(WeavingContract.END_FRAME_METHOD), "its twin saves its frame");
        assertEquals(opcodes(method(read(oddBridge().classFile()), RUN_BRIDGE)), opcodes(method(woven, RUN_BRIDGE)),
                "the bridge itself is left as compiled, as every method of a class with twins");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aBridgeOfAnotherShapeKeepsItsFrameOnEitherEngine(Engine engine) throws ReflectiveOperationException {
        WovenLoader loader = new WovenLoader(false, oddBridge());
        @SuppressWarnings("unchecked")
        AsymCoroutine<Integer, Integer> co = (AsymCoroutine<Integer, Integer>) loader.loadClass(ODD.replace('/', '.'))
                .getConstructor(Engine.class).newInstance(engine);
        assertEquals(6, co.call(5));
        CoroutineFrame[] frames = co.serialize();
        assertEquals(List.of(true, false), Arrays.stream(frames).map(f -> f.method.isBridge()).toList(),
                "the odd bridge's frame, then run(Integer)'s: " + Arrays.toString(frames));
        assertEquals(7, co.call(7));
        assertTrue(co.isFinished());
    }
}
