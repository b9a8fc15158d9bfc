package dev.weft.weaver.analysis;

import java.util.List;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

/**
 * The analysis of which references are never null: for every slot before every instruction,
 * whether every path gives it a value the JVM guarantees non-null ({@code this}, a new object or
 * array, a constant string or class), kept through copies and casts. The site table marks such
 * slots, so that a restored frame is refused a null where the code could never have one (a
 * {@code NullPointerException} inside woven code otherwise). Sound, not complete: a value that
 * is non-null for other reasons (a method that never returns null) counts as nullable.
 */
public final class NonNullValues {

    private final Frame<Fact>[] frames;

    private NonNullValues(Frame<Fact>[] frames) {
        this.frames = frames;
    }

    /** The facts of {@code method} of class {@code owner}; if ASM cannot analyse it, nothing is known non-null. */
    public static NonNullValues compute(String owner, MethodNode method) {
        try {
            return new NonNullValues(new Analyzer<>(new FactInterpreter()).analyze(owner, method));
        } catch (AnalyzerException | RuntimeException e) {
            return new NonNullValues(null);
        }
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
            String descriptor = insn instanceof org.objectweb.asm.tree.MethodInsnNode call ? call.desc
                    : ((org.objectweb.asm.tree.InvokeDynamicInsnNode) insn).desc;
            return newValue(Type.getReturnType(descriptor));
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
