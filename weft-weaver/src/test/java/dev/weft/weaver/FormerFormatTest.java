package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.internal.contract.PackedText;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.woven.WovenMethods;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnNode;
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
        ClassLoader loader = loaderOf(former, "format 8");
        Class.forName(NAME, false, loader); // loads and links
        ExceptionInInitializerError refused = assertThrows(ExceptionInInitializerError.class,
                () -> Class.forName(NAME, true, loader));
        IllegalStateException cause = assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertEquals(NAME + " was woven by another version of weft-weaver (woven code format 8); this Weft runs format "
                + WeavingContract.FORMAT_VERSION + ": recompile " + NAME + " and weave it again with this version's weaver"
                + " (agent, plugin or command line; a class already woven is never woven twice, so build from clean)",
                cause.getMessage());
    }

    /** A class loader that defines {@link #NAME} from {@code bytes} and delegates every other class. */
    private static ClassLoader loaderOf(byte[] bytes, String name) {
        return new ClassLoader(name, FormerFormatTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String className) throws ClassNotFoundException {
                if (!className.equals(NAME)) {
                    throw new ClassNotFoundException(className);
                }
                return defineClass(className, bytes, 0, bytes.length);
            }

            @Override
            protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
                synchronized (getClassLoadingLock(className)) {
                    Class<?> loaded = findLoadedClass(className);
                    return loaded != null ? loaded : className.equals(NAME) ? findClass(className) : super.loadClass(className, resolve);
                }
            }
        };
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
        withPlainTables(type, "8");
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        type.accept(writer);
        return writer.toByteArray();
    }

    /**
     * Makes {@code type}'s site table and landing map plain texts, as formats 10 and before
     * returned them, the table's header naming {@code format}.
     */
    private static void withPlainTables(ClassNode type, String format) {
        String header = WeavingContract.tableHeader();
        String table = SiteTables.of(type);
        returnOnly(type, WeavingContract.SITE_TABLE_METHOD, WeavingContract.TABLE_HEADER + format + table.substring(header.length()));
        returnOnly(type, WeavingContract.WOVEN_SITES_METHOD,
                PackedText.unpack(SiteTables.packed(type, WeavingContract.WOVEN_SITES_METHOD)));
    }

    /** Makes {@code type}'s static method {@code name()} return {@code text}, one constant. */
    private static void returnOnly(ClassNode type, String name, String text) {
        MethodNode method = type.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
        method.instructions.clear();
        method.tryCatchBlocks.clear();
        method.instructions.add(new LdcInsnNode(text));
        method.instructions.add(new InsnNode(Opcodes.ARETURN));
    }

    @Test
    void aClassOfFormat10IsRefusedWhenItsSitesAreFirstNeededNamingItself() throws Exception {
        ClassNode type = new ClassNode();
        new ClassReader(new Weaver().weave(WovenLoader.original(NAME))).accept(type, 0);
        withPlainTables(type, "10");
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        type.accept(writer);
        byte[] former = writer.toByteArray();
        assertSame(former, new Weaver().weave(former), "a class woven before is not woven again");
        Class<?> loaded = Class.forName(NAME, true, loaderOf(former, "format 10"));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> WovenMethods.of(loaded));
        assertEquals(NAME + " was woven by another version of weft-weaver (woven code format 10); this Weft runs format "
                + WeavingContract.FORMAT_VERSION + ": recompile " + NAME + " and weave it again with this version's weaver"
                + " (agent, plugin or command line; a class already woven is never woven twice, so build from clean)",
                refused.getMessage());
    }
}
