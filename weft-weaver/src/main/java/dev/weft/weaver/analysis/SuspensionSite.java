package dev.weft.weaver.analysis;

import java.util.BitSet;
import java.util.List;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * A call at which a woven method may be suspended, with the frame it leaves behind while the
 * call is in progress.
 *
 * @param call the call instruction
 * @param bci its site id, which frames record: its bytecode index in the method as compiled,
 *        plus 65536 times its copy number for a further copy of a call in an inlined subroutine
 * @param locals the type of every local slot before the call
 * @param live which locals are read after the call (only those are saved)
 * @param stackBelow the operand stack under the call's receiver and arguments, bottom first
 * @param receiver the type of the call's receiver, or null for a static call
 * @param monitors how many monitors the method holds at the call
 * @param nonNull which slots of the table entry, locals then stack, hold a reference that is
 *        never null there ({@link NonNullValues}; the receiver always is)
 */
public record SuspensionSite(MethodInsnNode call, int bci, List<SlotType> locals, BitSet live,
        List<SlotType> stackBelow, SlotType receiver, int monitors, BitSet nonNull) {

    /** How many slots the saved operand stack takes: the stack below, then the receiver. */
    public int expressionSlots() {
        int slots = receiver == null ? 0 : 1;
        for (SlotType type : stackBelow) {
            slots += type.getSize();
        }
        return slots;
    }

    /**
     * This site's entry in the class's site table: {@code bci|target|locals|stack|monitors|opcode},
     * the type codes of the frame's slots, locals then stack, and the call's opcode.
     */
    public String tableEntry() {
        StringBuilder entry = new StringBuilder().append(bci).append('|').append(call.owner).append('.')
                .append(call.name).append(call.desc).append('|');
        appendLocals(entry);
        entry.append('|');
        appendStack(entry);
        return entry.append('|').append(monitors).append('|').append(call.getOpcode()).toString();
    }

    private void appendLocals(StringBuilder entry) {
        for (int slot = 0; slot < locals.size(); slot++) {
            SlotType type = locals.get(slot);
            if (slot > 0) {
                entry.append(',');
            }
            boolean secondHalf = slot > 0 && locals.get(slot - 1).getSize() == 2 && live.get(slot - 1);
            entry.append(secondHalf ? "-" : live.get(slot) ? code(type, slot) : "_");
        }
    }

    private void appendStack(StringBuilder entry) {
        String separator = "";
        int slot = locals.size();
        for (SlotType type : stackBelow) {
            entry.append(separator).append(code(type, slot));
            separator = ",";
            slot += type.getSize();
            if (type.getSize() == 2) {
                entry.append(",-");
            }
        }
        if (receiver != null) {
            entry.append(separator).append("!").append(receiver.code());
        }
    }

    /** The code of {@code type} in table slot {@code slot}: a reference never null there is marked {@code !}. */
    private String code(SlotType type, int slot) {
        return type.isReference() && nonNull.get(slot) ? "!" + type.code() : type.code();
    }
}
