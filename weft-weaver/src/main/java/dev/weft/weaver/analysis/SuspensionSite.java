package dev.weft.weaver.analysis;

import dev.weft.internal.contract.SiteTable;
import java.util.ArrayList;
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
 */
public record SuspensionSite(MethodInsnNode call, int bci, List<SlotType> locals, BitSet live,
        List<SlotType> stackBelow, SlotType receiver, int monitors) {

    /** How many slots the saved operand stack takes: the stack below, then the receiver. */
    public int expressionSlots() {
        int slots = receiver == null ? 0 : 1;
        for (SlotType type : stackBelow) {
            slots += type.getSize();
        }
        return slots;
    }

    /** This site's entry in its class's site table: the call, then the type codes of the frame's slots. */
    public SiteTable.Site tableEntry() {
        return new SiteTable.Site(bci, call.owner + "." + call.name + call.desc, localCodes(), stackCodes(), monitors);
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
}
