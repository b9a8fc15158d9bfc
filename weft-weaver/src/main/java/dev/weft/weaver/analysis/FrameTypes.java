package dev.weft.weaver.analysis;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * The types of every local and stack slot before each instruction of a method, computed the
 * way the JVM's verifiers compute them. Where the method declares stack-map frames (class files
 * of version 50 and later, as javac writes them, read with {@code ClassReader.EXPAND_FRAMES}),
 * as the type-checking verifier does: starting from the method's descriptor, and at each
 * declared frame, from that frame; in between, by running the instructions. No class is loaded
 * and no types are merged, so the result is exact. Where it declares none (older class files,
 * and methods whose subroutines were inlined), as the old type-inferencing verifier does: by a
 * dataflow analysis that merges at every join ({@link InferringInterpreter}), reading
 * superclasses from class files through a {@link ClassHierarchy}. A method without branches or
 * handlers needs no frame: both ways give the same types for it.
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
     * Computes the types of {@code method} of the class {@code owner} (an internal name), from its
     * stack-map frames if it declares any, else by inference with {@code hierarchy}.
     *
     * @throws AnalyzerException naming the instruction where the code does not type-check
     */
    public static FrameTypes compute(String owner, MethodNode method, ClassHierarchy hierarchy) throws AnalyzerException {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof FrameNode) {
                return fromStackMap(owner, method);
            }
        }
        return inferred(owner, method, hierarchy);
    }

    private static FrameTypes inferred(String owner, MethodNode method, ClassHierarchy hierarchy) throws AnalyzerException {
        Analyzer<SlotType> analyzer = new Analyzer<>(new InferringInterpreter(hierarchy)) {
            @Override
            protected Frame<SlotType> newFrame(int locals, int stack) {
                return new TypeFrame(owner, locals, stack);
            }

            @Override
            protected Frame<SlotType> newFrame(Frame<? extends SlotType> frame) {
                return new TypeFrame(owner, frame);
            }
        };
        return new FrameTypes(analyzer.analyze(owner, method));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static FrameTypes fromStackMap(String owner, MethodNode method) throws AnalyzerException {
        InsnList insns = method.instructions;
        Frame<SlotType>[] before = new Frame[insns.size()];
        TypeInterpreter interpreter = new TypeInterpreter();
        Frame<SlotType> current = entryFrame(owner, method);
        for (int i = 0; i < insns.size(); i++) {
            AbstractInsnNode insn = insns.get(i);
            if (insn instanceof FrameNode declared) {
                current = declaredFrame(owner, method, declared);
            }
            before[i] = current == null ? null : new TypeFrame(owner, current);
            if (current != null && insn.getOpcode() >= 0) {
                current.execute(insn, interpreter);
                current = endsStraightLine(insn.getOpcode()) ? null : current;
            }
        }
        return new FrameTypes(before);
    }

    private static boolean endsStraightLine(int opcode) {
        return opcode == GOTO || opcode == TABLESWITCH || opcode == LOOKUPSWITCH || opcode == ATHROW || opcode == RET
                || (opcode >= IRETURN && opcode <= RETURN);
    }

    private static Frame<SlotType> entryFrame(String owner, MethodNode method) {
        Frame<SlotType> frame = new TypeFrame(owner, method.maxLocals, method.maxStack);
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
        Frame<SlotType> frame = new TypeFrame(owner, method.maxLocals, method.maxStack);
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
