package dev.weft.weaver.analysis;

import dev.weft.internal.contract.SiteTable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * @param receiverLocal the live local the receiver was loaded from and which still holds it at
 *        the call ({@link NonNullValues#receiverLocal}), of the receiver's own type, or -1: a
 *        twin saves that local and not the receiver again
 * @param line the source line in effect at the call ({@link SourceNames#lineAt}), or
 *        {@link SiteTable#NO_LINE}
 * @param names each local's source name at the call, empty where it has none
 *        ({@link SourceNames#namesAt}); an empty list where none has one
 */
public record SuspensionSite(MethodInsnNode call, int bci, List<SlotType> locals, BitSet live,
        List<SlotType> stackBelow, SlotType receiver, int monitors, BitSet nonNull, int receiverLocal, int line,
        List<String> names) {

    /** Whether the receiver is saved as the local it was loaded from, not as a value of its own. */
    public boolean receiverIsLocal() {
        return receiverLocal >= 0;
    }

    /** How many slots the saved operand stack takes: the stack below, then the receiver. */
    public int expressionSlots() {
        int slots = receiver == null ? 0 : 1;
        for (SlotType type : stackBelow) {
            slots += type.getSize();
        }
        return slots;
    }

    /** This site's entry in its class's site table: the call, the type codes of the frame's slots, and the call's opcode. */
    public SiteTable.Site tableEntry() {
        return new SiteTable.Site(bci, call.owner + "." + call.name + call.desc, localCodes(), stackCodes(), monitors,
                call.getOpcode(), nonNullSlots(), receiverLocal, line, names);
    }

    private List<String> localCodes() {
        List<String> codes = new ArrayList<>();
        for (int slot = 0; slot < locals.size(); slot++) {
            boolean secondHalf = slot > 0 && locals.get(slot - 1).getSize() == 2 && live.get(slot - 1);
            codes.add(secondHalf ? SiteTable.SECOND_HALF : live.get(slot) ? locals.get(slot).code() : SiteTable.DEAD);
        }
        return codes;
    }

    private List<String> stackCodes() {
        List<String> codes = new ArrayList<>();
        for (SlotType type : stackBelow) {
            codes.add(type.code());
            if (type.getSize() == 2) {
                codes.add(SiteTable.SECOND_HALF);
            }
        }
        if (receiver != null) {
            codes.add(receiver.code());
        }
        return codes;
    }

    /** The table slots, locals then stack, that hold a reference never null there: the receiver always does. */
    private Set<Integer> nonNullSlots() {
        Set<Integer> slots = new HashSet<>();
        for (int slot = 0; slot < locals.size(); slot++) {
            if (live.get(slot) && locals.get(slot).isReference() && nonNull.get(slot)) {
                slots.add(slot);
            }
        }
        int slot = locals.size();
        for (SlotType type : stackBelow) {
            if (type.isReference() && nonNull.get(slot)) {
                slots.add(slot);
            }
            slot += type.getSize();
        }
        if (receiver != null) {
            slots.add(slot);
        }
        return slots;
    }
}
