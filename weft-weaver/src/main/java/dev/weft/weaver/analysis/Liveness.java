package dev.weft.weaver.analysis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Which local variables are live (may be read before they are written) before each
 * instruction: a backward dataflow over the method's control flow, exception edges included,
 * so that a local a handler reads is live throughout the code the handler covers. Dead slots
 * need not be saved at a suspension site (Kilim's observation).
 *
 * <p>The method must have no {@code jsr}/{@code ret} subroutines ({@code SubroutineInlining}
 * removes them first, and {@code SuspensionSites} refuses a method it could not inline): here a
 * {@code jsr} leads only into its subroutine and a {@code ret} ends its path, so a local read
 * only after a subroutine returns would count as dead before its {@code jsr}.
 */
public final class Liveness implements Opcodes {

    private final BitSet[] liveIn;

    private Liveness(BitSet[] liveIn) {
        this.liveIn = liveIn;
    }

    /** Whether local {@code slot} is live before the instruction at {@code index}. */
    public boolean isLive(int index, int slot) {
        return liveIn[index].get(slot);
    }

    public static Liveness compute(MethodNode method) {
        InsnList insns = method.instructions;
        int n = insns.size();
        List<List<Integer>> successors = successors(method);
        BitSet[] liveIn = new BitSet[n];
        for (int i = 0; i < n; i++) {
            liveIn[i] = new BitSet(method.maxLocals);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = n - 1; i >= 0; i--) {
                BitSet in = transfer(insns.get(i), liveOut(successors.get(i), liveIn));
                if (!in.equals(liveIn[i])) {
                    liveIn[i] = in;
                    changed = true;
                }
            }
        }
        return new Liveness(liveIn);
    }

    private static BitSet liveOut(List<Integer> successors, BitSet[] liveIn) {
        BitSet out = new BitSet();
        for (int s : successors) {
            out.or(liveIn[s]);
        }
        return out;
    }

    /** Live-in from live-out: what the instruction reads, plus what it does not overwrite. */
    private static BitSet transfer(AbstractInsnNode insn, BitSet out) {
        BitSet in = (BitSet) out.clone();
        if (insn instanceof VarInsnNode v) {
            switch (v.getOpcode()) {
                case ISTORE, FSTORE, ASTORE -> in.clear(v.var);
                case LSTORE, DSTORE -> in.clear(v.var, v.var + 2);
                default -> in.set(v.var); // loads, and ret reads its address
            }
        } else if (insn instanceof IincInsnNode iinc) {
            in.set(iinc.var);
        }
        return in;
    }

    /** For each instruction, the indexes of the instructions control may reach next, handlers included. */
    private static List<List<Integer>> successors(MethodNode method) {
        InsnList insns = method.instructions;
        List<List<Integer>> successors = new ArrayList<>();
        for (int i = 0; i < insns.size(); i++) {
            successors.add(new ArrayList<>(normalSuccessors(insns, i)));
        }
        for (TryCatchBlockNode handler : method.tryCatchBlocks) {
            int start = insns.indexOf(handler.start);
            int end = insns.indexOf(handler.end);
            int target = insns.indexOf(handler.handler);
            for (int i = start; i < end; i++) {
                successors.get(i).add(target);
            }
        }
        return successors;
    }

    private static List<Integer> normalSuccessors(InsnList insns, int i) {
        AbstractInsnNode insn = insns.get(i);
        List<Integer> next = new ArrayList<>();
        int opcode = insn.getOpcode();
        if (insn instanceof JumpInsnNode jump) {
            next.add(insns.indexOf(jump.label));
            if (opcode == GOTO || opcode == JSR) {
                return next;
            }
        } else if (insn instanceof TableSwitchInsnNode table) {
            next.add(insns.indexOf(table.dflt));
            table.labels.forEach(l -> next.add(insns.indexOf(l)));
            return next;
        } else if (insn instanceof LookupSwitchInsnNode lookup) {
            next.add(insns.indexOf(lookup.dflt));
            lookup.labels.forEach(l -> next.add(insns.indexOf(l)));
            return next;
        } else if (opcode == ATHROW || opcode == RET || (opcode >= IRETURN && opcode <= RETURN)) {
            return next;
        }
        if (i + 1 < insns.size()) {
            next.add(i + 1);
        }
        return next;
    }

}
