package dev.weft.weaver.analysis;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The bytecode index, in the class file as compiled, of every call instruction of a class:
 * what frames record as {@code bci}, stable however the method is woven. Found by writing the
 * untouched class again with a label before each call: with the original constant pool copied,
 * ASM encodes every instruction as javac did, so the labels land on the original offsets.
 */
public final class OriginalOffsets {

    private OriginalOffsets() {
    }

    /** Offsets of the calls of {@code classNode}, which must be {@code reader}'s class, untouched. */
    public static Map<AbstractInsnNode, Integer> of(ClassReader reader, ClassNode classNode) {
        Map<MethodInsnNode, LabelNode> labels = new HashMap<>();
        for (MethodNode method : classNode.methods) {
            for (AbstractInsnNode insn : method.instructions) {
                if (insn instanceof MethodInsnNode call) {
                    LabelNode label = new LabelNode();
                    method.instructions.insertBefore(call, label);
                    labels.put(call, label);
                }
            }
        }
        classNode.accept(new ClassWriter(reader, 0));
        Map<AbstractInsnNode, Integer> offsets = new HashMap<>();
        labels.forEach((call, label) -> {
            offsets.put(call, label.getLabel().getOffset());
        });
        return offsets;
    }
}
