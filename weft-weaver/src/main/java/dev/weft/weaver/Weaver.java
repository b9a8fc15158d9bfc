package dev.weft.weaver;

import dev.weft.weaver.analysis.ClassHierarchy;
import dev.weft.weaver.analysis.DefaultSerialVersion;
import dev.weft.weaver.analysis.MethodHash;
import dev.weft.weaver.analysis.OriginalOffsets;
import dev.weft.weaver.analysis.PassThroughBridge;
import dev.weft.weaver.analysis.SuspensionSites;
import dev.weft.weaver.rewrite.AllocationDeferral;
import dev.weft.weaver.rewrite.ClassRewriter;
import dev.weft.weaver.rewrite.SubroutineInlining;
import dev.weft.weaver.rewrite.TwinMethods;
import dev.weft.weaver.rewrite.WovenSites;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.LimitExceededException;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;

/**
 * Weaves class files so that their methods can capture and restore their own frames, which is
 * what {@code CoroutineBase.serialize()} and {@code deserialize} need. Weaving never loads a
 * class: types come from the class file's own stack-map frames or, in class files without them
 * (before version 50), from a dataflow analysis that reads superclasses from class files found
 * as resources of a class loader. Subroutines ({@code jsr}/{@code ret}) are inlined first. A
 * woven class file keeps its version. Weaving a woven class returns it unchanged.
 *
 * <p>A suspended frame records, as its {@code bci}, the site id of the call it is suspended in:
 * the call's bytecode index in the method as compiled, stable across weaves; where inlining made
 * copies of a subroutine's call, the first copy keeps that index and the n-th further one gets
 * {@code bci + 65536 * n}, in the order of the copies in the inlined code.
 *
 * <p>A woven class stays the same class to serialization: a {@code Serializable} class that
 * declares no {@code serialVersionUID} gets the one Java computed for it as compiled
 * ({@code DefaultSerialVersion}). Annotation types, interfaces before version 52 and classes
 * whose methods call nothing are returned unchanged: nothing in them can suspend.
 *
 * <p>A woven class stays the same class to reflection: what weaving adds (twins, the method
 * that marks the class woven and maps its sites, a declared {@code serialVersionUID}, a field
 * of the class's own {@code Class} before version 49) is private and synthetic, and the class
 * implements no other interface, so {@code getMethods()}, {@code getFields()} and
 * {@code getInterfaces()} give what they gave compiled, and {@code getDeclaredMethods()} and
 * {@code getDeclaredFields()} the same but for synthetic members.
 *
 * <p>A method that would be too large for the JVM once woven (about 1,100 calls or more) is left
 * as compiled, its reason in the class's site table, and the rest of its class is woven: a
 * suspension inside it is refused at run time, naming it and the reason, as one inside any
 * method that is not woven.
 *
 * <p>A bridge method of the shape javac gives bridges ({@code PassThroughBridge}) is passed
 * through rather than woven: left as compiled, with a twin that only passes the call on, so that
 * neither engine ever saves a frame of it.
 *
 * <p>Stateless and thread-safe. Set the system property {@code weft.weaver.dump} to a directory
 * to get a listing of each class after each phase, and a verification of the result.
 */
public final class Weaver {

    /** The JVM's limit on the bytes of a method's code. */
    private static final int METHOD_LIMIT = 65_535;

    /** A weaver; it keeps no state between classes, so one may serve every thread. */
    public Weaver() {
    }

    /**
     * The woven class file, or {@code classFile} itself if there is nothing to weave (a module
     * or package descriptor, an already woven class). Superclasses are looked for among the
     * system class loader's resources.
     *
     * @param classFile the class file's bytes, left unchanged
     * @return the woven class file, or {@code classFile} itself
     * @throws WeavingException naming the class, if ASM cannot read or write it
     */
    public byte[] weave(byte[] classFile) throws WeavingException {
        return weave(classFile, null);
    }

    /**
     * The woven class file, or {@code classFile} itself if there is nothing to weave. The class
     * files of superclasses, which a class file without stack-map frames needs, are looked for
     * among {@code loader}'s resources ({@code getResourceAsStream}, which loads no class); the
     * system class loader's if {@code loader} is null.
     *
     * @param classFile the class file's bytes, left unchanged
     * @param loader    where to read superclasses' class files from; null for the system class loader
     * @return the woven class file, or {@code classFile} itself
     * @throws WeavingException naming the class, if ASM cannot read or write it
     */
    public byte[] weave(byte[] classFile, ClassLoader loader) throws WeavingException {
        return weaveReporting(classFile, loader).classFile();
    }

    /**
     * What weaving one class file gave.
     *
     * @param classFile      the woven class file, or the one given if there was nothing to weave
     * @param leftAsCompiled the methods of the class that may suspend but were left as compiled,
     *                       by name and descriptor ({@code run(Ljava/lang/Object;)Ljava/lang/Object;}),
     *                       in the class's order, each with why; a suspension inside one is refused
     */
    public record Outcome(byte[] classFile, Map<String, String> leftAsCompiled) {
    }

    /**
     * {@link #weave(byte[], ClassLoader)}, also saying which methods it left as compiled and why:
     * what a weaving tool reports to its user.
     *
     * @param classFile the class file's bytes, left unchanged
     * @param loader    where to read superclasses' class files from; null for the system class loader
     * @return the class file to use and the methods left as compiled
     * @throws WeavingException naming the class, if ASM cannot read or write it
     */
    public Outcome weaveReporting(byte[] classFile, ClassLoader loader) throws WeavingException {
        Map<String, String> leftAsCompiled = new HashMap<>();
        while (true) {
            try {
                return weave(classFile, loader, leftAsCompiled);
            } catch (MethodTooLargeException e) {
                leaveAsCompiled(classFile, e, leftAsCompiled);
            } catch (LimitExceededException e) {
                leaveLargestAsCompiled(classFile, e, leftAsCompiled);
            }
        }
    }

    /**
     * Records that the method with the most sites of those not left yet is to be left as
     * compiled: ASM gave up computing the stack-map frames of a woven method ({@code e}, which
     * names no method), and the method with the most sites has the largest twin. One that
     * cannot be found means the class cannot be woven.
     */
    static void leaveLargestAsCompiled(byte[] classFile, LimitExceededException e, Map<String, String> leftAsCompiled)
            throws WeavingException {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        MethodNode largest = type.methods.stream()
                .filter(m -> SuspensionSites.isCandidate(m) && !leftAsCompiled.containsKey(m.name + m.desc) && sites(m) > 0)
                .max(Comparator.comparingInt(Weaver::sites)).orElse(null);
        if (largest == null) {
            throw new WeavingException("cannot weave " + type.name.replace('/', '.') + ": " + e.getMessage(), e);
        }
        leftAsCompiled.put(largest.name + largest.desc, "it is too large to weave: ASM could not compute the stack-map"
                + " frames of its twin (" + e.getMessage() + ")");
    }

    /**
     * Records that the method {@code tooLarge} names, or whose twin it names, is to be left as
     * compiled, with the reason; one that was left already, or that is no method of the class
     * (a method the weaver adds), cannot be left, and the class cannot be woven. The methods
     * whose sites, at the bytes a site of that method took woven, would come to a tenth over the
     * limit are left too, their size an estimate: a class of many such methods is then woven
     * again once, not once for each. One nearer the limit is left only if it is found too large.
     */
    private static void leaveAsCompiled(byte[] classFile, MethodTooLargeException tooLarge, Map<String, String> leftAsCompiled)
            throws WeavingException {
        String key = TwinMethods.originalKey(tooLarge.getMethodName(), tooLarge.getDescriptor());
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        MethodNode method = type.methods.stream().filter(m -> (m.name + m.desc).equals(key)).findFirst().orElse(null);
        if (method == null || leftAsCompiled.containsKey(key)) {
            throw new WeavingException("cannot weave " + type.name.replace('/', '.') + ": " + tooLarge.getMessage(), tooLarge);
        }
        leftAsCompiled.put(key, tooLargeReason("", tooLarge.getCodeSize()));
        double bytesPerSite = (double) tooLarge.getCodeSize() / Math.max(1, sites(method));
        for (MethodNode other : type.methods) {
            long estimate = Math.round(sites(other) * bytesPerSite);
            if (SuspensionSites.isCandidate(other) && estimate > METHOD_LIMIT + METHOD_LIMIT / 10) {
                leftAsCompiled.putIfAbsent(other.name + other.desc, tooLargeReason("about ", estimate));
            }
        }
    }

    private static String tooLargeReason(String about, long bytes) {
        return String.format(Locale.ROOT, "it is too large to weave: woven, its code would be %s%,d bytes, over the JVM's"
                + " limit of 65,535 a method", about, bytes);
    }

    /** How many suspension sites {@code method} has: the calls weaving adds code at. */
    private static int sites(MethodNode method) {
        int sites = 0;
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof MethodInsnNode call && SuspensionSites.isSite(call)) {
                sites++;
            }
        }
        return sites;
    }

    /** {@link #weave(byte[], ClassLoader)}, leaving the methods {@code leftAsCompiled} names as compiled, for its reasons. */
    private static Outcome weave(byte[] classFile, ClassLoader loader, Map<String, String> leftAsCompiled)
            throws WeavingException {
        // 1. read, frames expanded so that every frame lists all its types
        ClassReader reader;
        ClassNode type = new ClassNode();
        try {
            reader = new ClassReader(classFile);
            reader.accept(type, ClassReader.EXPAND_FRAMES);
        } catch (RuntimeException e) {
            throw new WeavingException("cannot read " + (type.name == null ? "a class file" : type.name.replace('/', '.'))
                    + ": " + e, e);
        }
        if (!isWeavable(type)) {
            return new Outcome(classFile, Map.of());
        }
        PhaseDump dump = PhaseDump.fromSystemProperty();
        try {
            ClassHierarchy hierarchy = ClassHierarchy.of(loader);
            hierarchy.add(type.name, type.superName, type.access, type.interfaces);
            // 2. what serialization computes from the class as compiled, which weaving changes
            OptionalLong serialVersion = DefaultSerialVersion.of(type, hierarchy);
            // 3. the original bytecode index of every call and fingerprint of every method, before anything moves
            Map<AbstractInsnNode, Integer> siteIds = OriginalOffsets.of(reader, type);
            Map<String, String> hashes = new HashMap<>();
            type.methods.forEach(m -> hashes.put(m.name + m.desc, MethodHash.of(m)));
            // 4. subroutines inlined: each copy of a call gets a site id of its own
            SubroutineInlining.apply(type, siteIds);
            // 5. allocations whose constructor arguments may suspend move after those arguments
            deferAllocations(type, hierarchy, leftAsCompiled.keySet());
            if (dump != null) {
                dump.phase(type, 1, "deferred");
            }
            // 6. analysis: the bridges passed through rather than woven (javac's shape)
            List<PassThroughBridge> bridges = type.methods.stream()
                    .map(m -> PassThroughBridge.of(type, m, hashes.get(m.name + m.desc)))
                    .filter(Objects::nonNull)
                    .toList();
            Set<MethodNode> bridged = bridges.stream().map(PassThroughBridge::method).collect(Collectors.toSet());
            // 7. analysis of the other methods: suspension sites, their frames' types and live slots
            List<SuspensionSites> analyses = type.methods.stream()
                    .filter(m -> SuspensionSites.isCandidate(m) && !bridged.contains(m))
                    .map(m -> leftAsCompiled.containsKey(m.name + m.desc)
                            ? SuspensionSites.leftAsCompiled(m, hashes.get(m.name + m.desc), leftAsCompiled.get(m.name + m.desc))
                            : SuspensionSites.analyze(type.name, m, siteIds, hashes.get(m.name + m.desc), hierarchy))
                    .toList();
            // 8. rewrite: call sites, prologues, twins, site table; the serialVersionUID as compiled
            WovenSites sites = ClassRewriter.rewrite(type, analyses, bridges);
            serialVersion.ifPresent(value -> declareSerialVersion(type, value));
            if (dump != null) {
                dump.phase(type, 2, "woven");
            }
            // 9. write once to learn where each site's call lands, then again with that map
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
            return new Outcome(woven, leftAsCompiled(analyses));
        } catch (MethodTooLargeException | LimitExceededException e) {
            throw e; // a method to leave as compiled: weaveReporting weaves again without it
        } catch (RuntimeException e) {
            throw new WeavingException("cannot weave " + type.name.replace('/', '.') + ": " + e, e);
        }
    }

    /** The methods {@code analyses} left as compiled, in the class's order, with why. */
    private static Map<String, String> leftAsCompiled(List<SuspensionSites> analyses) {
        Map<String, String> left = new LinkedHashMap<>();
        for (SuspensionSites analysis : analyses) {
            if (analysis.unsupported() != null) {
                left.put(analysis.method().name + analysis.method().desc, analysis.unsupported());
            }
        }
        return java.util.Collections.unmodifiableMap(left);
    }

    private static void deferAllocations(ClassNode type, ClassHierarchy hierarchy, Set<String> leftAsCompiled) {
        for (MethodNode method : type.methods) {
            if (SuspensionSites.isCandidate(method) && !leftAsCompiled.contains(method.name + method.desc)) {
                try {
                    AllocationDeferral.apply(type.name, method, hierarchy);
                } catch (AnalyzerException | RuntimeException e) {
                    // left as it is: the analysis reports why the method cannot be woven
                }
            }
        }
    }

    /**
     * Whether weaving {@code type} changes anything it does: not a module or package descriptor,
     * not an annotation type, not an interface before version 52 (its only code, a static
     * initializer, never suspends), not woven already, and with a call other than a
     * constructor's in a method of its own, or a coroutine's {@code run} that the woven engine
     * may enter (constructors never suspend, so a class with neither can never be on a
     * suspended stack, and is left byte for byte as compiled).
     */
    private static boolean isWeavable(ClassNode type) {
        boolean descriptor = (type.access & (Opcodes.ACC_MODULE | Opcodes.ACC_ANNOTATION)) != 0
                || type.name.endsWith("package-info");
        return !descriptor && ClassRewriter.canBeWoven(type) && !ClassRewriter.isWoven(type)
                && (hasCall(type) || hasEntry(type));
    }

    private static boolean hasEntry(ClassNode type) {
        return type.methods.stream().anyMatch(m -> SuspensionSites.isCandidate(m) && TwinMethods.isEntry(m));
    }

    private static boolean hasCall(ClassNode type) {
        for (MethodNode method : type.methods) {
            for (AbstractInsnNode insn : method.instructions) {
                boolean constructorCall = insn instanceof MethodInsnNode call && call.name.equals("<init>");
                if (insn instanceof InvokeDynamicInsnNode || (insn instanceof MethodInsnNode && !constructorCall)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Declares the serialVersionUID the class had by default as compiled, as a class would in its
     * source, but synthetic: reflection that skips synthetic members sees the fields compiled.
     */
    private static void declareSerialVersion(ClassNode type, long value) {
        type.fields.add(new FieldNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC,
                "serialVersionUID", "J", null, value));
    }
}
