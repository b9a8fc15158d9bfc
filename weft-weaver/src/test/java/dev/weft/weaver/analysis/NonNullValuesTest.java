package dev.weft.weaver.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Which references the weaver knows are never null at a call in progress: the local its
 * receiver came from in straight-line code, a lambda or a concatenated string; and the shapes
 * where it must not claim so.
 */
class NonNullValuesTest implements Opcodes {

    private static final String OWNER = "fixture/Owner";
    private static final String STEP = "fixture/Step";

    /** {@code void m(Step step, int flag)} of {@code OWNER}, its code to be added. */
    private static MethodNode method() {
        MethodNode m = new MethodNode(ACC_PUBLIC, "m", "(L" + STEP + ";I)V", null, null);
        m.maxLocals = 3;
        m.maxStack = 4;
        return m;
    }

    private static MethodInsnNode apply() {
        return new MethodInsnNode(INVOKEINTERFACE, STEP, "apply", "(Ljava/lang/Object;)V", true);
    }

    private static int indexOf(MethodNode m, MethodInsnNode call) {
        return m.instructions.indexOf(call);
    }

    @Test
    void theLocalACallsReceiverCameFromInStraightLineCodeIsNeverNull() {
        MethodNode m = method();
        MethodInsnNode call = apply();
        m.instructions.add(new VarInsnNode(ALOAD, 1));
        m.instructions.add(new VarInsnNode(ALOAD, 0));
        m.instructions.add(call);
        m.instructions.add(new InsnNode(RETURN));
        NonNullValues facts = NonNullValues.compute(OWNER, m);
        assertEquals(1, facts.receiverLocal(indexOf(m, call), 0));
        assertFalse(facts.local(indexOf(m, call), 1), "before the call, the step may still be null");
    }

    @Test
    void aStoreBetweenTheLoadAndTheCallLeavesTheLocalUnknown() {
        MethodNode m = method();
        MethodInsnNode call = apply();
        m.instructions.add(new VarInsnNode(ALOAD, 1));
        m.instructions.add(new InsnNode(ACONST_NULL));
        m.instructions.add(new VarInsnNode(ASTORE, 1));
        m.instructions.add(new VarInsnNode(ALOAD, 0));
        m.instructions.add(call);
        m.instructions.add(new InsnNode(RETURN));
        assertEquals(-1, NonNullValues.compute(OWNER, m).receiverLocal(indexOf(m, call), 0));
    }

    /** On the branch that stores null the local is null at the call, though the receiver is not. */
    @Test
    void aBranchBetweenTheLoadAndTheCallLeavesTheLocalUnknown() {
        MethodNode m = method();
        MethodInsnNode call = apply();
        LabelNode loop = new LabelNode();
        LabelNode join = new LabelNode();
        m.instructions.add(loop);
        m.instructions.add(new VarInsnNode(ALOAD, 1));
        m.instructions.add(new VarInsnNode(ILOAD, 2));
        m.instructions.add(new JumpInsnNode(IFEQ, join));
        m.instructions.add(new InsnNode(ACONST_NULL));
        m.instructions.add(new VarInsnNode(ASTORE, 1));
        m.instructions.add(join);
        m.instructions.add(new VarInsnNode(ALOAD, 0));
        m.instructions.add(call);
        m.instructions.add(new JumpInsnNode(GOTO, loop));
        assertEquals(-1, NonNullValues.compute(OWNER, m).receiverLocal(indexOf(m, call), 0));
    }

    @Test
    void aLongStoredOverTheLocalLeavesItUnknown() {
        MethodInsnNode call = apply();
        MethodNode m = method();
        m.maxLocals = 4;
        m.desc = "(JL" + STEP + ";)V"; // long in 1-2, step in 3
        m.instructions.add(new VarInsnNode(ALOAD, 3));
        m.instructions.add(new InsnNode(LCONST_0));
        m.instructions.add(new VarInsnNode(LSTORE, 2));
        m.instructions.add(new VarInsnNode(ALOAD, 0));
        m.instructions.add(call);
        m.instructions.add(new InsnNode(RETURN));
        assertEquals(-1, NonNullValues.compute(OWNER, m).receiverLocal(indexOf(m, call), 0));
    }

    @Test
    void aLambdaOrAConcatenatedStringIsNeverNullAnotherDynamicValueMayBe() {
        Handle metafactory = new Handle(H_INVOKESTATIC, "java/lang/invoke/LambdaMetafactory", "metafactory",
                "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
                        + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)"
                        + "Ljava/lang/invoke/CallSite;", false);
        Handle concat = new Handle(H_INVOKESTATIC, "java/lang/invoke/StringConcatFactory", "makeConcatWithConstants",
                "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;"
                        + "[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;", false);
        Handle other = new Handle(H_INVOKESTATIC, "fixture/Bootstraps", "anything",
                "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;)"
                        + "Ljava/lang/invoke/CallSite;", false);
        Type noArguments = Type.getType("()V");
        MethodNode m = method();
        m.maxLocals = 5;
        m.instructions.add(new InvokeDynamicInsnNode("apply", "()L" + STEP + ";", metafactory, noArguments,
                new Handle(H_INVOKESTATIC, OWNER, "lambda$0", "()V", false), noArguments));
        m.instructions.add(new VarInsnNode(ASTORE, 1));
        m.instructions.add(new VarInsnNode(ILOAD, 2));
        m.instructions.add(new InvokeDynamicInsnNode("makeConcatWithConstants", "(I)Ljava/lang/String;", concat, "n\u0001"));
        m.instructions.add(new VarInsnNode(ASTORE, 3));
        m.instructions.add(new InvokeDynamicInsnNode("make", "()Ljava/lang/Object;", other));
        m.instructions.add(new VarInsnNode(ASTORE, 4));
        MethodInsnNode call = new MethodInsnNode(INVOKEVIRTUAL, OWNER, "pause", "()V", false);
        m.instructions.add(new VarInsnNode(ALOAD, 0));
        m.instructions.add(call);
        m.instructions.add(new InsnNode(RETURN));
        NonNullValues facts = NonNullValues.compute(OWNER, m);
        int at = indexOf(m, call);
        assertTrue(facts.local(at, 1), "the lambda");
        assertTrue(facts.local(at, 3), "the concatenated string");
        assertFalse(facts.local(at, 4), "a value of another bootstrap");
        assertEquals(0, facts.receiverLocal(at, 0), "this, loaded just before");
    }
}
