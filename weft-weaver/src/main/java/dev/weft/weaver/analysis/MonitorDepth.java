package dev.weft.weaver.analysis;

import java.util.ArrayDeque;
import java.util.Deque;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * How many monitors a method may hold before each instruction (the greatest count over all
 * paths), counting the method's own monitor if it is {@code synchronized}.
 */
public final class MonitorDepth implements Opcodes {

    private static final int LIMIT = 255;

    private final int[] depth;

    private MonitorDepth(int[] depth) {
        this.depth = depth;
    }

    public int before(int index) {
        return Math.max(depth[index], 0);
    }

    public static MonitorDepth compute(MethodNode method) {
        InsnList insns = method.instructions;
        int[] depth = new int[insns.size()];
        java.util.Arrays.fill(depth, -1);
        Deque<Integer> work = new ArrayDeque<>();
        if (insns.size() > 0) {
            reach(depth, work, 0, (method.access & ACC_SYNCHRONIZED) != 0 ? 1 : 0);
        }
        while (!work.isEmpty()) {
            int i = work.pop();
            AbstractInsnNode insn = insns.get(i);
            int after = depth[i] + (insn.getOpcode() == MONITORENTER ? 1 : insn.getOpcode() == MONITOREXIT ? -1 : 0);
            for (int next : successors(insns, i)) {
                reach(depth, work, next, after);
            }
            for (TryCatchBlockNode handler : method.tryCatchBlocks) {
                if (Instructions.covers(handler, insns, i)) {
                    reach(depth, work, insns.indexOf(handler.handler), depth[i]);
                    if (handler.type == null) {
                        break; // catches everything thrown here: the handlers after it never see it
                    }
                }
            }
        }
        return new MonitorDepth(depth);
    }

    private static void reach(int[] depth, Deque<Integer> work, int index, int value) {
        int bounded = Math.min(Math.max(value, 0), LIMIT);
        if (bounded > depth[index]) {
            depth[index] = bounded;
            work.push(index);
        }
    }

    private static int[] successors(InsnList insns, int i) {
        AbstractInsnNode insn = insns.get(i);
        int opcode = insn.getOpcode();
        if (insn instanceof JumpInsnNode jump) {
            int target = insns.indexOf(jump.label);
            return opcode == GOTO ? new int[] {target} : new int[] {target, i + 1};
        } else if (insn instanceof TableSwitchInsnNode table) {
            return java.util.stream.Stream.concat(java.util.stream.Stream.of(table.dflt), table.labels.stream())
                    .mapToInt(insns::indexOf).toArray();
        } else if (insn instanceof LookupSwitchInsnNode lookup) {
            return java.util.stream.Stream.concat(java.util.stream.Stream.of(lookup.dflt), lookup.labels.stream())
                    .mapToInt(insns::indexOf).toArray();
        } else if (opcode == ATHROW || opcode == RET || (opcode >= IRETURN && opcode <= RETURN)) {
            return new int[0];
        }
        return i + 1 < insns.size() ? new int[] {i + 1} : new int[0];
    }
}
