package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.internal.contract.WeavingContract;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A class woven in format 8, whose twins and marker reflection saw, is refused by this runtime
 * with a message that names it and says to weave it again: it still loads (the entry interface
 * it implements exists, empty), and its registration refuses it when it is initialized. The
 * weaver leaves it alone, as woven already.
 */
class FormerFormatTest {

    private static final String NAME = "dev.weft.weaver.fixtures.Squares";

    @Test
    void aClassOfFormat8IsRefusedWhenInitializedNamingItself() throws Exception {
        byte[] former = asFormat8(new Weaver().weave(WovenLoader.original(NAME)));
        assertSame(former, new Weaver().weave(former), "a class woven before is not woven again");
        ClassLoader loader = new ClassLoader("format 8", FormerFormatTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (!name.equals(NAME)) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, former, 0, former.length);
            }

            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                synchronized (getClassLoadingLock(name)) {
                    Class<?> loaded = findLoadedClass(name);
                    return loaded != null ? loaded : name.equals(NAME) ? findClass(name) : super.loadClass(name, resolve);
                }
            }
        };
        Class.forName(NAME, false, loader); // loads and links
        ExceptionInInitializerError refused = assertThrows(ExceptionInInitializerError.class,
                () -> Class.forName(NAME, true, loader));
        IllegalStateException cause = assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertEquals(NAME + " was woven by another version of weft-weaver (woven code format 8); this Weft runs format "
                + WeavingContract.FORMAT_VERSION + ": recompile " + NAME + " and weave it again with this version's weaver"
                + " (agent, plugin or command line; a class already woven is never woven twice, so build from clean)",
                cause.getMessage());
    }

    /**
     * {@code woven} as format 8's weaver left it, as far as a runtime sees: its public marker
     * field, the entry interface of an asymmetric coroutine's body, and a site table of format 8.
     */
    private static byte[] asFormat8(byte[] woven) {
        ClassNode type = new ClassNode();
        new ClassReader(woven).accept(type, 0);
        type.fields.add(new FieldNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC,
                WeavingContract.FORMER_MARKER, "Z", null, null));
        type.interfaces.add("dev/weft/internal/woven/TwinAsymBody");
        MethodNode initializer = type.methods.stream().filter(m -> m.name.equals("<clinit>")).findFirst().orElseThrow();
        for (AbstractInsnNode insn : initializer.instructions) {
            if (insn instanceof MethodInsnNode call && call.name.equals(WeavingContract.REGISTER_METHOD)) {
                initializer.instructions.insertBefore(call, new MethodInsnNode(Opcodes.INVOKESTATIC, type.name,
                        WeavingContract.SITE_TABLE_METHOD, "()Ljava/lang/String;", false));
                call.desc = WeavingContract.REGISTER_DESCRIPTOR; // its table registered with its lookup, at once
            }
        }
        String header = WeavingContract.tableHeader();
        for (MethodNode method : type.methods) {
            for (AbstractInsnNode insn : method.instructions) {
                if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof String text && text.startsWith(header)) {
                    ldc.cst = WeavingContract.TABLE_HEADER + "8" + text.substring(header.length());
                }
            }
        }
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        type.accept(writer);
        return writer.toByteArray();
    }
}
