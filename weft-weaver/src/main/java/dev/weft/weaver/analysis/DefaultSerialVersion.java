package dev.weft.weaver.analysis;

import java.util.OptionalLong;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.SerialVersionUIDAdder;
import org.objectweb.asm.tree.ClassNode;

/**
 * The {@code serialVersionUID} that Java serialization computes for a class that declares none
 * (the Java Object Serialization Specification, section 4.6: a hash of the class's name,
 * modifiers, interfaces, non-private members and whether it has a static initializer), read from
 * the class as compiled, before weaving adds anything to it. Weaving adds members and a static
 * initializer, which changes that default; the woven class declares the unwoven class's value
 * instead, so that objects written by unwoven code are read by woven code, and the reverse.
 *
 * <p>Only a class that needs it gets one: a {@code Serializable} class, not an enum or a record
 * (whose default is 0 and never compared), that declares none. Whether a class is
 * {@code Serializable} is read from the class files of its supertypes ({@link ClassHierarchy},
 * no class is loaded); a class whose supertypes cannot all be found is given the value as if it
 * were, which keeps serialization right and costs a class that is not one field.
 * The hash itself is ASM's {@link SerialVersionUIDAdder}'s.
 *
 * <p>Stateless and thread-safe.
 */
public final class DefaultSerialVersion {

    private static final String SERIALIZABLE = "java/io/Serializable";

    private DefaultSerialVersion() {
    }

    /**
     * The default {@code serialVersionUID} of {@code type}, as compiled, or empty if the woven
     * class needs none declared.
     *
     * @param type      the class, before weaving has changed anything
     * @param hierarchy where its supertypes are read from, {@code type} made known to it
     */
    public static OptionalLong of(ClassNode type, ClassHierarchy hierarchy) {
        boolean enumOrInterface = (type.access & (Opcodes.ACC_ENUM | Opcodes.ACC_INTERFACE)) != 0;
        boolean declares = type.fields.stream().anyMatch(f -> f.name.equals("serialVersionUID"));
        if (enumOrInterface || declares || "java/lang/Record".equals(type.superName)
                || Boolean.FALSE.equals(hierarchy.isSubtype(type.name, SERIALIZABLE))) {
            return OptionalLong.empty();
        }
        Computation computation = new Computation();
        type.accept(computation);
        return OptionalLong.of(computation.value);
    }

    /** ASM's computation, visited over the class as compiled, keeping the value rather than adding a field. */
    private static final class Computation extends SerialVersionUIDAdder {
        private long value;

        Computation() {
            super(Opcodes.ASM9, new ClassVisitor(Opcodes.ASM9) {
            });
        }

        @Override
        protected void addSVUID(long svuid) {
            value = svuid;
        }
    }
}
