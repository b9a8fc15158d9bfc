package dev.weft.weaver.analysis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * A fingerprint of a method's original code: a SHA-256 over everything that defines what it
 * does (its name, descriptor, the access flags that change its behaviour, its instructions with
 * every operand, {@code invokedynamic} bootstrap methods and their arguments included, and its
 * handlers), 16 hex digits of it. Frames captured from one version of a method are refused by
 * another: {@code this::cents} changed to {@code this::euros} changes only a bootstrap argument.
 */
public final class MethodHash {

    /** The access flags that change what a method does: static, synchronized, strictfp. */
    private static final int BEHAVIOUR_FLAGS = org.objectweb.asm.Opcodes.ACC_STATIC
            | org.objectweb.asm.Opcodes.ACC_SYNCHRONIZED | org.objectweb.asm.Opcodes.ACC_STRICT;

    private MethodHash() {
    }

    public static String of(MethodNode method) {
        StringBuilder text = new StringBuilder(method.name).append(method.desc).append(' ')
                .append(method.access & BEHAVIOUR_FLAGS).append('\n');
        InsnList insns = method.instructions;
        for (int i = 0; i < insns.size(); i++) {
            AbstractInsnNode insn = insns.get(i);
            if (insn.getOpcode() >= 0) {
                text.append(insn.getOpcode()).append(' ').append(operands(insns, insn)).append('\n');
            }
        }
        for (TryCatchBlockNode handler : method.tryCatchBlocks) {
            text.append("try ").append(position(insns, handler.start)).append(' ').append(position(insns, handler.end))
                    .append(' ').append(position(insns, handler.handler)).append(' ').append(handler.type).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static String operands(InsnList insns, AbstractInsnNode insn) {
        if (insn instanceof VarInsnNode v) {
            return String.valueOf(v.var);
        }
        if (insn instanceof IntInsnNode n) {
            return String.valueOf(n.operand);
        }
        if (insn instanceof IincInsnNode n) {
            return n.var + " " + n.incr;
        }
        if (insn instanceof LdcInsnNode n) {
            return n.cst.getClass().getSimpleName() + ":" + n.cst;
        }
        if (insn instanceof TypeInsnNode n) {
            return n.desc;
        }
        if (insn instanceof FieldInsnNode n) {
            return n.owner + "." + n.name + ":" + n.desc;
        }
        if (insn instanceof MethodInsnNode n) {
            return n.owner + "." + n.name + n.desc;
        }
        if (insn instanceof InvokeDynamicInsnNode n) {
            return n.name + n.desc + " " + n.bsm + " " + java.util.Arrays.deepToString(n.bsmArgs);
        }
        if (insn instanceof MultiANewArrayInsnNode n) {
            return n.desc + " " + n.dims;
        }
        if (insn instanceof JumpInsnNode n) {
            return String.valueOf(position(insns, n.label));
        }
        if (insn instanceof TableSwitchInsnNode n) {
            return n.min + ".." + n.max + " " + position(insns, n.dflt) + " "
                    + n.labels.stream().map(l -> String.valueOf(position(insns, l))).toList();
        }
        if (insn instanceof LookupSwitchInsnNode n) {
            return n.keys + " " + position(insns, n.dflt) + " "
                    + n.labels.stream().map(l -> String.valueOf(position(insns, l))).toList();
        }
        return "";
    }

    /** The number of real instructions before {@code node}: stable whatever labels and frames are around. */
    private static int position(InsnList insns, AbstractInsnNode node) {
        int count = 0;
        for (AbstractInsnNode n = node.getPrevious(); n != null; n = n.getPrevious()) {
            if (n.getOpcode() >= 0) {
                count++;
            }
        }
        return count;
    }
}
