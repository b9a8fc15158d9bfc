package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.WeavingContract;

import dev.weft.weaver.analysis.SlotType;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/** Instructions that move one slot's value between the frame, a frame record and the stack. */
final class SlotCode implements Opcodes {

    static final String RUNTIME = WeavingContract.FRAMES_CLASS;
    static final String FRAME = WeavingContract.FRAME_RECORD_CLASS;

    private SlotCode() {
    }

    static VarInsnNode load(SlotType type, int slot) {
        return new VarInsnNode(switch (type.kind()) {
            case INT -> ILOAD;
            case FLOAT -> FLOAD;
            case LONG -> LLOAD;
            case DOUBLE -> DLOAD;
            default -> ALOAD;
        }, slot);
    }

    static VarInsnNode store(SlotType type, int slot) {
        return new VarInsnNode(load(type, slot).getOpcode() - ILOAD + ISTORE, slot);
    }

    /** {@code record.slot = value}, with the value on top of the stack under nothing else. */
    static void put(InsnList code, int record, int slot, SlotType type, VarInsnNode loadValue) {
        code.add(new VarInsnNode(ALOAD, record));
        code.add(push(slot));
        code.add(loadValue);
        String kind = kind(type);
        code.add(new MethodInsnNode(INVOKESTATIC, RUNTIME, WeavingContract.PUT_PREFIX + kind,
                WeavingContract.putDescriptor(kind), false));
    }

    /** Pushes {@code record.slot} as a value of {@code type}. */
    static void get(InsnList code, int record, int slot, SlotType type) {
        if (type.kind() == SlotType.Kind.NULL) {
            code.add(new InsnNode(ACONST_NULL));
            return;
        }
        code.add(new VarInsnNode(ALOAD, record));
        code.add(push(slot));
        String kind = kind(type);
        code.add(new MethodInsnNode(INVOKESTATIC, RUNTIME, WeavingContract.GET_PREFIX + kind, WeavingContract.getDescriptor(kind),
                false));
        castTo(code, type);
    }

    /** Casts the {@code Object} on top of the stack to {@code type}, if it is a reference type more precise than that. */
    static void castTo(InsnList code, SlotType type) {
        if (type.kind() == SlotType.Kind.REFERENCE && !type.descriptor().equals("Ljava/lang/Object;")) {
            Type t = Type.getType(type.descriptor());
            code.add(new TypeInsnNode(CHECKCAST, t.getSort() == Type.ARRAY ? type.descriptor() : t.getInternalName()));
        }
    }

    /** Pushes the default value of {@code type}: zero or null. */
    static InsnNode defaultValue(SlotType type) {
        return new InsnNode(switch (type.kind()) {
            case INT -> ICONST_0;
            case FLOAT -> FCONST_0;
            case LONG -> LCONST_0;
            case DOUBLE -> DCONST_0;
            default -> ACONST_NULL;
        });
    }

    /** Returns from the method with the default value of its return type. */
    static void returnDefault(InsnList code, Type returnType) {
        SlotType type = SlotType.of(returnType);
        if (type == null) {
            code.add(new InsnNode(RETURN));
            return;
        }
        code.add(defaultValue(type));
        code.add(new InsnNode(load(type, 0).getOpcode() - ILOAD + IRETURN));
    }

    static org.objectweb.asm.tree.AbstractInsnNode push(int value) {
        if (value >= -1 && value <= 5) {
            return new InsnNode(ICONST_0 + value);
        }
        return value >= Short.MIN_VALUE && value <= Short.MAX_VALUE
                ? new IntInsnNode(value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE ? BIPUSH : SIPUSH, value)
                : new LdcInsnNode(value);
    }

    /** How a value of {@code type} is named in the runtime's methods: one of {@link WeavingContract#VALUE_KINDS}. */
    static String kind(SlotType type) {
        return switch (type.kind()) {
            case INT -> "Int";
            case FLOAT -> "Float";
            case LONG -> "Long";
            case DOUBLE -> "Double";
            default -> "Object";
        };
    }
}
