package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.WeavingContract;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * How woven code pushes the {@code Class} of the class it is in. From class-file version 49
 * on, {@code ldc Owner.class}; before it, which has no class constants, a synthetic static field
 * that the class's static initializer sets first, by {@code Class.forName} (which finds the class
 * through its own loader, the initializer's caller):
 *
 * <pre>
 * private static final synthetic Class $weft$class;
 * static {
 *     ldc "the.Owner"; invokestatic Class.forName(String); putstatic $weft$class
 *     ...
 * }
 * </pre>
 */
final class OwnClass implements Opcodes {

    /** The field that holds the class, in class files before version 49. */
    static final String FIELD = WeavingContract.OWN_CLASS_FIELD;

    private final ClassNode type;

    OwnClass(ClassNode type) {
        this.type = type;
    }

    /** Whether the class file can name classes in {@code ldc} (version 49, Java 5, and later). */
    private boolean hasClassConstants() {
        return (type.version & 0xFFFF) >= V1_5;
    }

    /** Pushes the class: {@code [] -> [Class]}. */
    AbstractInsnNode push() {
        return hasClassConstants() ? new LdcInsnNode(Type.getObjectType(type.name))
                : new FieldInsnNode(GETSTATIC, type.name, FIELD, "Ljava/lang/Class;");
    }

    /**
     * For a class file before version 49, declares the field and sets it at the very start of
     * {@code initializer}; does nothing for later ones.
     */
    void declare(MethodNode initializer) {
        if (hasClassConstants()) {
            return;
        }
        type.fields.add(new FieldNode(ACC_PRIVATE | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC, FIELD, "Ljava/lang/Class;",
                null, null)); // never an interface's: no interface before version 52 is woven
        InsnList code = new InsnList();
        code.add(new LdcInsnNode(type.name.replace('/', '.')));
        code.add(new MethodInsnNode(INVOKESTATIC, "java/lang/Class", "forName", "(Ljava/lang/String;)Ljava/lang/Class;",
                false));
        code.add(new FieldInsnNode(PUTSTATIC, type.name, FIELD, "Ljava/lang/Class;"));
        initializer.instructions.insert(code);
    }
}
