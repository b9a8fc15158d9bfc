package dev.weft.weaver.rewrite;

import dev.weft.weaver.analysis.SlotType;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.FrameNode;

/** Builds the expanded stack-map frames that woven code needs at the labels it adds. */
final class FrameItems implements Opcodes {

    private FrameItems() {
    }

    /** A full frame with these locals (one entry per slot) and stack (one entry per value). */
    static FrameNode frame(List<SlotType> locals, List<SlotType> stack) {
        List<Object> localItems = new ArrayList<>();
        for (int slot = 0; slot < locals.size(); slot++) {
            SlotType type = locals.get(slot);
            localItems.add(item(type));
            if (type.getSize() == 2) {
                slot++;
            }
        }
        while (!localItems.isEmpty() && TOP.equals(localItems.get(localItems.size() - 1))) {
            localItems.remove(localItems.size() - 1);
        }
        List<Object> stackItems = new ArrayList<>();
        for (SlotType type : stack) {
            stackItems.add(item(type));
        }
        return new FrameNode(F_NEW, localItems.size(), localItems.toArray(), stackItems.size(), stackItems.toArray());
    }

    private static Object item(SlotType type) {
        return switch (type.kind()) {
            case INT -> INTEGER;
            case FLOAT -> FLOAT;
            case LONG -> LONG;
            case DOUBLE -> DOUBLE;
            case NULL -> NULL;
            case UNINITIALIZED_THIS -> UNINITIALIZED_THIS;
            case REFERENCE -> Type.getType(type.descriptor()).getSort() == Type.ARRAY ? type.descriptor()
                    : Type.getType(type.descriptor()).getInternalName();
            default -> TOP;
        };
    }
}
