package dev.weft.weaver.analysis;

import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.TryCatchBlockNode;

/** Navigation among real instructions, past the labels, line numbers and frames between them. */
public final class Instructions {

    private Instructions() {
    }

    /** The first real instruction at or after {@code node}; null at the end. */
    public static AbstractInsnNode atOrAfter(AbstractInsnNode node) {
        AbstractInsnNode n = node;
        while (n != null && n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }

    /** The next real instruction after {@code node}; null at the end. */
    public static AbstractInsnNode next(AbstractInsnNode node) {
        return atOrAfter(node.getNext());
    }

    /** The real instruction before {@code node}; null at the start. */
    public static AbstractInsnNode previous(AbstractInsnNode node) {
        AbstractInsnNode n = node.getPrevious();
        while (n != null && n.getOpcode() < 0) {
            n = n.getPrevious();
        }
        return n;
    }

    /** Whether {@code block} of the method whose code is {@code insns} covers the instruction at {@code index}. */
    public static boolean covers(TryCatchBlockNode block, InsnList insns, int index) {
        return insns.indexOf(block.start) <= index && index < insns.indexOf(block.end);
    }
}
