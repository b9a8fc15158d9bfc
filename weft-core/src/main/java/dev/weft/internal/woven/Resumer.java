package dev.weft.internal.woven;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * How the engine calls the innermost saved frame of a kind on resume: its twin on the frame's
 * receiver, every parameter zero ({@link Twins#resumer}). Each kind gets a resumer of its own, an
 * instance of a hidden class that holds the kind's handle as a constant, so that the JIT inlines
 * the twin into the engine's call wherever that call meets one or two kinds, as it inlines a
 * virtual call, where an invocation of a handle read from a field is an indirect jump through
 * the handle's forms that it never inlines.
 *
 * <p>Every hidden class is defined from the same bytes, the handle given as its class data:
 * <pre>{@code
 * final class Resumer$Of extends Resumer {
 *     Resumer$Of() { super(); }
 *     Object resume(Object receiver, Fiber fiber) throws Throwable {
 *         return ((MethodHandle) <ldc: condy MethodHandles.classData "_" MethodHandle>)
 *                 .invokeExact(receiver, fiber);                 // (Object, Fiber) Object
 *     }
 * }
 * }</pre>
 * It is not strongly bound to Weft's class loader: it lives as long as its kind, which its
 * class holds.
 *
 * <p>Immutable; thread-safe.
 */
abstract class Resumer {

    /*
     * The template's constant pool, in order from 1; BootstrapMethods holds one entry, the
     * classData bootstrap without arguments.
     */
    private static final String THIS = "dev/weft/internal/woven/Resumer$Of";
    private static final String SUPER = "dev/weft/internal/woven/Resumer";
    private static final String RESUME_DESCRIPTOR = "(Ljava/lang/Object;Ldev/weft/internal/woven/Fiber;)Ljava/lang/Object;";
    private static final int THIS_CLASS = 2;
    private static final int SUPER_CLASS = 4;
    private static final int INIT = 5;
    private static final int VOID_DESCRIPTOR = 6;
    private static final int SUPER_INIT = 8;
    private static final int RESUME = 9;
    private static final int RESUME_TYPE = 10;
    private static final int CODE = 11;
    private static final int INVOKE_EXACT = 16;
    private static final int CLASS_DATA_BOOTSTRAP = 23;
    private static final int HANDLE_CONSTANT = 27;
    private static final int BOOTSTRAP_METHODS = 28;
    private static final int CONSTANT_COUNT = 29;

    private static final int ACC_FINAL_SUPER = 0x0030;
    private static final int ACC_NONE = 0;

    /** The class file of every resumer's hidden class (version 61, Java 17: the oldest JDK the woven engine runs on). */
    private static final byte[] TEMPLATE = template();

    Resumer() {
    }

    /** Calls the kind's twin on {@code receiver} (null for a static method), resuming from {@code fiber}'s saved values. */
    abstract Object resume(Object receiver, Fiber fiber) throws Throwable;

    /** A resumer that calls {@code handle}, of type {@code (Object, Fiber) Object}. */
    static Resumer of(MethodHandle handle) {
        if (!handle.type().equals(Twins.RESUMER_TYPE)) {
            throw new IllegalArgumentException("a resumer's handle must be of type " + Twins.RESUMER_TYPE + ": " + handle);
        }
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClassWithClassData(TEMPLATE, handle, true);
            return (Resumer) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot make the resumer of " + handle + ": " + t, t);
        }
    }

    private static byte[] template() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);
            out.writeShort(61);
            writeConstants(out);
            out.writeShort(ACC_FINAL_SUPER);
            out.writeShort(THIS_CLASS);
            out.writeShort(SUPER_CLASS);
            out.writeShort(0); // interfaces
            out.writeShort(0); // fields
            out.writeShort(2); // methods
            writeConstructor(out);
            writeResume(out);
            writeBootstrapMethods(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeConstants(DataOutputStream out) throws IOException {
        out.writeShort(CONSTANT_COUNT);
        utf8(out, THIS);                                     // 1
        reference(out, 7, 1);                                // 2 Class
        utf8(out, SUPER);                                    // 3
        reference(out, 7, 3);                                // 4 Class
        utf8(out, "<init>");                                 // 5
        utf8(out, "()V");                                    // 6
        pair(out, 12, INIT, VOID_DESCRIPTOR);                // 7 NameAndType
        pair(out, 10, SUPER_CLASS, 7);                       // 8 Methodref Resumer.<init>
        utf8(out, "resume");                                 // 9
        utf8(out, RESUME_DESCRIPTOR);                        // 10
        utf8(out, "Code");                                   // 11
        utf8(out, "java/lang/invoke/MethodHandle");          // 12
        reference(out, 7, 12);                               // 13 Class
        utf8(out, "invokeExact");                            // 14
        pair(out, 12, 14, RESUME_TYPE);                      // 15 NameAndType
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

    /** {@code aload_0; invokespecial Resumer.<init>()V; return} */
    private static void writeConstructor(DataOutputStream out) throws IOException {
        out.writeShort(ACC_NONE);
        out.writeShort(INIT);
        out.writeShort(VOID_DESCRIPTOR);
        code(out, 1, 1, new byte[] {0x2A, (byte) 0xB7, 0, SUPER_INIT, (byte) 0xB1});
    }

    /** {@code ldc HANDLE_CONSTANT; aload_1; aload_2; invokevirtual MethodHandle.invokeExact; areturn} */
    private static void writeResume(DataOutputStream out) throws IOException {
        out.writeShort(ACC_NONE);
        out.writeShort(RESUME);
        out.writeShort(RESUME_TYPE);
        code(out, 3, 3, new byte[] {0x12, HANDLE_CONSTANT, 0x2B, 0x2C, (byte) 0xB6, 0, INVOKE_EXACT, (byte) 0xB0});
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
