package dev.weft.weaver.analysis;

import java.util.List;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * An ASM {@link Interpreter} that keeps the exact type of every reference, from descriptors
 * alone: it never loads a class. It never merges: {@link FrameTypes} runs it along straight
 * lines of code between the stack-map frames that the class file declares, which give the
 * types wherever control flow joins. {@link InferringInterpreter} merges, for class files that
 * declare none.
 */
class TypeInterpreter extends Interpreter<SlotType> implements Opcodes {

    TypeInterpreter() {
        super(ASM9);
    }

    @Override
    public SlotType newValue(Type type) {
        return type == null ? SlotType.TOP : SlotType.of(type);
    }

    @Override
    public SlotType newOperation(AbstractInsnNode insn) {
        return switch (insn.getOpcode()) {
            case ACONST_NULL -> SlotType.NULL;
            case ICONST_M1, ICONST_0, ICONST_1, ICONST_2, ICONST_3, ICONST_4, ICONST_5, BIPUSH, SIPUSH -> SlotType.INT;
            case LCONST_0, LCONST_1 -> SlotType.LONG;
            case FCONST_0, FCONST_1, FCONST_2 -> SlotType.FLOAT;
            case DCONST_0, DCONST_1 -> SlotType.DOUBLE;
            case LDC -> constantType(((LdcInsnNode) insn).cst);
            case JSR -> SlotType.RETURN_ADDRESS;
            case GETSTATIC -> SlotType.of(Type.getType(((FieldInsnNode) insn).desc));
            case NEW -> SlotType.uninitialized(insn);
            default -> throw new IllegalArgumentException("unexpected opcode " + insn.getOpcode());
        };
    }

    private static SlotType constantType(Object constant) {
        if (constant instanceof Integer) {
            return SlotType.INT;
        } else if (constant instanceof Float) {
            return SlotType.FLOAT;
        } else if (constant instanceof Long) {
            return SlotType.LONG;
        } else if (constant instanceof Double) {
            return SlotType.DOUBLE;
        } else if (constant instanceof String) {
            return SlotType.reference("Ljava/lang/String;");
        } else if (constant instanceof Type type) {
            return SlotType.reference(type.getSort() == Type.METHOD ? "Ljava/lang/invoke/MethodType;" : "Ljava/lang/Class;");
        } else if (constant instanceof Handle) {
            return SlotType.reference("Ljava/lang/invoke/MethodHandle;");
        } else if (constant instanceof ConstantDynamic dynamic) {
            return SlotType.of(Type.getType(dynamic.getDescriptor()));
        }
        throw new IllegalArgumentException("unexpected constant " + constant);
    }

    @Override
    public SlotType copyOperation(AbstractInsnNode insn, SlotType value) {
        return value;
    }

    @Override
    public SlotType unaryOperation(AbstractInsnNode insn, SlotType value) {
        return switch (insn.getOpcode()) {
            case INEG, IINC, L2I, F2I, D2I, I2B, I2C, I2S, ARRAYLENGTH, INSTANCEOF -> SlotType.INT;
            case FNEG, I2F, L2F, D2F -> SlotType.FLOAT;
            case LNEG, I2L, F2L, D2L -> SlotType.LONG;
            case DNEG, I2D, L2D, F2D -> SlotType.DOUBLE;
            case GETFIELD -> SlotType.of(Type.getType(((FieldInsnNode) insn).desc));
            case NEWARRAY -> SlotType.reference("[" + primitiveArrayElement(((IntInsnNode) insn).operand));
            case ANEWARRAY -> SlotType.reference("[" + Type.getObjectType(((TypeInsnNode) insn).desc).getDescriptor());
            case CHECKCAST -> SlotType.ofInternalName(((TypeInsnNode) insn).desc);
            default -> null; // branches, returns, athrow, monitors, putstatic: no value
        };
    }

    private static String primitiveArrayElement(int operand) {
        return switch (operand) {
            case T_BOOLEAN -> "Z";
            case T_CHAR -> "C";
            case T_BYTE -> "B";
            case T_SHORT -> "S";
            case T_INT -> "I";
            case T_FLOAT -> "F";
            case T_DOUBLE -> "D";
            case T_LONG -> "J";
            default -> throw new IllegalArgumentException("unexpected newarray type " + operand);
        };
    }

    @Override
    public SlotType binaryOperation(AbstractInsnNode insn, SlotType value1, SlotType value2) {
        return switch (insn.getOpcode()) {
            case IALOAD, BALOAD, CALOAD, SALOAD, IADD, ISUB, IMUL, IDIV, IREM, ISHL, ISHR, IUSHR, IAND, IOR, IXOR,
                    LCMP, FCMPL, FCMPG, DCMPL, DCMPG -> SlotType.INT;
            case FALOAD, FADD, FSUB, FMUL, FDIV, FREM -> SlotType.FLOAT;
            case LALOAD, LADD, LSUB, LMUL, LDIV, LREM, LSHL, LSHR, LUSHR, LAND, LOR, LXOR -> SlotType.LONG;
            case DALOAD, DADD, DSUB, DMUL, DDIV, DREM -> SlotType.DOUBLE;
            case AALOAD -> value1.elementType();
            default -> null; // comparisons and putfield: no value
        };
    }

    @Override
    public SlotType ternaryOperation(AbstractInsnNode insn, SlotType value1, SlotType value2, SlotType value3) {
        return null;
    }

    @Override
    public SlotType naryOperation(AbstractInsnNode insn, List<? extends SlotType> values) {
        return switch (insn.getOpcode()) {
            case MULTIANEWARRAY -> SlotType.reference(((MultiANewArrayInsnNode) insn).desc);
            case INVOKEDYNAMIC -> SlotType.of(Type.getReturnType(((InvokeDynamicInsnNode) insn).desc));
            default -> SlotType.of(Type.getReturnType(((MethodInsnNode) insn).desc));
        };
    }

    @Override
    public void returnOperation(AbstractInsnNode insn, SlotType value, SlotType expected) {
    }

    @Override
    public SlotType merge(SlotType value1, SlotType value2) {
        return value1; // never merges: frames come from the class file's stack map
    }
}
