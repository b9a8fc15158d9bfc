package dev.weft.weaver.analysis;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;
import org.objectweb.asm.tree.analysis.Value;

/**
 * The analysis of which references are never null: for every slot before every instruction,
 * whether every path gives it a value the JVM or the JDK guarantees non-null ({@code this}, a
 * new object or array, a constant string or class, a lambda or a concatenated string made by
 * {@code invokedynamic}), kept through copies and casts; and, at a call in progress, the local
 * its receiver was loaded from in the same basic block (the call was dispatched, so the local
 * held no null). The site table marks such slots, so that a restored frame is refused a null
 * where the code could never have one (a {@code NullPointerException} inside woven code
 * otherwise). Sound, not complete: a value that is non-null for other reasons (a method that
 * never returns null) counts as nullable.
 */
public final class NonNullValues {

    private static final String LAMBDA_FACTORY = "java/lang/invoke/LambdaMetafactory";
    private static final String CONCAT_FACTORY = "java/lang/invoke/StringConcatFactory";

    private final MethodNode method;
    private final Frame<Fact>[] frames;
    private final Frame<SourceValue>[] sources;
    /** The labels a jump, a switch or a handler names; found at the first question. */
    private Set<LabelNode> entered;

    private NonNullValues(MethodNode method, Frame<Fact>[] frames, Frame<SourceValue>[] sources) {
        this.method = method;
        this.frames = frames;
        this.sources = sources;
    }

    /** The facts of {@code method} of class {@code owner}; if ASM cannot analyse it, nothing is known non-null. */
    public static NonNullValues compute(String owner, MethodNode method) {
        try {
            return new NonNullValues(method, new Analyzer<>(new FactInterpreter()).analyze(owner, method),
                    new Analyzer<>(new SourceInterpreter()).analyze(owner, method));
        } catch (AnalyzerException | RuntimeException e) {
            return new NonNullValues(method, null, null);
        }
    }

    /**
     * The local that the receiver of the call at instruction {@code index} (stack value
     * {@code depth}, bottom first) was loaded from, if that local still holds it when the call is
     * made: it was loaded by an {@code aload} in the same basic block, with no store to the local
     * in between. -1 if there is none. While the call is in progress the local is never null.
     */
    public int receiverLocal(int index, int depth) {
        Frame<SourceValue> frame = sources == null ? null : sources[index];
        if (frame == null || depth >= frame.getStackSize() || frame.getStack(depth).insns.size() != 1) {
            return -1;
        }
        AbstractInsnNode load = frame.getStack(depth).insns.iterator().next();
        if (load.getOpcode() != Opcodes.ALOAD) {
            return -1;
        }
        int local = ((VarInsnNode) load).var;
        return straightLineWithoutStore(load, method.instructions.get(index), local) ? local : -1;
    }

    /**
     * Whether the instructions strictly between {@code from} and {@code to} form one path that
     * nothing else enters (no label a jump, switch or handler names; no jump, switch, return or
     * throw) and that stores nothing into {@code local}.
     */
    private boolean straightLineWithoutStore(AbstractInsnNode from, AbstractInsnNode to, int local) {
        for (AbstractInsnNode insn = from.getNext(); insn != to; insn = insn.getNext()) {
            if (insn == null || insn instanceof LabelNode label && isEntered(label) || insn instanceof JumpInsnNode
                    || insn instanceof TableSwitchInsnNode || insn instanceof LookupSwitchInsnNode
                    || insn.getOpcode() >= Opcodes.IRETURN && insn.getOpcode() <= Opcodes.RETURN
                    || insn.getOpcode() == Opcodes.ATHROW || insn instanceof VarInsnNode store && overwrites(store, local)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code store} writes {@code local}, or the second half of a long or double over it. */
    private static boolean overwrites(VarInsnNode store, int local) {
        int opcode = store.getOpcode();
        boolean wide = opcode == Opcodes.LSTORE || opcode == Opcodes.DSTORE;
        return opcode >= Opcodes.ISTORE && opcode <= Opcodes.ASTORE && (store.var == local || wide && store.var + 1 == local);
    }

    private boolean isEntered(LabelNode label) {
        if (entered == null) {
            entered = enteredLabels(method);
        }
        return entered.contains(label);
    }

    /** The labels of {@code method} that a jump, a switch or a handler names. */
    private static Set<LabelNode> enteredLabels(MethodNode method) {
        Set<LabelNode> labels = Collections.newSetFromMap(new IdentityHashMap<>());
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof JumpInsnNode jump) {
                labels.add(jump.label);
            } else if (insn instanceof TableSwitchInsnNode table) {
                labels.add(table.dflt);
                labels.addAll(table.labels);
            } else if (insn instanceof LookupSwitchInsnNode lookup) {
                labels.add(lookup.dflt);
                labels.addAll(lookup.labels);
            }
        }
        method.tryCatchBlocks.forEach(block -> labels.add(block.handler));
        return labels;
    }

    /** Whether local {@code slot} is never null before instruction {@code index}. */
    public boolean local(int index, int slot) {
        Frame<Fact> frame = frames == null ? null : frames[index];
        return frame != null && slot < frame.getLocals() && frame.getLocal(slot).nonNull;
    }

    /** Whether stack value {@code depth} (bottom first) is never null before instruction {@code index}. */
    public boolean stack(int index, int depth) {
        Frame<Fact> frame = frames == null ? null : frames[index];
        return frame != null && depth < frame.getStackSize() && frame.getStack(depth).nonNull;
    }

    /** A value: its size, and whether it is a reference that is never null. */
    record Fact(int size, boolean nonNull) implements Value {
        static final Fact ONE = new Fact(1, false);
        static final Fact TWO = new Fact(2, false);
        static final Fact NON_NULL = new Fact(1, true);

        @Override
        public int getSize() {
            return size;
        }

        static Fact of(Type type) {
            return type.getSize() == 2 ? TWO : ONE;
        }
    }

    private static final class FactInterpreter extends Interpreter<Fact> implements Opcodes {

        FactInterpreter() {
            super(ASM9);
        }

        @Override
        public Fact newValue(Type type) {
            if (type == null) {
                return Fact.ONE;
            }
            return type.getSort() == Type.VOID ? null : Fact.of(type);
        }

        @Override
        public Fact newParameterValue(boolean isInstanceMethod, int local, Type type) {
            return isInstanceMethod && local == 0 ? Fact.NON_NULL : newValue(type); // this
        }

        @Override
        public Fact newOperation(AbstractInsnNode insn) {
            return switch (insn.getOpcode()) {
                case NEW -> Fact.NON_NULL;
                case LCONST_0, LCONST_1, DCONST_0, DCONST_1 -> Fact.TWO;
                case LDC -> ldc(((LdcInsnNode) insn).cst);
                case GETSTATIC -> Fact.of(Type.getType(((org.objectweb.asm.tree.FieldInsnNode) insn).desc));
                default -> Fact.ONE;
            };
        }

        private static Fact ldc(Object constant) {
            if (constant instanceof Long || constant instanceof Double) {
                return Fact.TWO;
            }
            if (constant instanceof ConstantDynamic dynamic) {
                return Fact.of(Type.getType(dynamic.getDescriptor()));
            }
            return constant instanceof String || constant instanceof Type || constant instanceof org.objectweb.asm.Handle
                    ? Fact.NON_NULL : Fact.ONE;
        }

        @Override
        public Fact copyOperation(AbstractInsnNode insn, Fact value) {
            return value;
        }

        @Override
        public Fact unaryOperation(AbstractInsnNode insn, Fact value) {
            return switch (insn.getOpcode()) {
                case NEWARRAY, ANEWARRAY -> Fact.NON_NULL;
                case CHECKCAST -> value;
                case LNEG, I2L, F2L, D2L, DNEG, I2D, L2D, F2D -> Fact.TWO;
                case GETFIELD -> Fact.of(Type.getType(((org.objectweb.asm.tree.FieldInsnNode) insn).desc));
                case IFEQ, IFNE, IFLT, IFGE, IFGT, IFLE, TABLESWITCH, LOOKUPSWITCH, IRETURN, LRETURN, FRETURN,
                        DRETURN, ARETURN, PUTSTATIC, ATHROW, MONITORENTER, MONITOREXIT, IFNULL, IFNONNULL -> null;
                default -> Fact.ONE;
            };
        }

        @Override
        public Fact binaryOperation(AbstractInsnNode insn, Fact value1, Fact value2) {
            return switch (insn.getOpcode()) {
                case LALOAD, DALOAD, LADD, LSUB, LMUL, LDIV, LREM, LSHL, LSHR, LUSHR, LAND, LOR, LXOR,
                        DADD, DSUB, DMUL, DDIV, DREM -> Fact.TWO;
                case IF_ICMPEQ, IF_ICMPNE, IF_ICMPLT, IF_ICMPGE, IF_ICMPGT, IF_ICMPLE, IF_ACMPEQ, IF_ACMPNE,
                        PUTFIELD -> null;
                default -> Fact.ONE;
            };
        }

        @Override
        public Fact ternaryOperation(AbstractInsnNode insn, Fact value1, Fact value2, Fact value3) {
            return null;
        }

        @Override
        public Fact naryOperation(AbstractInsnNode insn, List<? extends Fact> values) {
            if (insn.getOpcode() == MULTIANEWARRAY) {
                return Fact.NON_NULL;
            }
            if (insn instanceof InvokeDynamicInsnNode dynamic) {
                String factory = dynamic.bsm.getOwner();
                return factory.equals(LAMBDA_FACTORY) || factory.equals(CONCAT_FACTORY) ? Fact.NON_NULL
                        : newValue(Type.getReturnType(dynamic.desc));
            }
            return newValue(Type.getReturnType(((org.objectweb.asm.tree.MethodInsnNode) insn).desc));
        }

        @Override
        public void returnOperation(AbstractInsnNode insn, Fact value, Fact expected) {
        }

        @Override
        public Fact merge(Fact value1, Fact value2) {
            if (value1.equals(value2)) {
                return value1;
            }
            return value1.size == value2.size ? new Fact(value1.size, false) : Fact.ONE;
        }
    }
}
