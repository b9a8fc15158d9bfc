package dev.weft.weaver.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.junit.jupiter.api.Test;

/** The fingerprint covers everything that defines what a method does. */
class MethodHashTest implements Opcodes {

    private static final Handle METAFACTORY = new Handle(H_INVOKESTATIC, "java/lang/invoke/LambdaMetafactory",
            "metafactory", "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
            + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)"
            + "Ljava/lang/invoke/CallSite;", false);

    /** {@code Supplier<Integer> s = this::implementation; return s;}, as javac compiles it. */
    private static MethodNode reference(String implementation, int access) {
        MethodNode m = new MethodNode(access, "price", "()Ljava/util/function/Supplier;", null, null);
        Handle impl = new Handle(H_INVOKEVIRTUAL, "shop/Till", implementation, "()Ljava/lang/Integer;", false);
        m.instructions.add(new org.objectweb.asm.tree.VarInsnNode(ALOAD, 0));
        m.instructions.add(new InvokeDynamicInsnNode("get", "(Lshop/Till;)Ljava/util/function/Supplier;", METAFACTORY,
                Type.getType("()Ljava/lang/Object;"), impl, Type.getType("()Ljava/lang/Integer;")));
        m.instructions.add(new InsnNode(ARETURN));
        return m;
    }

    @Test
    void aMethodReferenceChangedToAnotherMethodChangesTheFingerprint() {
        assertEquals(MethodHash.of(reference("cents", ACC_PUBLIC)), MethodHash.of(reference("cents", ACC_PUBLIC)));
        assertNotEquals(MethodHash.of(reference("cents", ACC_PUBLIC)), MethodHash.of(reference("euros", ACC_PUBLIC)));
    }

    @Test
    void becomingSynchronizedChangesTheFingerprint() {
        assertNotEquals(MethodHash.of(reference("cents", ACC_PUBLIC)),
                MethodHash.of(reference("cents", ACC_PUBLIC | ACC_SYNCHRONIZED)));
        assertEquals(MethodHash.of(reference("cents", ACC_PUBLIC)), MethodHash.of(reference("cents", ACC_PRIVATE)),
                "visibility does not change what it does");
    }
}
