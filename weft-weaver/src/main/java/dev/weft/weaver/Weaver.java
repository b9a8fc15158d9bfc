package dev.weft.weaver;

import dev.weft.weaver.analysis.OriginalOffsets;
import dev.weft.weaver.analysis.SuspensionSites;
import dev.weft.weaver.rewrite.AllocationDeferral;
import dev.weft.weaver.rewrite.ClassRewriter;
import dev.weft.weaver.rewrite.WovenSites;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;

/**
 * Weaves class files so that their methods can capture and restore their own frames, which is
 * what {@code CoroutineBase.serialize()} and {@code deserialize} need. Weaving never loads a
 * class: types come from the class file's own stack-map frames. Weaving a woven class returns
 * it unchanged.
 *
 * <p>Stateless and thread-safe. Set the system property {@code weft.weaver.dump} to a directory
 * to get a listing of each class after each phase, and a verification of the result.
 */
public final class Weaver {

    /**
     * The woven class file, or {@code classFile} itself if there is nothing to weave (a module
     * or package descriptor, an already woven class).
     *
     * @throws WeavingException naming the class, if ASM cannot read or write it
     */
    public byte[] weave(byte[] classFile) throws WeavingException {
        ClassReader reader = new ClassReader(classFile);
        // 1. read, frames expanded so that every frame lists all its types
        ClassNode type = new ClassNode();
        reader.accept(type, ClassReader.EXPAND_FRAMES);
        if (!isWeavable(type)) {
            return classFile;
        }
        PhaseDump dump = PhaseDump.fromSystemProperty();
        try {
            // 2. the original bytecode index of every call, before anything moves
            Map<AbstractInsnNode, Integer> bcis = OriginalOffsets.of(reader, type);
            // 3. allocations whose constructor arguments may suspend move after those arguments
            deferAllocations(type);
            if (dump != null) {
                dump.phase(type, 1, "deferred");
            }
            // 4. analysis: suspension sites, their frames' types and live slots
            List<SuspensionSites> analyses = type.methods.stream()
                    .filter(SuspensionSites::isCandidate)
                    .map(m -> SuspensionSites.analyze(type.name, m, bcis))
                    .toList();
            // 5. rewrite: call sites, prologues, site table
            WovenSites sites = ClassRewriter.rewrite(type, analyses);
            if (dump != null) {
                dump.phase(type, 2, "woven");
            }
            // 6. write once to learn where each site's call lands, then again with that map
            ClassWriter first = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            type.accept(first);
            String map = sites.map();
            ClassRewriter.addWovenSites(type, map);
            ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            type.accept(writer);
            byte[] woven = writer.toByteArray();
            if (!sites.map().equals(map)) {
                throw new IllegalStateException("the site map moved between the two writes: " + map);
            }
            if (dump != null) {
                dump.check(type.name, woven);
            }
            return woven;
        } catch (RuntimeException e) {
            throw new WeavingException("cannot weave " + type.name.replace('/', '.') + ": " + e, e);
        }
    }

    private static void deferAllocations(ClassNode type) {
        for (MethodNode method : type.methods) {
            if (SuspensionSites.isCandidate(method)) {
                try {
                    AllocationDeferral.apply(type.name, method);
                } catch (AnalyzerException | RuntimeException e) {
                    // left as it is: the analysis reports why the method cannot be woven
                }
            }
        }
    }

    private static boolean isWeavable(ClassNode type) {
        boolean descriptor = (type.access & Opcodes.ACC_MODULE) != 0 || type.name.endsWith("package-info");
        return !descriptor && !ClassRewriter.isWoven(type);
    }
}
