package dev.weft.weaver.analysis;

import dev.weft.internal.contract.SiteTable;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

/**
 * The analysis of how wide the {@code int} values of a method can be: for every int-like slot
 * before every instruction, one of the widths {@link SiteTable#INT_WIDTHS} ({@code boolean},
 * {@code byte}, {@code char}, {@code short}, {@code int}, and the ranges a {@code byte} and a
 * {@code char}, or a {@code short} and a {@code char}, share). The verifier calls all of them
 * {@code int}; the site table records this width instead, so that a restored frame is refused
 * a {@code boolean} of 2, a {@code char} of -1 or a {@code short} of 40000: values that the
 * slot's Java type cannot hold, which the code could never have made.
 *
 * <p>Invariants: the width recorded for a slot holds every value the code can give the slot
 * there (a frame the code made is never refused), and holds no value outside the slot's Java
 * type (a frame the code could not make is refused as far as the type tells):
 * <ul>
 * <li>A local that the method's {@code LocalVariableTable} declares, at that instruction, as
 *     {@code boolean}, {@code byte}, {@code char}, {@code short} or {@code int} has exactly that
 *     type's width ({@code int} declared is {@code int}, never narrowed), unless the values the
 *     code gives it do not fit the declared type (a table that does not describe the code), when
 *     it has the width of those values, as below.</li>
 * <li>Otherwise (a stack slot, or no table), the width of the values the code gives the slot:
 *     a value gets a narrow width only from where the JVM guarantees its type (a declared
 *     parameter, field, array element or return type, a narrowing conversion), or from a
 *     constant, which gets the intersection of every type that holds it, since any of them may
 *     be the slot's: 1 is a {@code boolean} (it fits all), 90 a {@link SiteTable#BYTE_AND_CHAR},
 *     -1 a {@code byte}, 30000 a {@link SiteTable#SHORT_AND_CHAR}, 40000 a {@code char}. Where
 *     paths join, the widths join to the narrowest width that holds both. Anything computed is
 *     {@code int}.</li>
 * </ul>
 *
 * <p>A value loaded by {@code baload} is a {@code boolean} where the verifier types given to
 * {@link #compute(String, MethodNode, FrameTypes)} show a {@code boolean[]}, else a
 * {@code byte} (which holds a boolean array's 0 and 1 too).
 */
public final class IntWidths {

    private final Frame<Width>[] frames;
    private final MethodNode method;

    private IntWidths(Frame<Width>[] frames, MethodNode method) {
        this.frames = frames;
        this.method = method;
    }

    /**
     * The widths of {@code method} of class {@code owner}, whose verifier types are {@code types}
     * (which tell a {@code boolean[]} from a {@code byte[]}); if ASM cannot analyse it (it is
     * then refused for other reasons), every int is {@code int}.
     */
    public static IntWidths compute(String owner, MethodNode method, FrameTypes types) {
        try {
            return new IntWidths(new Analyzer<>(new WidthInterpreter(method, types)).analyze(owner, method), method);
        } catch (AnalyzerException | RuntimeException e) {
            return new IntWidths(null, method);
        }
    }

    /** The widths of {@code method} of class {@code owner}, without its types: {@code baload} gives a byte. */
    public static IntWidths compute(String owner, MethodNode method) {
        return compute(owner, method, null);
    }

    /**
     * {@code type}, narrowed to the width of local {@code slot} before instruction {@code index}
     * if it is an int: the type the {@code LocalVariableTable} declares there, if it holds what
     * the code gives the local, else the width of that.
     */
    public SlotType local(int index, int slot, SlotType type) {
        Frame<Width> frame = frames == null ? null : frames[index];
        if (frame == null || slot >= frame.getLocals()) {
            return type;
        }
        Width inferred = frame.getLocal(slot);
        Width declared = declared(index, slot);
        return narrow(type, declared != null && declared.holds(inferred) ? declared : inferred);
    }

    /** The int width the {@code LocalVariableTable} gives local {@code slot} before instruction {@code index}, or null. */
    private Width declared(int index, int slot) {
        if (method.localVariables == null) {
            return null;
        }
        InsnList insns = method.instructions;
        for (LocalVariableNode variable : method.localVariables) {
            if (variable.index == slot && insns.indexOf(variable.start) <= index && index < insns.indexOf(variable.end)) {
                Width width = Width.of(Type.getType(variable.desc));
                if (width.isInt()) {
                    return width;
                }
            }
        }
        return null;
    }

    /** {@code type}, narrowed to the width of stack slot {@code depth} (bottom first) before instruction {@code index}. */
    public SlotType stack(int index, int depth, SlotType type) {
        Frame<Width> frame = frames == null ? null : frames[index];
        return frame == null || depth >= frame.getStackSize() ? type : narrow(type, frame.getStack(depth));
    }

    private static SlotType narrow(SlotType type, Width width) {
        return type.kind() == SlotType.Kind.INT && width.isInt() && width.code != 'I'
                ? SlotType.narrowInt(width.code) : type;
    }

    /** One value: an int of the given width code (one of {@link SiteTable#INT_WIDTHS}), or '?' for anything else, of the given size. */
    record Width(char code, int size) implements Value {
        static final Width OTHER = new Width('?', 1);
        static final Width OTHER_WIDE = new Width('?', 2);
        static final Width INT = new Width('I', 1);

        @Override
        public int getSize() {
            return size;
        }

        boolean isInt() {
            return code != '?';
        }

        static Width of(Type type) {
            return switch (type.getSort()) {
                case Type.BOOLEAN -> new Width('Z', 1);
                case Type.BYTE -> new Width('B', 1);
                case Type.CHAR -> new Width('C', 1);
                case Type.SHORT -> new Width('S', 1);
                case Type.INT -> INT;
                case Type.LONG, Type.DOUBLE -> OTHER_WIDE;
                default -> OTHER;
            };
        }

        /** The narrowest width that holds {@code value}: the intersection of the types that hold it. */
        static Width ofConstant(int value) {
            return narrowestHolding(value, value);
        }

        /** The narrowest width that holds every value from {@code low} to {@code high}. */
        private static Width narrowestHolding(long low, long high) {
            for (char code : SiteTable.INT_WIDTHS.toCharArray()) {
                if (SiteTable.holds(code, low) && SiteTable.holds(code, high)) {
                    return code == 'I' ? INT : new Width(code, 1);
                }
            }
            throw new AssertionError("int holds every int: " + low + " to " + high);
        }

        /** Whether every value of int width {@code other} is one of this int width's. */
        boolean holds(Width other) {
            return isInt() && other.isInt() && SiteTable.holds(code, SiteTable.lowest(other.code))
                    && SiteTable.holds(code, SiteTable.highest(other.code));
        }

        /** The narrowest width that holds the values of both. */
        Width join(Width other) {
            if (code == other.code) {
                return this;
            }
            if (!isInt() || !other.isInt()) {
                return size == other.size ? (size == 2 ? OTHER_WIDE : OTHER) : OTHER;
            }
            return narrowestHolding(Math.min(SiteTable.lowest(code), SiteTable.lowest(other.code)),
                    Math.max(SiteTable.highest(code), SiteTable.highest(other.code)));
        }
    }

    /** Tracks widths; every value that is not an int is just its size. */
    private static final class WidthInterpreter extends Interpreter<Width> implements Opcodes {

        private final MethodNode method;
        private final FrameTypes types;

        WidthInterpreter(MethodNode method, FrameTypes types) {
            super(ASM9);
            this.method = method;
            this.types = types;
        }

        /** The width of what {@code baload} loads: a boolean if the array is known to be a {@code boolean[]}, else a byte. */
        private Width byteOrBoolean(AbstractInsnNode baload) {
            Frame<SlotType> frame = types == null ? null : types.before(method.instructions.indexOf(baload));
            SlotType array = frame == null ? null : frame.getStack(frame.getStackSize() - 2);
            return new Width(array != null && "[Z".equals(array.descriptor()) ? 'Z' : 'B', 1);
        }

        @Override
        public Width newValue(Type type) {
            if (type == null) {
                return Width.OTHER;
            }
            return type.getSort() == Type.VOID ? null : Width.of(type);
        }

        @Override
        public Width newOperation(AbstractInsnNode insn) {
            return switch (insn.getOpcode()) {
                case ICONST_M1, ICONST_0, ICONST_1, ICONST_2, ICONST_3, ICONST_4, ICONST_5 ->
                        Width.ofConstant(insn.getOpcode() - ICONST_0);
                case BIPUSH, SIPUSH -> Width.ofConstant(((IntInsnNode) insn).operand);
                case LDC -> ldc(((LdcInsnNode) insn).cst);
                case LCONST_0, LCONST_1, DCONST_0, DCONST_1 -> Width.OTHER_WIDE;
                case GETSTATIC -> Width.of(Type.getType(((FieldInsnNode) insn).desc));
                default -> Width.OTHER;
            };
        }

        private static Width ldc(Object constant) {
            if (constant instanceof Integer value) {
                return Width.ofConstant(value);
            }
            return constant instanceof Long || constant instanceof Double ? Width.OTHER_WIDE : Width.OTHER;
        }

        @Override
        public Width copyOperation(AbstractInsnNode insn, Width value) {
            return value;
        }

        @Override
        public Width unaryOperation(AbstractInsnNode insn, Width value) {
            return switch (insn.getOpcode()) {
                case I2B -> new Width('B', 1);
                case I2C -> new Width('C', 1);
                case I2S -> new Width('S', 1);
                case INSTANCEOF -> new Width('Z', 1);
                case INEG, IINC, L2I, F2I, D2I, ARRAYLENGTH -> Width.INT;
                case LNEG, I2L, F2L, D2L, DNEG, I2D, L2D, F2D -> Width.OTHER_WIDE;
                case FNEG, I2F, L2F, D2F, NEWARRAY, ANEWARRAY, CHECKCAST -> Width.OTHER;
                case GETFIELD -> Width.of(Type.getType(((FieldInsnNode) insn).desc));
                default -> null; // branches, returns, athrow, monitors, putstatic: no value
            };
        }

        @Override
        public Width binaryOperation(AbstractInsnNode insn, Width value1, Width value2) {
            return switch (insn.getOpcode()) {
                case BALOAD -> byteOrBoolean(insn);
                case CALOAD -> new Width('C', 1);
                case SALOAD -> new Width('S', 1);
                case LCMP, FCMPL, FCMPG, DCMPL, DCMPG -> new Width('B', 1);
                case IALOAD, IADD, ISUB, IMUL, IDIV, IREM, ISHL, ISHR, IUSHR, IAND, IOR, IXOR -> Width.INT;
                case LALOAD, DALOAD, LADD, LSUB, LMUL, LDIV, LREM, LSHL, LSHR, LUSHR, LAND, LOR, LXOR,
                        DADD, DSUB, DMUL, DDIV, DREM -> Width.OTHER_WIDE;
                case FALOAD, AALOAD, FADD, FSUB, FMUL, FDIV, FREM -> Width.OTHER;
                default -> null; // comparisons and putfield: no value
            };
        }

        @Override
        public Width ternaryOperation(AbstractInsnNode insn, Width value1, Width value2, Width value3) {
            return null;
        }

        @Override
        public Width naryOperation(AbstractInsnNode insn, List<? extends Width> values) {
            String descriptor = insn instanceof MethodInsnNode call ? call.desc
                    : insn instanceof InvokeDynamicInsnNode indy ? indy.desc
                    : null;
            return descriptor == null ? Width.OTHER : newValue(Type.getReturnType(descriptor));
        }

        @Override
        public void returnOperation(AbstractInsnNode insn, Width value, Width expected) {
        }

        @Override
        public Width merge(Width value1, Width value2) {
            return value1.join(value2);
        }
    }
}
