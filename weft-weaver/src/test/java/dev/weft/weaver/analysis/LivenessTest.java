package dev.weft.weaver.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.BasicVerifier;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * {@link Liveness} on small static methods built with ASM's tree API: the exact set of live
 * locals before each marked call ({@code invokestatic T.name()V}). Every method is checked with
 * ASM's {@link BasicVerifier} first, so that no expectation rests on code the JVM would refuse.
 */
class LivenessTest implements Opcodes {

    private static final String OWNER = "T";
    /** More slots than any method here uses: a slot past the last one must read as dead. */
    private static final int SLOTS = 12;

    @Test
    void aLocalReadAfterTheCallIsLiveAndOneNeverReadAgainIsDead() {
        MethodNode m = method("(III)I");
        m.visitVarInsn(ILOAD, 0);
        m.visitVarInsn(ILOAD, 1);
        m.visitInsn(IADD);
        m.visitVarInsn(ISTORE, 3);
        call(m, "a");
        m.visitVarInsn(ILOAD, 3);
        m.visitVarInsn(ILOAD, 2);
        m.visitInsn(IADD);
        m.visitInsn(IRETURN);

        Liveness liveness = compute(m);
        assertEquals(Set.of(0, 1, 2), liveAt(liveness, 0), "before the first instruction: every parameter the method reads");
        assertEquals(Set.of(2, 3), liveAt(m, liveness, "a"), "parameters 0 and 1 are not read after the call");
    }

    @Test
    void aLocalOverwrittenBeforeItIsReadIsDead() {
        MethodNode m = method("(I)I");
        m.visitVarInsn(ILOAD, 0);
        m.visitVarInsn(ISTORE, 1);
        call(m, "a");
        m.visitInsn(ICONST_5);
        m.visitVarInsn(ISTORE, 1);
        call(m, "b");
        m.visitVarInsn(ILOAD, 1);
        m.visitVarInsn(ILOAD, 0);
        m.visitInsn(IADD);
        m.visitInsn(IRETURN);

        Liveness liveness = compute(m);
        assertEquals(Set.of(0), liveAt(m, liveness, "a"), "local 1 is written again before any read");
        assertEquals(Set.of(0, 1), liveAt(m, liveness, "b"));
    }

    @Test
    void iincReadsItsLocalAndAValueNoOneReadsAfterItIsDead() {
        MethodNode m = method("()I");
        m.visitInsn(ICONST_0);
        m.visitVarInsn(ISTORE, 0);
        call(m, "a");
        m.visitIincInsn(0, 1);
        call(m, "b");
        m.visitInsn(ICONST_0);
        m.visitInsn(IRETURN);

        Liveness liveness = compute(m);
        assertEquals(Set.of(0), liveAt(m, liveness, "a"), "iinc reads the local it increments");
        assertEquals(Set.of(), liveAt(m, liveness, "b"), "nothing reads what iinc wrote");
    }

    /**
     * A long or double is live by its first slot only: the second slot of the pair is never
     * reported live (the analysis takes the type of a pair from its first slot, where the second
     * is TOP). A two-slot store kills the pair, so a double written before it is read is dead.
     */
    @Test
    void aLongOrDoubleIsLiveByItsFirstSlotAndDeadWhenOverwrittenBeforeItIsRead() {
        MethodNode m = method("(JD)J"); // long in 0-1, double in 2-3
        m.visitVarInsn(LLOAD, 0);
        m.visitVarInsn(LSTORE, 4);
        call(m, "a");
        m.visitVarInsn(DLOAD, 2);
        m.visitInsn(D2L);
        m.visitVarInsn(LLOAD, 4);
        m.visitInsn(LADD);
        m.visitVarInsn(LSTORE, 6);
        call(m, "b");
        m.visitInsn(DCONST_1);
        m.visitVarInsn(DSTORE, 2);
        call(m, "c");
        m.visitVarInsn(DLOAD, 2);
        m.visitInsn(D2L);
        m.visitVarInsn(LLOAD, 6);
        m.visitInsn(LADD);
        m.visitInsn(LRETURN);

        Liveness liveness = compute(m);
        assertEquals(Set.of(0, 2), liveAt(liveness, 0), "both parameters, each by its first slot");
        assertEquals(Set.of(2, 4), liveAt(m, liveness, "a"), "the double parameter and the long copy; the long parameter is not read again");
        assertEquals(Set.of(6), liveAt(m, liveness, "b"), "the double parameter is overwritten by dstore before dload reads it");
        assertEquals(Set.of(2, 6), liveAt(m, liveness, "c"));
    }

    /**
     * A local that only a handler reads is live throughout the code the handler covers, and
     * dead outside it; a local the protected code rewrites stays live, holding its new value.
     */
    @Test
    void aLocalReadOnlyByAHandlerIsLiveInsideTheTryAndDeadAfterIt() {
        MethodNode m = method("(I)I");
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        m.visitTryCatchBlock(start, end, handler, "java/lang/RuntimeException");
        m.visitInsn(ICONST_0);
        m.visitVarInsn(ISTORE, 1);
        m.visitLabel(start);
        call(m, "a");
        m.visitInsn(ICONST_1);
        m.visitVarInsn(ISTORE, 1);
        call(m, "b");
        m.visitLabel(end);
        call(m, "c");
        m.visitVarInsn(ILOAD, 0);
        m.visitInsn(IRETURN);
        m.visitLabel(handler);
        m.visitVarInsn(ASTORE, 2);
        m.visitVarInsn(ILOAD, 1);
        m.visitInsn(IRETURN);

        Liveness liveness = compute(m);
        assertEquals(Set.of(0, 1), liveAt(m, liveness, "a"), "if a throws, the handler reads local 1");
        assertEquals(Set.of(0, 1), liveAt(m, liveness, "b"), "if b throws, the handler reads local 1");
        assertEquals(Set.of(0), liveAt(m, liveness, "c"), "no handler covers c, and nothing else reads local 1");
    }

    /** A local read only at the head of a loop is live at a call later in the body, by the back edge. */
    @Test
    void theBackEdgeOfALoopKeepsALocalLive() {
        MethodNode m = method("(I)I"); // 0: limit
        Label loop = new Label();
        Label end = new Label();
        m.visitInsn(ICONST_0);
        m.visitVarInsn(ISTORE, 1); // i
        m.visitInsn(ICONST_0);
        m.visitVarInsn(ISTORE, 2); // sum
        m.visitLabel(loop);
        m.visitVarInsn(ILOAD, 1);
        m.visitVarInsn(ILOAD, 0);
        m.visitJumpInsn(IF_ICMPGE, end);
        call(m, "a");
        m.visitInsn(ICONST_3);
        m.visitVarInsn(ISTORE, 3); // written before it is read, in every round
        m.visitVarInsn(ILOAD, 2);
        m.visitVarInsn(ILOAD, 3);
        m.visitInsn(IADD);
        m.visitVarInsn(ILOAD, 1);
        m.visitInsn(IADD);
        m.visitVarInsn(ISTORE, 2);
        m.visitIincInsn(1, 1);
        m.visitJumpInsn(GOTO, loop);
        m.visitLabel(end);
        call(m, "b");
        m.visitVarInsn(ILOAD, 2);
        m.visitInsn(IRETURN);

        Liveness liveness = compute(m);
        assertEquals(Set.of(0, 1, 2), liveAt(m, liveness, "a"), "the limit is read only at the loop's head");
        assertEquals(Set.of(2), liveAt(m, liveness, "b"));
    }

    @Test
    void aLocalReadInOneCaseOfASwitchIsLiveBeforeTheSwitch() {
        MethodNode m = method("(IIII)I");
        Label one = new Label();
        Label two = new Label();
        Label otherwise = new Label();
        Label lookup = new Label();
        Label far = new Label();
        call(m, "a");
        m.visitVarInsn(ILOAD, 0);
        m.visitTableSwitchInsn(1, 2, otherwise, one, two);
        m.visitLabel(one);
        m.visitVarInsn(ILOAD, 1);
        m.visitInsn(IRETURN);
        m.visitLabel(two);
        m.visitVarInsn(ILOAD, 2);
        m.visitInsn(IRETURN);
        m.visitLabel(otherwise);
        call(m, "b");
        m.visitVarInsn(ILOAD, 0);
        m.visitLookupSwitchInsn(lookup, new int[] {1000}, new Label[] {far});
        m.visitLabel(far);
        m.visitVarInsn(ILOAD, 3);
        m.visitInsn(IRETURN);
        m.visitLabel(lookup);
        m.visitInsn(ICONST_0);
        m.visitInsn(IRETURN);

        Liveness liveness = compute(m);
        assertEquals(Set.of(0, 1, 2, 3), liveAt(m, liveness, "a"), "each case of the tableswitch, and the default");
        assertEquals(Set.of(0, 3), liveAt(m, liveness, "b"), "the one case of the lookupswitch");
    }

    /** A method without calls still has an answer before every instruction. */
    @Test
    void beforeEachInstructionOfAMethodWithoutCalls() {
        MethodNode m = method("(II)I");
        m.visitVarInsn(ILOAD, 0);
        m.visitVarInsn(ILOAD, 1);
        m.visitInsn(IADD);
        m.visitInsn(IRETURN);

        Liveness liveness = compute(m);
        List<Set<Integer>> expected = List.of(Set.of(0, 1), Set.of(1), Set.of(), Set.of());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), liveAt(liveness, i), "before instruction " + i);
        }
    }

    @Test
    void aMethodWithoutInstructionsIsAnalysedWithoutFailing() {
        MethodNode m = new MethodNode(ACC_ABSTRACT, "m", "(I)V", null, null);
        assertEquals(0, m.instructions.size());
        assertNotNull(Liveness.compute(m));
    }

    /** A read in unreachable code (ASM's frame is null there) makes nothing live in the code that runs. */
    @Test
    void unreachableCodeDoesNotMakeALocalLiveWhereTheMethodRuns() {
        MethodNode m = method("(II)I");
        Label exit = new Label();
        call(m, "a");
        m.visitLabel(exit);
        m.visitVarInsn(ILOAD, 0);
        m.visitInsn(IRETURN);
        m.visitVarInsn(ILOAD, 1); // unreachable, and jumps back into reachable code
        m.visitInsn(POP);
        m.visitJumpInsn(GOTO, exit);

        Frame<BasicValue>[] frames = verify(m);
        int unreachable = m.instructions.size() - 3;
        assertEquals(ILOAD, m.instructions.get(unreachable).getOpcode());
        assertNull(frames[unreachable], "ASM's frame of unreachable code");
        Liveness liveness = compute(m);
        assertEquals(Set.of(0), liveAt(m, liveness, "a"), "only unreachable code reads local 1");
        assertEquals(Set.of(0, 1), liveAt(liveness, unreachable), "the unreachable code itself is analysed as any other");
    }

    // ------------------------------------------------------------ helpers

    /** A static method of {@code OWNER} with {@code descriptor}, to be filled by visiting it. */
    private static MethodNode method(String descriptor) {
        return new MethodNode(ACC_STATIC, "m", descriptor, null, null);
    }

    /** The marked call {@code name}: {@code invokestatic T.name()V}, which leaves the frame as it is. */
    private static void call(MethodNode m, String name) {
        m.visitMethodInsn(INVOKESTATIC, OWNER, name, "()V", false);
    }

    /** Checks {@code m} with ASM's BasicVerifier, then computes its liveness. */
    private static Liveness compute(MethodNode m) {
        verify(m);
        return Liveness.compute(m);
    }

    private static Frame<BasicValue>[] verify(MethodNode m) {
        m.maxStack = 8;
        m.maxLocals = SLOTS;
        try {
            return new Analyzer<>(new BasicVerifier()).analyze(OWNER, m);
        } catch (AnalyzerException e) {
            throw new AssertionError("the test's method does not verify", e);
        }
    }

    private static Set<Integer> liveAt(MethodNode m, Liveness liveness, String call) {
        return liveAt(liveness, indexOfCall(m, call));
    }

    /** The slots live before the instruction at {@code index}. */
    private static Set<Integer> liveAt(Liveness liveness, int index) {
        Set<Integer> live = new TreeSet<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            if (liveness.isLive(index, slot)) {
                live.add(slot);
            }
        }
        return live;
    }

    private static int indexOfCall(MethodNode m, String name) {
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < m.instructions.size(); i++) {
            AbstractInsnNode insn = m.instructions.get(i);
            if (insn instanceof MethodInsnNode call && call.name.equals(name)) {
                found.add(i);
            }
        }
        assertEquals(1, found.size(), "calls of " + name);
        return found.get(0);
    }
}
