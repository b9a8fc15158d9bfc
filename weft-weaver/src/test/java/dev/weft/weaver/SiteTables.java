package dev.weft.weaver;

import dev.weft.internal.contract.WeavingContract;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;

/** The site table a woven class file returns from its {@link WeavingContract#SITE_TABLE_METHOD}, as the runtime reads it. */
final class SiteTables {

    private SiteTables() {
    }

    static String of(byte[] woven) {
        ClassNode type = new ClassNode();
        new ClassReader(woven).accept(type, 0);
        return of(type);
    }

    /** The table's parts, which a long table is pushed in, concatenated. */
    static String of(ClassNode woven) {
        MethodNode method = woven.methods.stream().filter(m -> m.name.equals(WeavingContract.SITE_TABLE_METHOD))
                .findFirst().orElseThrow(() -> new AssertionError(woven.name + " has no site table method"));
        StringBuilder table = new StringBuilder();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof String part) {
                table.append(part);
            }
        }
        return table.toString();
    }
}
