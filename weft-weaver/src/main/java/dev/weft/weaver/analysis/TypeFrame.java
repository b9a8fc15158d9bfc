package dev.weft.weaver.analysis;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * A frame of {@link SlotType}s that initializes objects as the verifier does: when a
 * constructor call ({@code invokespecial <init>}) runs, every copy of the object it initializes,
 * in the locals and on the stack, becomes a reference of its class.
 */
final class TypeFrame extends Frame<SlotType> {

    private final String owner;

    /** An empty frame of a method of class {@code owner} (an internal name). */
    TypeFrame(String owner, int locals, int stack) {
        super(locals, stack);
        this.owner = owner;
    }

    /** A copy of {@code frame}, of a method of class {@code owner}. */
    TypeFrame(String owner, Frame<? extends SlotType> frame) {
        super(frame);
        this.owner = owner;
    }

    @Override
    public void execute(AbstractInsnNode insn, Interpreter<SlotType> interpreter) throws AnalyzerException {
        SlotType constructed = constructedValue(insn);
        super.execute(insn, interpreter);
        if (constructed != null) {
            SlotType initialized = constructed.kind() == SlotType.Kind.UNINITIALIZED_THIS
                    ? SlotType.ofInternalName(owner)
                    : SlotType.ofInternalName(((MethodInsnNode) insn).owner);
            replace(constructed, initialized);
        }
    }

    /** The object an {@code invokespecial <init>} initializes, read before the call pops it. */
    private SlotType constructedValue(AbstractInsnNode insn) {
        if (insn.getOpcode() != Opcodes.INVOKESPECIAL || !((MethodInsnNode) insn).name.equals("<init>")) {
            return null;
        }
        int arguments = Type.getArgumentTypes(((MethodInsnNode) insn).desc).length;
        return getStack(getStackSize() - 1 - arguments);
    }

    private void replace(SlotType from, SlotType to) {
        for (int i = 0; i < getLocals(); i++) {
            if (from.equals(getLocal(i))) {
                setLocal(i, to);
            }
        }
        for (int i = 0; i < getStackSize(); i++) {
            if (from.equals(getStack(i))) {
                setStack(i, to);
            }
        }
    }
}
