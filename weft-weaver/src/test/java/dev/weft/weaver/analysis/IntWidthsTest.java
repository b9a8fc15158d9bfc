package dev.weft.weaver.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.junit.jupiter.api.Test;

/**
 * The widths of int slots: the type a LocalVariableTable declares, else from where the JVM
 * guarantees them and from constants (the intersection of the types that hold them), joined
 * where paths meet.
 */
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

    /**
     * {@code static void m()}: {@code boolean z = true; byte b = 100; char c = 'Z'; short s = 30000;
     * int i = 5;} (locals 0 to 4, from iconst_1, bipush, bipush, sipush, iconst_5), then 90 pushed
     * and a call; with a LocalVariableTable declaring the five locals if {@code table}.
     */
    private static MethodNode constants(boolean table) {
        MethodNode m = new MethodNode(ACC_STATIC, "m", "()V", null, null);
        LabelNode start = new LabelNode(new Label());
        LabelNode end = new LabelNode(new Label());
        m.instructions.add(new InsnNode(ICONST_1));
        m.instructions.add(new VarInsnNode(ISTORE, 0));
        m.instructions.add(new IntInsnNode(BIPUSH, 100));
        m.instructions.add(new VarInsnNode(ISTORE, 1));
        m.instructions.add(new IntInsnNode(BIPUSH, 'Z'));
        m.instructions.add(new VarInsnNode(ISTORE, 2));
        m.instructions.add(new IntInsnNode(SIPUSH, 30_000));
        m.instructions.add(new VarInsnNode(ISTORE, 3));
        m.instructions.add(new InsnNode(ICONST_5));
        m.instructions.add(new VarInsnNode(ISTORE, 4));
        m.instructions.add(start);
        m.instructions.add(new IntInsnNode(BIPUSH, 'Z'));
        m.instructions.add(new MethodInsnNode(INVOKESTATIC, "p/Q", "call", "()V", false));
        m.instructions.add(new InsnNode(POP));
        m.instructions.add(new InsnNode(RETURN));
        m.instructions.add(end);
        if (table) {
            String[] descriptors = {"Z", "B", "C", "S", "I"};
            for (int slot = 0; slot < descriptors.length; slot++) {
                m.localVariables.add(new LocalVariableNode("v" + slot, descriptors[slot], null, start, end, slot));
            }
        }
        m.maxLocals = 5;
        m.maxStack = 1;
        return m;
    }

    private static int callIn(MethodNode m) {
        for (int i = 0; i < m.instructions.size(); i++) {
            if (m.instructions.get(i) instanceof MethodInsnNode) {
                return i;
            }
        }
        throw new AssertionError("no call");
    }

    @Test
    void aLocalVariableTableGivesEachLocalItsDeclaredType() {
        MethodNode m = constants(true);
        IntWidths widths = IntWidths.compute("p/Q", m);
        int call = callIn(m);
        assertEquals("Z", widths.local(call, 0, SlotType.INT).code(), "boolean, from iconst_1");
        assertEquals("B", widths.local(call, 1, SlotType.INT).code(), "byte, from bipush 100");
        assertEquals("C", widths.local(call, 2, SlotType.INT).code(), "char, from bipush 90");
        assertEquals("S", widths.local(call, 3, SlotType.INT).code(), "short, from sipush 30000");
        assertEquals("I", widths.local(call, 4, SlotType.INT).code(), "int declared: never narrowed");
        assertEquals("b", widths.stack(call, 0, SlotType.INT).code(), "a stack slot has no table: 0 to 127");
    }

    @Test
    void withoutATableAConstantGetsWhatEveryTypeThatHoldsItShares() {
        MethodNode m = constants(false);
        IntWidths widths = IntWidths.compute("p/Q", m);
        int call = callIn(m);
        assertEquals("Z", widths.local(call, 0, SlotType.INT).code(), "1: every type holds it");
        assertEquals("b", widths.local(call, 1, SlotType.INT).code(), "100: a byte or a char, so 0 to 127");
        assertEquals("b", widths.local(call, 2, SlotType.INT).code(), "90: a byte or a char, so 0 to 127");
        assertEquals("s", widths.local(call, 3, SlotType.INT).code(), "30000: a short or a char, so 0 to 32767");
        assertEquals("b", widths.local(call, 4, SlotType.INT).code(), "5");
    }

    @Test
    void aTableThatDoesNotHoldWhatTheCodeGivesALocalIsNotBelieved() {
        MethodNode m = constants(true);
        m.localVariables.get(1).desc = "Z"; // 100 in a boolean
        m.localVariables.get(3).desc = "Ljava/lang/String;";
        IntWidths widths = IntWidths.compute("p/Q", m);
        int call = callIn(m);
        assertEquals("b", widths.local(call, 1, SlotType.INT).code());
        assertEquals("s", widths.local(call, 3, SlotType.INT).code());
        assertEquals("b", widths.local(6, 2, SlotType.INT).code(), "the char 'Z' before its range: as without a table");
        assertEquals("C", widths.local(call, 2, SlotType.INT).code(), "and in it");
    }

    @Test
    void constantsGetTheIntersectionOfTheTypesThatHoldThemAndJoinToTheNarrowestThatHoldsBoth() {
        assertEquals('B', IntWidths.Width.ofConstant(-1).code());
        assertEquals('S', IntWidths.Width.ofConstant(-200).code());
        assertEquals('C', IntWidths.Width.ofConstant(40_000).code());
        assertEquals('I', IntWidths.Width.ofConstant(70_000).code());
        assertEquals('B', IntWidths.Width.ofConstant(90).join(IntWidths.Width.ofConstant(-1)).code());
        assertEquals('s', IntWidths.Width.ofConstant(90).join(IntWidths.Width.ofConstant(200)).code());
        assertEquals('S', IntWidths.Width.ofConstant(-1).join(IntWidths.Width.ofConstant(200)).code());
        assertEquals('C', IntWidths.Width.ofConstant(200).join(IntWidths.Width.ofConstant(40_000)).code());
        assertEquals('I', IntWidths.Width.ofConstant(-1).join(IntWidths.Width.ofConstant(40_000)).code());
    }

    /** {@code static void m(boolean[] z, byte[] b)}: {@code boolean x = z[0]; byte y = b[0];}, then a call; no table. */
    @Test
    void baloadFromABooleanArrayIsABooleanAndFromAByteArrayAByte() throws Exception {
        MethodNode m = new MethodNode(ACC_STATIC, "m", "([Z[B)V", null, null);
        for (int array = 0; array < 2; array++) {
            m.instructions.add(new VarInsnNode(ALOAD, array));
            m.instructions.add(new InsnNode(ICONST_0));
            m.instructions.add(new InsnNode(BALOAD));
            m.instructions.add(new VarInsnNode(ISTORE, 2 + array));
        }
        m.instructions.add(new MethodInsnNode(INVOKESTATIC, "p/Q", "call", "()V", false));
        m.instructions.add(new InsnNode(RETURN));
        m.maxLocals = 4;
        m.maxStack = 2;
        FrameTypes types = FrameTypes.compute("p/Q", m, ClassHierarchy.of(IntWidthsTest.class.getClassLoader()));
        int call = callIn(m);
        IntWidths widths = IntWidths.compute("p/Q", m, types);
        assertEquals("Z", widths.local(call, 2, SlotType.INT).code(), "from a boolean[]");
        assertEquals("B", widths.local(call, 3, SlotType.INT).code(), "from a byte[]");
        assertEquals("B", IntWidths.compute("p/Q", m).local(call, 2, SlotType.INT).code(), "without the types: a byte");
    }
}
