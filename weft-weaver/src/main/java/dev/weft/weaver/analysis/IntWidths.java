package dev.weft.weaver.analysis;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;
import org.objectweb.asm.tree.analysis.Value;

/**
 * The analysis of how wide the {@code int} values of a method can be: for every int-like slot
 * before every instruction, the narrowest of {@code boolean}, {@code byte}, {@code char},
 * {@code short} and {@code int} that holds every value the slot can have there. The verifier
 * calls all of them {@code int}; the site table records this width instead, so that a restored
 * frame is refused a {@code boolean} of 2 or a {@code char} of 70000, values the code could
 * never have made.
 *
 * <p>Sound by construction: a value gets a narrow width only from where the JVM guarantees it
 * (a declared parameter, field, array element or return type, a narrowing conversion, a
 * constant), and where paths join, the widths join ({@code Z < B < S < I}, {@code Z < C < I}).
 * Anything computed is {@code int}.
 */
public final class IntWidths {

    private final Frame<Width>[] frames;

    private IntWidths(Frame<Width>[] frames) {
        this.frames = frames;
    }

    /**
     * The widths of {@code method} of class {@code owner}; if ASM cannot analyse it (it is then
     * refused for other reasons), every int is {@code int}.
     */
    public static IntWidths compute(String owner, MethodNode method) {
        try {
            return new IntWidths(new Analyzer<>(new WidthInterpreter()).analyze(owner, method));
        } catch (AnalyzerException | RuntimeException e) {
            return new IntWidths(null);
        }
    }

    /** {@code type}, narrowed to the width of local {@code slot} before instruction {@code index} if it is an int. */
    public SlotType local(int index, int slot, SlotType type) {
        Frame<Width> frame = frames == null ? null : frames[index];
        return frame == null || slot >= frame.getLocals() ? type : narrow(type, frame.getLocal(slot));
    }

    /** {@code type}, narrowed to the width of stack slot {@code depth} (bottom first) before instruction {@code index}. */
    public SlotType stack(int index, int depth, SlotType type) {
        Frame<Width> frame = frames == null ? null : frames[index];
        return frame == null || depth >= frame.getStackSize() ? type : narrow(type, frame.getStack(depth));
    }

    private static SlotType narrow(SlotType type, Width width) {
        return type.kind() == SlotType.Kind.INT && width.code != 'I' && width.code != '?'
                ? SlotType.narrowInt(width.code) : type;
    }

    /** One value: an int of the given width code, or '?' for anything else, of the given size. */
    record Width(char code, int size) implements Value {
        static final Width OTHER = new Width('?', 1);
        static final Width OTHER_WIDE = new Width('?', 2);
        static final Width INT = new Width('I', 1);

        @Override
        public int getSize() {
            return size;
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

        /** The narrowest width that holds {@code value}. */
        static Width ofConstant(int value) {
            if (value == 0 || value == 1) {
                return new Width('Z', 1);
            } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
                return new Width('B', 1);
            } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
                return new Width(value >= 0 ? 'C' : 'S', 1); // 128..32767 fits both: char is as narrow
            } else if (value >= Character.MIN_VALUE && value <= Character.MAX_VALUE) {
                return new Width('C', 1);
            }
            return INT;
        }

        /** The narrowest width that holds the values of both. */
        Width join(Width other) {
            if (code == other.code) {
                return this;
            }
            if (code == '?' || other.code == '?') {
                return size == other.size ? (size == 2 ? OTHER_WIDE : OTHER) : OTHER;
            }
            if (code == 'Z') {
                return other;
            }
            if (other.code == 'Z') {
                return this;
            }
            boolean bytes = (code == 'B' && other.code == 'S') || (code == 'S' && other.code == 'B');
            return bytes ? new Width('S', 1) : INT;
        }
    }

    /** Tracks widths; every value that is not an int is just its size. */
    private static final class WidthInterpreter extends Interpreter<Width> implements Opcodes {

        WidthInterpreter() {
            super(ASM9);
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
                case BALOAD -> new Width('B', 1); // a boolean array's elements are 0 and 1, within byte
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
