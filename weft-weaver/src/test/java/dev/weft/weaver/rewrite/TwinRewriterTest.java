package dev.weft.weaver.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.contract.WeavingContract;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.WeavingException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The shape of woven twins (see {@link TwinRewriter}'s templates): each linked call is followed
 * by the save of its frame, ended by {@code endFrame} with a handle constant of the twin itself
 * (an exact call, by which the engine resumes the frame alone), and by the taking of the call's
 * result when the frame is resumed, of the call's own kind; the prologue tests
 * {@code isResuming} and never calls a callee again.
 */
class TwinRewriterTest implements Opcodes {

    private static ClassNode woven(String simpleName) throws IOException, WeavingException {
        String resource = "dev/weft/weaver/fixtures/" + simpleName + ".class";
        try (InputStream in = TwinRewriterTest.class.getClassLoader().getResourceAsStream(resource)) {
            ClassNode type = new ClassNode();
            new ClassReader(new Weaver().weave(in.readAllBytes())).accept(type, 0);
            return type;
        }
    }

    private static List<MethodNode> twins(ClassNode type) {
        return type.methods.stream().filter(m -> m.name.endsWith(WeavingContract.TWIN_SUFFIX)).toList();
    }

    private static boolean isFiberCall(AbstractInsnNode insn, String name) {
        return insn instanceof MethodInsnNode call && call.owner.equals(WeavingContract.FIBER_CLASS) && call.name.equals(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"DeepStack", "DeepThrow", "DeepLocals", "AskingBody", "Asker", "Recursion", "Wide", "Finallies"})
    void everyCallOfATwinEndsItsFrameWithAHandleOfItsOwnTwinAndTakesItsResultOfItsKind(String fixture) throws Exception {
        ClassNode type = woven(fixture);
        boolean isInterface = (type.access & ACC_INTERFACE) != 0;
        List<MethodNode> twins = twins(type);
        assertFalse(twins.isEmpty(), fixture + " has twins");
        for (MethodNode twin : twins) {
            if (isTwinOfABridge(type, twin)) {
                continue; // passes the call on, and saves nothing (BridgeWeavingTest)
            }
            List<String> calls = new ArrayList<>(); // the descriptors of the calls linked, or made of own twins directly
            List<String> resumed = new ArrayList<>();
            int endFrames = 0;
            for (AbstractInsnNode insn : twin.instructions) {
                if (insn instanceof InvokeDynamicInsnNode call && call.bsm.getOwner().equals(WeavingContract.LINKER_CLASS)) {
                    calls.add(call.desc);
                } else if (insn instanceof MethodInsnNode call && call.owner.equals(type.name)
                        && call.name.endsWith(WeavingContract.TWIN_SUFFIX)) {
                    calls.add(call.desc);
                } else if (isFiberCall(insn, WeavingContract.END_FRAME_METHOD)) {
                    endFrames++;
                    Handle self = handleBefore(insn);
                    String where = type.name + "." + twin.name;
                    assertEquals(type.name, self.getOwner(), where);
                    assertEquals(twin.name, self.getName(), where);
                    assertEquals(twin.desc, self.getDesc(), where);
                    assertEquals((twin.access & ACC_STATIC) != 0 ? H_INVOKESTATIC : H_INVOKESPECIAL, self.getTag(), where);
                    assertEquals(isInterface, self.isInterface(), where);
                } else if (insn instanceof MethodInsnNode m && m.owner.equals(WeavingContract.FIBER_CLASS)
                        && m.name.startsWith(WeavingContract.RESUMED_PREFIX)) {
                    resumed.add(m.name);
                }
                assertFalse(isFiberCall(insn, "isRewinding"), "no twin rewinds its callees any more");
            }
            assertEquals(calls.size(), endFrames, twin.name + ": one frame end per linked call");
            List<String> kinds = calls.stream().map(desc -> resumedName(Type.getReturnType(desc))).toList();
            assertEquals(kinds, resumed, twin.name + ": the result taken at each site is of the call's kind");
            boolean testsResuming = false;
            for (AbstractInsnNode insn : twin.instructions) {
                testsResuming |= isFiberCall(insn, WeavingContract.RESUMING_METHOD);
            }
            assertEquals(!calls.isEmpty(), testsResuming, twin.name + ": its prologue tests whether it is resumed");
        }
    }

    /**
     * A site whose frame has nothing left to do but return the call's result, outside every
     * handler and in a method that is not synchronized, ends its frame with its site id marked
     * {@code TAIL_SITE}; every other site with its bare site id.
     */
    @Test
    void onlyTailCallsEndTheirFramesWithTheTailMark() throws Exception {
        ClassNode type = woven("TailCalls");
        int tails = 0;
        for (MethodNode twin : twins(type)) {
            boolean expected = twin.name.startsWith("tail");
            List<Integer> siteIds = new ArrayList<>();
            for (AbstractInsnNode insn : twin.instructions) {
                if (isFiberCall(insn, WeavingContract.END_FRAME_METHOD)) {
                    siteIds.add(intBefore(insn));
                }
            }
            for (int id : siteIds) {
                boolean marked = (id & WeavingContract.TAIL_SITE) != 0;
                assertEquals(expected, marked, twin.name + ": site " + (id & ~WeavingContract.TAIL_SITE));
                tails += marked ? 1 : 0;
            }
            assertFalse(siteIds.isEmpty(), twin.name + " has sites");
        }
        assertEquals(6, tails, "the tail calls of " + type.name + " (both of tailRecursesWithALong's, one jumping to the return)");
    }

    private static int intBefore(AbstractInsnNode endFrame) {
        AbstractInsnNode insn = endFrame.getPrevious();
        if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof Integer value) {
            return value;
        }
        if (insn instanceof IntInsnNode push) {
            return push.operand;
        }
        if (insn.getOpcode() >= ICONST_0 && insn.getOpcode() <= ICONST_5) {
            return insn.getOpcode() - ICONST_0;
        }
        throw new AssertionError("no site id right before endFrame");
    }

    /** Whether {@code twin} is the twin of a bridge method of {@code type}, which the weaver passes through. */
    private static boolean isTwinOfABridge(ClassNode type, MethodNode twin) {
        String name = twin.name.substring(0, twin.name.length() - WeavingContract.TWIN_SUFFIX.length());
        Type[] arguments = Type.getArgumentTypes(twin.desc);
        String desc = Type.getMethodDescriptor(Type.getReturnType(twin.desc), java.util.Arrays.copyOf(arguments, arguments.length - 1));
        return type.methods.stream().anyMatch(m -> m.name.equals(name) && m.desc.equals(desc) && (m.access & ACC_BRIDGE) != 0);
    }

    private static Handle handleBefore(AbstractInsnNode endFrame) {
        for (AbstractInsnNode insn = endFrame.getPrevious(); insn != null; insn = insn.getPrevious()) {
            if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof Handle handle) {
                return handle;
            }
        }
        throw new AssertionError("no handle constant before endFrame");
    }

    private static String resumedName(Type result) {
        return switch (result.getSort()) {
            case Type.VOID -> WeavingContract.RESUMED_VOID_METHOD;
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> WeavingContract.RESUMED_PREFIX + "Int";
            case Type.FLOAT -> WeavingContract.RESUMED_PREFIX + "Float";
            case Type.LONG -> WeavingContract.RESUMED_PREFIX + "Long";
            case Type.DOUBLE -> WeavingContract.RESUMED_PREFIX + "Double";
            default -> WeavingContract.RESUMED_PREFIX + "Object";
        };
    }
}
