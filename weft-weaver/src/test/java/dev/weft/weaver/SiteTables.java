package dev.weft.weaver;

import dev.weft.internal.contract.PackedText;
import dev.weft.internal.contract.WeavingContract;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;

/** The site table a woven class file returns from its {@link WeavingContract#SITE_TABLE_METHOD}, unpacked as the runtime reads it. */
final class SiteTables {

    private SiteTables() {
    }

    static String of(byte[] woven) {
        ClassNode type = new ClassNode();
        new ClassReader(woven).accept(type, 0);
        return of(type);
    }

    /** The table's parts, which a long table is pushed in, concatenated and unpacked. */
    static String of(ClassNode woven) {
        return PackedText.unpack(packed(woven, WeavingContract.SITE_TABLE_METHOD));
    }

    /** The constants that {@code woven}'s static method {@code name()} returns, concatenated: a packed text. */
    static String packed(ClassNode woven, String name) {
        MethodNode method = woven.methods.stream().filter(m -> m.name.equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(woven.name + " has no method " + name));
        StringBuilder table = new StringBuilder();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof String part) {
                table.append(part);
            }
        }
        return table.toString();
    }
}
