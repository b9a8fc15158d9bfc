package dev.weft.weaver.analysis;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * The types of every local and stack slot before each instruction of a method, computed the
 * way the JVM's type-checking verifier checks them: starting from the method's descriptor, and
 * at each stack-map frame that the class file declares, from that frame; in between, by
 * running the instructions. No class is loaded and no types are merged, so the result is exact.
 *
 * <p>Needs a class file with stack-map frames (version 50 and later, as javac writes them), read
 * with {@code ClassReader.EXPAND_FRAMES}.
 */
public final class FrameTypes implements Opcodes {

    private final Frame<SlotType>[] before;

    private FrameTypes(Frame<SlotType>[] before) {
        this.before = before;
    }

    /** The types before the instruction at {@code index} in the method's list; null where unreachable. */
    public Frame<SlotType> before(int index) {
        return before[index];
    }

    /**
     * Computes the types of {@code method} of the class {@code owner} (an internal name).
     *
     * @throws AnalyzerException naming the instruction where the code does not type-check
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static FrameTypes compute(String owner, MethodNode method) throws AnalyzerException {
        InsnList insns = method.instructions;
        Frame<SlotType>[] before = new Frame[insns.size()];
        TypeInterpreter interpreter = new TypeInterpreter();
        Frame<SlotType> current = entryFrame(owner, method);
        for (int i = 0; i < insns.size(); i++) {
            AbstractInsnNode insn = insns.get(i);
            if (insn instanceof FrameNode declared) {
                current = declaredFrame(owner, method, declared);
            }
            before[i] = current == null ? null : new Frame<>(current);
            if (current != null && insn.getOpcode() >= 0) {
                current = execute(owner, current, insn, interpreter);
            }
        }
        return new FrameTypes(before);
    }

    private static Frame<SlotType> execute(String owner, Frame<SlotType> frame, AbstractInsnNode insn,
            TypeInterpreter interpreter) throws AnalyzerException {
        SlotType constructed = constructedValue(frame, insn);
        frame.execute(insn, interpreter);
        if (constructed != null) {
            SlotType initialized = constructed.kind() == SlotType.Kind.UNINITIALIZED_THIS
                    ? SlotType.ofInternalName(owner)
                    : SlotType.ofInternalName(((MethodInsnNode) insn).owner);
            replace(frame, constructed, initialized);
        }
        return endsStraightLine(insn.getOpcode()) ? null : frame;
    }

    /** The object an {@code invokespecial <init>} initializes, read before the call pops it. */
    private static SlotType constructedValue(Frame<SlotType> frame, AbstractInsnNode insn) {
        if (insn.getOpcode() != INVOKESPECIAL || !((MethodInsnNode) insn).name.equals("<init>")) {
            return null;
        }
        int arguments = Type.getArgumentTypes(((MethodInsnNode) insn).desc).length;
        return frame.getStack(frame.getStackSize() - 1 - arguments);
    }

    private static void replace(Frame<SlotType> frame, SlotType from, SlotType to) {
        for (int i = 0; i < frame.getLocals(); i++) {
            if (from.equals(frame.getLocal(i))) {
                frame.setLocal(i, to);
            }
        }
        for (int i = 0; i < frame.getStackSize(); i++) {
            if (from.equals(frame.getStack(i))) {
                frame.setStack(i, to);
            }
        }
    }

    private static boolean endsStraightLine(int opcode) {
        return opcode == GOTO || opcode == TABLESWITCH || opcode == LOOKUPSWITCH || opcode == ATHROW || opcode == RET
                || (opcode >= IRETURN && opcode <= RETURN);
    }

    private static Frame<SlotType> entryFrame(String owner, MethodNode method) {
        Frame<SlotType> frame = new Frame<>(method.maxLocals, method.maxStack);
        for (int i = 0; i < method.maxLocals; i++) {
            frame.setLocal(i, SlotType.TOP);
        }
        int slot = 0;
        if ((method.access & ACC_STATIC) == 0) {
            frame.setLocal(slot++, method.name.equals("<init>") ? SlotType.UNINITIALIZED_THIS : SlotType.ofInternalName(owner));
        }
        for (Type argument : Type.getArgumentTypes(method.desc)) {
            SlotType type = SlotType.of(argument);
            frame.setLocal(slot, type);
            slot += type.getSize();
        }
        return frame;
    }

    private static Frame<SlotType> declaredFrame(String owner, MethodNode method, FrameNode declared) {
        if (declared.type != F_NEW) {
            throw new IllegalArgumentException("frames must be expanded (ClassReader.EXPAND_FRAMES)");
        }
        Frame<SlotType> frame = new Frame<>(method.maxLocals, method.maxStack);
        for (int i = 0; i < method.maxLocals; i++) {
            frame.setLocal(i, SlotType.TOP);
        }
        int slot = 0;
        for (Object item : declared.local == null ? List.of() : declared.local) {
            SlotType type = typeOf(owner, item);
            frame.setLocal(slot, type);
            slot += type.getSize();
        }
        for (Object item : declared.stack == null ? List.of() : declared.stack) {
            frame.push(typeOf(owner, item));
        }
        return frame;
    }

    /** The type a stack-map frame item stands for. */
    static SlotType typeOf(String owner, Object item) {
        if (item instanceof String internalName) {
            return SlotType.ofInternalName(internalName);
        }
        if (item instanceof LabelNode label) {
            return SlotType.uninitialized(Instructions.atOrAfter(label));
        }
        int tag = (Integer) item;
        if (tag == INTEGER) {
            return SlotType.INT;
        } else if (tag == FLOAT) {
            return SlotType.FLOAT;
        } else if (tag == LONG) {
            return SlotType.LONG;
        } else if (tag == DOUBLE) {
            return SlotType.DOUBLE;
        } else if (tag == NULL) {
            return SlotType.NULL;
        } else if (tag == UNINITIALIZED_THIS) {
            return SlotType.UNINITIALIZED_THIS;
        }
        return SlotType.TOP;
    }
}
