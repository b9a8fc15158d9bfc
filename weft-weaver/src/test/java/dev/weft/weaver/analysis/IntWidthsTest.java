package dev.weft.weaver.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.junit.jupiter.api.Test;

/** The widths of int slots: from where the JVM guarantees them, joined where paths meet. */
class IntWidthsTest implements Opcodes {

    /**
     * {@code static void m(boolean flag, char c, int n)}: local 3 is {@code flag ? 1 : 0}, local
     * 4 is {@code flag ? c : 200}, local 5 is {@code n + 1}; then a call.
     */
    private static MethodNode method() {
        MethodNode m = new MethodNode(ACC_STATIC, "m", "(ZCI)V", null, null);
        LabelNode otherwise = new LabelNode(new Label());
        LabelNode join = new LabelNode(new Label());
        m.instructions.add(new VarInsnNode(ILOAD, 0));
        m.instructions.add(new JumpInsnNode(IFEQ, otherwise));
        m.instructions.add(new InsnNode(ICONST_1));
        m.instructions.add(new VarInsnNode(ISTORE, 3));
        m.instructions.add(new VarInsnNode(ILOAD, 1));
        m.instructions.add(new VarInsnNode(ISTORE, 4));
        m.instructions.add(new JumpInsnNode(GOTO, join));
        m.instructions.add(otherwise);
        m.instructions.add(new InsnNode(ICONST_0));
        m.instructions.add(new VarInsnNode(ISTORE, 3));
        m.instructions.add(new IntInsnNode(SIPUSH, 200));
        m.instructions.add(new VarInsnNode(ISTORE, 4));
        m.instructions.add(join);
        m.instructions.add(new VarInsnNode(ILOAD, 2));
        m.instructions.add(new InsnNode(ICONST_1));
        m.instructions.add(new InsnNode(IADD));
        m.instructions.add(new VarInsnNode(ISTORE, 5));
        m.instructions.add(new MethodInsnNode(INVOKESTATIC, "p/Q", "call", "()V", false));
        m.instructions.add(new InsnNode(RETURN));
        m.maxLocals = 6;
        m.maxStack = 2;
        return m;
    }

    @Test
    void eachIntSlotHasTheNarrowestWidthThatHoldsEveryValueItCanHave() {
        MethodNode m = method();
        IntWidths widths = IntWidths.compute("p/Q", m);
        int call = m.instructions.indexOf(m.instructions.getLast().getPrevious());
        assertEquals("Z", widths.local(call, 0, SlotType.INT).code(), "a boolean parameter");
        assertEquals("C", widths.local(call, 1, SlotType.INT).code(), "a char parameter");
        assertEquals("I", widths.local(call, 2, SlotType.INT).code(), "an int parameter");
        assertEquals("Z", widths.local(call, 3, SlotType.INT).code(), "1 or 0");
        assertEquals("C", widths.local(call, 4, SlotType.INT).code(), "a char or 200");
        assertEquals("I", widths.local(call, 5, SlotType.INT).code(), "computed");
        assertEquals(SlotType.FLOAT, widths.local(call, 0, SlotType.FLOAT), "only ints are narrowed");
    }
}
