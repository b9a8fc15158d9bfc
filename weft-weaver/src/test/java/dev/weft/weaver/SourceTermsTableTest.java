package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.WeavingContract;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The site table records each site's source line and its locals' names, and the class's source
 * file, from the class's own tables; a class compiled without them (built here with ASM, as
 * {@code javac -g:none} would leave it) has none, and its sites are woven all the same.
 */
class SourceTermsTableTest implements Opcodes {

    private static final String NAME = "gen/Lined";
    private static final String GO = "go(Ljava/lang/Object;I)V";

    /**
     * <pre>
     *     static void go(Object worker, int count) {
     *         worker.hashCode();            // line 14: worker, count; later not yet in scope
     *         Object later = worker;
     *         later.toString();             // line 15: worker, count, later
     *     }
     * </pre>
     */
    private static byte[] lined(boolean debug) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(V17, ACC_PUBLIC | ACC_SUPER, NAME, null, "java/lang/Object", null);
        if (debug) {
            cw.visitSource("Lined.java", null);
        }
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "go", "(Ljava/lang/Object;I)V", null, null);
        mv.visitCode();
        Label start = new Label();
        Label second = new Label();
        Label end = new Label();
        mv.visitLabel(start);
        if (debug) {
            mv.visitLineNumber(14, start);
        }
        mv.visitVarInsn(ALOAD, 0);
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Object", "hashCode", "()I", false);
        mv.visitInsn(POP);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitVarInsn(ASTORE, 2);
        mv.visitLabel(second);
        if (debug) {
            mv.visitLineNumber(15, second);
        }
        mv.visitVarInsn(ALOAD, 2);
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Object", "toString", "()Ljava/lang/String;", false);
        mv.visitInsn(POP);
        mv.visitInsn(RETURN);
        mv.visitLabel(end);
        if (debug) {
            mv.visitLocalVariable("worker", "Ljava/lang/Object;", null, start, end, 0);
            mv.visitLocalVariable("count", "I", null, start, end, 1);
            mv.visitLocalVariable("later", "Ljava/lang/Object;", null, second, end, 2);
        }
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static String table(byte[] woven) {
        return SiteTables.of(woven);
    }

    private static List<SiteTable.Site> sites(String table) {
        return SiteTable.read(table).stream().filter(m -> m.key().equals(GO)).findFirst().orElseThrow().sites();
    }

    @Test
    void withLineNumbersAndALocalVariableTableEachSiteHasItsLineAndTheNamesInScopeAtTheCall() throws Exception {
        String table = table(new Weaver().weave(lined(true)));
        assertEquals("Lined.java", SiteTable.sourceFileOf(table));
        List<SiteTable.Site> sites = sites(table);
        assertEquals(2, sites.size(), table);
        assertEquals(14, sites.get(0).line());
        assertEquals(List.of("worker", "count", ""), sites.get(0).names(), "later is not in scope yet");
        assertEquals(15, sites.get(1).line());
        assertEquals(List.of("worker", "count", "later"), sites.get(1).names());
        assertEquals("later", sites.get(1).nameOf(2));
    }

    @Test
    void withoutThemNoSiteHasALineOrANameAndTheHeaderNoSourceFile() throws Exception {
        String table = table(new Weaver().weave(lined(false)));
        assertNull(SiteTable.sourceFileOf(table));
        assertEquals(String.valueOf(WeavingContract.FORMAT_VERSION), SiteTable.formatOf(table));
        List<SiteTable.Site> sites = sites(table);
        assertEquals(2, sites.size(), table);
        for (SiteTable.Site site : sites) {
            assertEquals(SiteTable.NO_LINE, site.line());
            assertEquals(List.of(), site.names());
            assertNull(site.nameOf(0));
        }
    }
}
