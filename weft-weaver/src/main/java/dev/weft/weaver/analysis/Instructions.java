package dev.weft.weaver.analysis;

import org.objectweb.asm.tree.AbstractInsnNode;

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
}
