package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.PackedText;
import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.WeavingContract;

import dev.weft.weaver.analysis.MethodHash;
import dev.weft.weaver.analysis.PassThroughBridge;
import dev.weft.weaver.analysis.SuspensionSites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The rewrite pass for one class: adds each method's twin ({@link TwinMethods}), which is what
 * runs in a coroutine of either engine, and leaves the method itself as compiled; in a class
 * before version 51, which can have no twins, weaves each method that has suspension sites
 * instead ({@link MethodRewriter}); leaves each bridge it passes through as compiled
 * ({@link PassThroughBridge}) with a twin that only passes the call on, bootstraps its lambdas by Weft's metafactory
 * ({@link LambdaFactories}), makes the class's static initializer register its
 * site table with the runtime, and adds the method that returns where its sites landed, which
 * also marks the class as woven.
 *
 * <pre>
 * private static synthetic String $weft$siteTable() { return pack("weft-sites 11\ntable"); }   // long strings are pushed in parts, concatenated
 * private static synthetic String $weft$wovenSites() { return pack("key\twovenBci:bci,...\n..."); }   // the class's last method
 * static {
 *     WovenMethods.register(MethodHandles.lookup());   // the runtime calls the two methods above when it needs them
 *     ...the class's own static initializer
 * }
 * </pre>
 * where {@code pack} is {@link PackedText#pack}, done here: the constants hold the packed text.
 * Everything it adds is private and synthetic (the initializer is no member), so that the class
 * declares the same public members, and the same non-synthetic ones, as compiled, and
 * implements the same interfaces. The woven class must be one that can declare private static
 * methods: a class, or an interface of version 52 or later ({@link #canBeWoven}).
 */
public final class ClassRewriter implements Opcodes {

    private static final String TABLES = WeavingContract.TABLES_CLASS;
    private static final String WOVEN_SITES = WeavingContract.WOVEN_SITES_METHOD;
    /** The longest string constant written: its modified UTF-8, at most 2 bytes a packed text's char, must fit in 65,535 bytes. */
    private static final int PART = 32_000;

    private ClassRewriter() {
    }

    /**
     * Whether {@code type} is woven already: it declares the method that marks a woven class
     * ({@link WeavingContract#WOVEN_SITES_METHOD}), or the field that marked one up to format 8.
     */
    public static boolean isWoven(ClassNode type) {
        return type.methods.stream().anyMatch(m -> m.name.equals(WOVEN_SITES) && (m.access & ACC_STATIC) != 0)
                || type.fields.stream().anyMatch(f -> f.name.equals(WeavingContract.FORMER_MARKER));
    }

    /**
     * Whether {@code type} can be woven: it can declare the private static method that marks it,
     * as every class can, and an interface from version 52 on. An interface before that has no
     * code but its static initializer, which never suspends.
     */
    public static boolean canBeWoven(ClassNode type) {
        return (type.access & ACC_INTERFACE) == 0 || (type.version & 0xFFFF) >= V1_8;
    }

    /**
     * Weaves {@code type}, whose methods {@code analyses} describes. Returns where each site's call
     * lands in the woven code, for {@link #addWovenSites} once the class has been written. A class
     * file keeps its version: before version 50, woven code declares no stack-map frames, and
     * before version 49 it reads its own class from a field ({@link OwnClass}).
     */
    public static WovenSites rewrite(ClassNode type, List<SuspensionSites> analyses, List<PassThroughBridge> bridges) {
        if (!canBeWoven(type)) {
            throw new IllegalArgumentException("an interface before version 52 cannot be woven: " + type.name);
        }
        OwnClass ownClass = new OwnClass(type);
        boolean frames = (type.version & 0xFFFF) >= V1_6;
        WovenSites woven = new WovenSites();
        Set<MethodNode> rewritten = new HashSet<>();
        List<MethodNode> twins = new ArrayList<>();
        Map<String, Integer> twinned = twinned(type, analyses, bridges);
        for (SuspensionSites analysis : analyses) {
            if (TwinMethods.canHaveTwins(type) && TwinMethods.getsTwin(analysis)) {
                SuspensionSites twin = TwinMethods.copy(analysis);
                TwinRewriter.rewrite(type.name, (type.access & ACC_INTERFACE) != 0, twin, twinned);
                twins.add(twin.method());
            }
            if (!TwinMethods.canHaveTwins(type) && analysis.unsupported() == null && !analysis.sites().isEmpty()) {
                MethodNode m = analysis.method();
                woven.add(m.name + m.desc, MethodRewriter.rewrite(type.name, analysis, ownClass, frames));
                rewritten.add(m);
            }
        }
        if (TwinMethods.canHaveTwins(type)) {
            bridges.forEach(bridge -> twins.add(TwinMethods.passThrough(bridge)));
        }
        for (MethodNode m : type.methods) {
            if (!rewritten.contains(m)) {
                woven.add(m.name + m.desc, labelCalls(m));
            }
        }
        type.methods.addAll(twins);
        if (TwinMethods.canHaveTwins(type)) {
            LambdaFactories.rewrite(type);
        }
        MethodNode initializer = registerTable(type, table(type, analyses, bridges));
        ownClass.declare(initializer);
        return woven;
    }

    /** The access flags of each method of {@code type} that gets a twin, by key ({@code name + desc}). */
    private static Map<String, Integer> twinned(ClassNode type, List<SuspensionSites> analyses, List<PassThroughBridge> bridges) {
        Map<String, Integer> twinned = new HashMap<>();
        if (TwinMethods.canHaveTwins(type)) {
            analyses.stream().filter(TwinMethods::getsTwin).map(SuspensionSites::method)
                    .forEach(m -> twinned.put(m.name + m.desc, m.access));
            bridges.forEach(bridge -> twinned.put(bridge.method().name + bridge.method().desc, bridge.method().access));
        }
        return twinned;
    }

    /**
     * Labels each call of a method left as it is, as no site ({@link SiteTable.NOT_A_SITE}): a
     * frame suspended there must not be taken for a woven method's frame suspended at the same
     * bytecode index, when the runtime identifies frames by class and index alone.
     */
    private static Map<LabelNode, Integer> labelCalls(MethodNode method) {
        Map<LabelNode, Integer> labels = new LinkedHashMap<>();
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            if (insn instanceof MethodInsnNode || insn instanceof InvokeDynamicInsnNode) {
                LabelNode label = new LabelNode();
                method.instructions.insertBefore(insn, label);
                labels.put(label, SiteTable.NOT_A_SITE);
            }
        }
        return labels;
    }

    /**
     * Adds, as the class's last method, {@code $weft$wovenSites()}, which returns {@code map}:
     * the woven bytecode index of each site's call, for the runtime to tell which site a
     * suspended frame is at. Being last, and the only user of its constant, it moves no other
     * instruction. Every woven class declares it, and it marks the class as woven.
     */
    public static void addWovenSites(ClassNode type, String map) {
        MethodNode method = new MethodNode(ACC_STATIC | ACC_SYNTHETIC | ACC_PRIVATE, WOVEN_SITES, "()Ljava/lang/String;", null, null);
        method.instructions.add(pushPacked(map));
        method.instructions.add(new InsnNode(ARETURN));
        type.methods.add(method);
    }

    /**
     * The site table: a line per woven method, one per method left unwoven that a frame may be
     * suspended in, with the reason (a constructor that calls what may suspend is one), and one
     * per bridge passed through, with the method it bridges to.
     */
    private static String table(ClassNode type, List<SuspensionSites> analyses, List<PassThroughBridge> bridges) {
        List<SiteTable.Method> table = new ArrayList<>();
        for (SuspensionSites analysis : analyses) {
            if (analysis.unsupported() != null || !analysis.sites().isEmpty()) {
                table.add(analysis.tableEntry());
            }
        }
        bridges.forEach(bridge -> table.add(bridge.tableEntry()));
        for (MethodNode m : type.methods) {
            if (m.name.equals("<init>") && mayCallSuspendingCode(m)) {
                table.add(new SiteTable.Method(m.name + m.desc, MethodHash.of(m), List.of(), "constructors are never woven"));
            }
        }
        return SiteTable.write(type.sourceFile, table);
    }

    private static boolean mayCallSuspendingCode(MethodNode method) {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof InvokeDynamicInsnNode || insn instanceof MethodInsnNode call && SuspensionSites.isSite(call)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Pushes {@code text}, packed ({@link PackedText}), however long: a string constant's modified
     * UTF-8 must fit in 65,535 bytes, so a long one is pushed in parts of {@link #PART} characters
     * and concatenated.
     */
    private static InsnList pushPacked(String plain) {
        String text = PackedText.pack(plain);
        InsnList code = new InsnList();
        code.add(new LdcInsnNode(text.substring(0, Math.min(text.length(), PART))));
        for (int from = PART; from < text.length(); from += PART) {
            code.add(new LdcInsnNode(text.substring(from, Math.min(text.length(), from + PART))));
            code.add(new MethodInsnNode(INVOKEVIRTUAL, "java/lang/String", "concat", "(Ljava/lang/String;)Ljava/lang/String;",
                    false));
        }
        return code;
    }

    /** {@code MethodHandles.lookup()}: the class's own full-privilege lookup, which proves to the runtime who registers. */
    private static MethodInsnNode lookup() {
        return new MethodInsnNode(INVOKESTATIC, "java/lang/invoke/MethodHandles", "lookup",
                "()Ljava/lang/invoke/MethodHandles$Lookup;", false);
    }

    /** Inserts the registration of {@code table} at the start of the class's initializer, made if need be; returns it. */
    private static MethodNode registerTable(ClassNode type, String table) {
        MethodNode tableMethod = new MethodNode(ACC_STATIC | ACC_SYNTHETIC | ACC_PRIVATE, WeavingContract.SITE_TABLE_METHOD,
                "()Ljava/lang/String;", null, null);
        tableMethod.instructions.add(pushPacked(table)); // an empty table too: the runtime reads it
        tableMethod.instructions.add(new InsnNode(ARETURN));
        type.methods.add(tableMethod);
        InsnList code = new InsnList();
        code.add(lookup());
        code.add(new MethodInsnNode(INVOKESTATIC, TABLES, WeavingContract.REGISTER_METHOD,
                WeavingContract.REGISTER_LOOKUP_DESCRIPTOR, false));
        MethodNode initializer = type.methods.stream().filter(m -> m.name.equals("<clinit>")).findFirst().orElse(null);
        if (initializer == null) {
            initializer = new MethodNode(ACC_STATIC, "<clinit>", "()V", null, null);
            initializer.instructions.add(new InsnNode(RETURN));
            type.methods.add(initializer);
        }
        initializer.instructions.insert(code);
        return initializer;
    }
}
