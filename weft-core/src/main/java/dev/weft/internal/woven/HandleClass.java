package dev.weft.internal.woven;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Instances of hidden classes that each call one method handle, held as a constant, from the
 * one abstract method of their superclass: the engine's calls of woven code ({@link Resumer},
 * {@link BodyCall}). The JIT inlines the handle, and through it the twin it calls, into the
 * engine's call wherever that call meets one or two such classes, as it inlines a virtual call,
 * where an invocation of a handle read from a field is an indirect jump through the handle's
 * forms that it never inlines.
 *
 * <p>Every hidden class of one superclass is defined from the same bytes, the handle given as
 * its class data, from this template, for a superclass {@code Base} of this package whose
 * method {@code name} takes {@code n} references and returns one:
 * <pre>{@code
 * final class Base$Of extends Base {
 *     Base$Of() { super(); }
 *     public Object name(A1 a1, ..., An an) throws Throwable { // overrides Base's, public or not
 *         return ((MethodHandle) <ldc: condy MethodHandles.classData "_" MethodHandle>)
 *                 .invokeExact(a1, ..., an);                    // (A1, ..., An) Object
 *     }
 * }
 * }</pre>
 * The class file is of version 61 (Java 17, the oldest JDK the woven engine runs on). A hidden
 * class is not strongly bound to Weft's class loader: it lives as long as the object made of
 * it, which its class holds.
 */
final class HandleClass {

    /*
     * The template's constant pool, in order from 1; BootstrapMethods holds one entry, the
     * classData bootstrap without arguments.
     */
    private static final int THIS_CLASS = 2;
    private static final int SUPER_CLASS = 4;
    private static final int INIT = 5;
    private static final int VOID_DESCRIPTOR = 6;
    private static final int SUPER_INIT = 8;
    private static final int METHOD = 9;
    private static final int METHOD_TYPE = 10;
    private static final int CODE = 11;
    private static final int INVOKE_EXACT = 16;
    private static final int CLASS_DATA_BOOTSTRAP = 23;
    private static final int HANDLE_CONSTANT = 27;
    private static final int BOOTSTRAP_METHODS = 28;
    private static final int CONSTANT_COUNT = 29;

    private static final int ACC_FINAL_SUPER = 0x0030;
    private static final int ACC_NONE = 0;
    private static final int ACC_PUBLIC = 1;

    /** The class file of the hidden classes of one superclass and method. */
    private final byte[] template;
    private final Class<?> base;
    private final MethodType type;

    /**
     * The hidden classes that extend {@code base}, of this package, implementing its abstract
     * method {@code name} of type {@code type}: references in, a reference out.
     */
    HandleClass(Class<?> base, String name, MethodType type) {
        if (base.getPackage() != HandleClass.class.getPackage() || type.returnType().isPrimitive()
                || type.parameterList().stream().anyMatch(Class::isPrimitive)) {
            throw new IllegalArgumentException("not a superclass and method of this package's handle classes: " + base
                    + "." + name + type);
        }
        this.base = base;
        this.type = type;
        this.template = template(base.getName().replace('.', '/'), name, type);
    }

    /** An instance of a new hidden class whose method calls {@code handle}, which must be of the method's type. */
    <T> T instance(MethodHandle handle) {
        if (!handle.type().equals(type)) {
            throw new IllegalArgumentException("a handle of type " + type + " is needed, not " + handle);
        }
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClassWithClassData(template, handle, true);
            @SuppressWarnings("unchecked")
            T instance = (T) base.cast(hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke());
            return instance;
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot make the " + base.getSimpleName() + " of " + handle + ": " + t, t);
        }
    }

    private static byte[] template(String superName, String name, MethodType type) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);
            out.writeShort(61);
            writeConstants(out, superName, name, type.toMethodDescriptorString());
            out.writeShort(ACC_FINAL_SUPER);
            out.writeShort(THIS_CLASS);
            out.writeShort(SUPER_CLASS);
            out.writeShort(0); // interfaces
            out.writeShort(0); // fields
            out.writeShort(2); // methods
            writeConstructor(out);
            writeCall(out, type.parameterCount());
            writeBootstrapMethods(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeConstants(DataOutputStream out, String superName, String name, String descriptor)
            throws IOException {
        out.writeShort(CONSTANT_COUNT);
        utf8(out, superName + "$Of");                        // 1
        reference(out, 7, 1);                                // 2 Class
        utf8(out, superName);                                // 3
        reference(out, 7, 3);                                // 4 Class
        utf8(out, "<init>");                                 // 5
        utf8(out, "()V");                                    // 6
        pair(out, 12, INIT, VOID_DESCRIPTOR);                // 7 NameAndType
        pair(out, 10, SUPER_CLASS, 7);                       // 8 Methodref Base.<init>
        utf8(out, name);                                     // 9
        utf8(out, descriptor);                               // 10
        utf8(out, "Code");                                   // 11
        utf8(out, "java/lang/invoke/MethodHandle");          // 12
        reference(out, 7, 12);                               // 13 Class
        utf8(out, "invokeExact");                            // 14
        pair(out, 12, 14, METHOD_TYPE);                      // 15 NameAndType
        pair(out, 10, 13, 15);                               // 16 Methodref MethodHandle.invokeExact
        utf8(out, "java/lang/invoke/MethodHandles");         // 17
        reference(out, 7, 17);                               // 18 Class
        utf8(out, "classData");                              // 19
        utf8(out, "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;)Ljava/lang/Object;"); // 20
        pair(out, 12, 19, 20);                               // 21 NameAndType
        pair(out, 10, 18, 21);                               // 22 Methodref MethodHandles.classData
        out.writeByte(15);                                   // 23 MethodHandle
        out.writeByte(6);                                    //    REF_invokeStatic
        out.writeShort(22);
        utf8(out, "_");                                      // 24
        utf8(out, "Ljava/lang/invoke/MethodHandle;");        // 25
        pair(out, 12, 24, 25);                               // 26 NameAndType
        pair(out, 17, 0, 26);                                // 27 Dynamic, bootstrap 0
        utf8(out, "BootstrapMethods");                       // 28
    }

    /** {@code aload_0; invokespecial Base.<init>()V; return} */
    private static void writeConstructor(DataOutputStream out) throws IOException {
        out.writeShort(ACC_NONE);
        out.writeShort(INIT);
        out.writeShort(VOID_DESCRIPTOR);
        code(out, 1, 1, new byte[] {0x2A, (byte) 0xB7, 0, SUPER_INIT, (byte) 0xB1});
    }

    /** {@code ldc HANDLE_CONSTANT; aload 1; ...; aload n; invokevirtual MethodHandle.invokeExact; areturn} */
    private static void writeCall(DataOutputStream out, int arguments) throws IOException {
        out.writeShort(ACC_PUBLIC);
        out.writeShort(METHOD);
        out.writeShort(METHOD_TYPE);
        ByteArrayOutputStream instructions = new ByteArrayOutputStream();
        instructions.write(0x12);                            // ldc
        instructions.write(HANDLE_CONSTANT);
        for (int k = 1; k <= arguments; k++) {
            if (k <= 3) {
                instructions.write(0x2A + k);                // aload_k
            } else {
                instructions.write(0x19);                    // aload k
                instructions.write(k);
            }
        }
        instructions.write(0xB6);                            // invokevirtual
        instructions.write(0);
        instructions.write(INVOKE_EXACT);
        instructions.write(0xB0);                            // areturn
        code(out, arguments + 1, arguments + 1, instructions.toByteArray());
    }

    /** A method's attributes: one Code attribute with no handlers and no attributes of its own. */
    private static void code(DataOutputStream out, int maxStack, int maxLocals, byte[] instructions) throws IOException {
        out.writeShort(1);
        out.writeShort(CODE);
        out.writeInt(12 + instructions.length);
        out.writeShort(maxStack);
        out.writeShort(maxLocals);
        out.writeInt(instructions.length);
        out.write(instructions);
        out.writeShort(0); // exception table
        out.writeShort(0); // attributes
    }

    private static void writeBootstrapMethods(DataOutputStream out) throws IOException {
        out.writeShort(1); // class attributes
        out.writeShort(BOOTSTRAP_METHODS);
        out.writeInt(6);
        out.writeShort(1);
        out.writeShort(CLASS_DATA_BOOTSTRAP);
        out.writeShort(0);
    }

    private static void utf8(DataOutputStream out, String value) throws IOException {
        out.writeByte(1);
        out.writeUTF(value);
    }

    private static void reference(DataOutputStream out, int tag, int index) throws IOException {
        out.writeByte(tag);
        out.writeShort(index);
    }

    private static void pair(DataOutputStream out, int tag, int first, int second) throws IOException {
        out.writeByte(tag);
        out.writeShort(first);
        out.writeShort(second);
    }
}
