package dev.weft.weaver.analysis;

import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.analysis.Value;

/**
 * The verifier's type of one value: a kind, and for references their exact type. Two
 * uninitialized values are equal only if they come from the same {@code new} instruction.
 *
 * @param unresolved for a reference type inferred by merging (class files before version 50),
 *        the class whose superclasses the weaver could not find, so that the type is only a
 *        guess ({@code java/lang/Object} or an array of it); null for an exact type
 */
public record SlotType(Kind kind, String descriptor, AbstractInsnNode newInsn, String unresolved) implements Value {

    /** The verification types of JVMS 4.10.1.2, with every int-like type as {@link #INT}. */
    public enum Kind { TOP, INT, FLOAT, LONG, DOUBLE, NULL, REFERENCE, UNINITIALIZED, UNINITIALIZED_THIS, RETURN_ADDRESS }

    public static final SlotType TOP = new SlotType(Kind.TOP, null, null, null);
    public static final SlotType INT = new SlotType(Kind.INT, "I", null, null);
    public static final SlotType FLOAT = new SlotType(Kind.FLOAT, "F", null, null);
    public static final SlotType LONG = new SlotType(Kind.LONG, "J", null, null);
    public static final SlotType DOUBLE = new SlotType(Kind.DOUBLE, "D", null, null);
    public static final SlotType NULL = new SlotType(Kind.NULL, null, null, null);
    public static final SlotType UNINITIALIZED_THIS = new SlotType(Kind.UNINITIALIZED_THIS, null, null, null);
    public static final SlotType RETURN_ADDRESS = new SlotType(Kind.RETURN_ADDRESS, null, null, null);

    /** A reference of the type with this descriptor ({@code Ljava/lang/String;}, {@code [I}). */
    public static SlotType reference(String descriptor) {
        return new SlotType(Kind.REFERENCE, descriptor, null, null);
    }

    /**
     * A reference of the type with this descriptor that stands for a common superclass the weaver
     * could not compute, for want of the class file of {@code unresolvedClass} (an internal name).
     */
    public static SlotType guessed(String descriptor, String unresolvedClass) {
        return new SlotType(Kind.REFERENCE, descriptor, null, unresolvedClass);
    }

    /** A reference of the class with this internal name, or of the array type it spells. */
    public static SlotType ofInternalName(String internalName) {
        return reference(internalName.startsWith("[") ? internalName : "L" + internalName + ";");
    }

    /**
     * An int of the narrower width {@code code} (one of {@code SiteTable.INT_WIDTHS} but
     * {@code I}), as {@link IntWidths} finds: the verifier's {@link #INT}, with that code in the
     * site table.
     */
    public static SlotType narrowInt(char code) {
        return new SlotType(Kind.INT, String.valueOf(code), null, null);
    }

    /** The object a {@code new} instruction created, before its constructor ran. */
    public static SlotType uninitialized(AbstractInsnNode newInsn) {
        return new SlotType(Kind.UNINITIALIZED, null, newInsn, null);
    }

    /** The type of a value of {@code type}, with boolean, byte, char and short as int; null for void. */
    public static SlotType of(Type type) {
        return switch (type.getSort()) {
            case Type.VOID -> null;
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> INT;
            case Type.FLOAT -> FLOAT;
            case Type.LONG -> LONG;
            case Type.DOUBLE -> DOUBLE;
            default -> reference(type.getDescriptor());
        };
    }

    @Override
    public int getSize() {
        return kind == Kind.LONG || kind == Kind.DOUBLE ? 2 : 1;
    }

    public boolean isReference() {
        return kind == Kind.REFERENCE || kind == Kind.NULL;
    }

    public boolean isUninitialized() {
        return kind == Kind.UNINITIALIZED || kind == Kind.UNINITIALIZED_THIS;
    }

    /** The element type of this array type, for {@code aaload}; null stays null. */
    public SlotType elementType() {
        if (kind == Kind.NULL || descriptor == null || !descriptor.startsWith("[")) {
            return NULL;
        }
        SlotType element = of(Type.getType(descriptor.substring(1)));
        return unresolved == null || !element.isReference() ? element : guessed(element.descriptor, unresolved);
    }

    /** The code of this type in a woven class's site table (see {@code WovenMethods}). */
    public String code() {
        return switch (kind) {
            case INT -> descriptor; // I, or a narrower width (SiteTable.INT_WIDTHS)
            case FLOAT -> "F";
            case LONG -> "J";
            case DOUBLE -> "D";
            case NULL -> "Ljava/lang/Object;";
            case REFERENCE -> descriptor;
            default -> "_";
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case REFERENCE -> descriptor;
            case UNINITIALIZED -> "uninitialized";
            default -> kind.name().toLowerCase();
        };
    }
}
