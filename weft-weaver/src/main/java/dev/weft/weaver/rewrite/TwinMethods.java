package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.WeavingContract;

import dev.weft.weaver.analysis.PassThroughBridge;
import dev.weft.weaver.analysis.SuspensionSite;
import dev.weft.weaver.analysis.SuspensionSites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The woven engine's twins (see {@code dev.weft.internal.woven.Twins}): for a method
 * {@code name(P...)R}, a copy named {@code name$weft(P..., Fiber)R} whose code
 * {@link TwinRewriter} then makes unwind and rewind. A class gets twins from class-file version
 * 51 on (they call through {@code invokedynamic}).
 *
 * <p>Every twin is private and synthetic, static if its method is, whatever its method's
 * access: reflection's {@code getMethods()} never lists one, and no twin overrides another. The
 * runtime calls a twin only directly, through the lookup its class registers, once it has chosen
 * the method a call runs; an interface's twins are private interface methods (class files of
 * version 52 on, the only interfaces woven). A twin carries its method's line numbers and local
 * variable tables, their ranges on the copied code, so that a debugger stopped in a twin shows the
 * method's lines and variables; its fiber has no name there.
 */
public final class TwinMethods implements Opcodes {

    static final String SUFFIX = WeavingContract.TWIN_SUFFIX;
    static final String FIBER = WeavingContract.FIBER_CLASS;
    static final String FIBER_DESC = "L" + FIBER + ";";

    /**
     * The twins (name and descriptor) by which the woven engine may enter a coroutine's body: those
     * of {@code Coroutine.run()}, {@code AsymCoroutine.run(Object)} and
     * {@code AsymRunnable.run(AsymCoroutine, Object)}, erased.
     */
    private static final Set<String> ENTRIES = Set.of(
            "run" + SUFFIX + "(" + FIBER_DESC + ")V",
            "run" + SUFFIX + "(Ljava/lang/Object;" + FIBER_DESC + ")Ljava/lang/Object;",
            "run" + SUFFIX + "(Ldev/weft/AsymCoroutine;Ljava/lang/Object;" + FIBER_DESC + ")Ljava/lang/Object;");

    private TwinMethods() {
    }

    /** Whether the classes of {@code type}'s version can have twins. */
    public static boolean canHaveTwins(ClassNode type) {
        return (type.version & 0xFFFF) >= V1_7;
    }

    /**
     * Whether {@code analysis}'s method gets a twin: it is woven, or has no site at all but is
     * a possible entry of the woven engine (a {@code run} of one of the entry shapes).
     */
    public static boolean getsTwin(SuspensionSites analysis) {
        return analysis.unsupported() == null && (!analysis.sites().isEmpty() || isEntry(analysis.method()));
    }

    /** Whether {@code method} has one of the shapes of a woven engine's entry (a coroutine's {@code run}). */
    public static boolean isEntry(MethodNode method) {
        return ENTRIES.contains(twinName(method) + twinDesc(method.desc));
    }

    /**
     * The twin of {@code analysis}'s method, not yet rewritten, with the analysis of the copy:
     * the same sites at the copied calls, the same line numbers and local variables, on the
     * copied labels. Must be called before the method itself is rewritten.
     */
    public static SuspensionSites copy(SuspensionSites analysis) {
        MethodNode original = analysis.method();
        MethodNode twin = new MethodNode(twinAccess(original), twinName(original), twinDesc(original.desc), null,
                original.exceptions.toArray(new String[0]));
        Map<LabelNode, LabelNode> labels = new HashMap<>();
        for (AbstractInsnNode insn : original.instructions) {
            if (insn instanceof LabelNode label) {
                labels.put(label, new LabelNode());
            }
        }
        Map<AbstractInsnNode, AbstractInsnNode> copies = new IdentityHashMap<>();
        for (AbstractInsnNode insn : original.instructions) {
            AbstractInsnNode copy = insn.clone(labels);
            copies.put(insn, copy);
            twin.instructions.add(copy);
        }
        for (TryCatchBlockNode block : original.tryCatchBlocks) {
            twin.tryCatchBlocks.add(new TryCatchBlockNode(labels.get(block.start), labels.get(block.end),
                    labels.get(block.handler), block.type));
        }
        twin.localVariables = copyLocalVariables(original, labels);
        twin.maxLocals = original.maxLocals;
        twin.maxStack = original.maxStack;
        List<SuspensionSite> sites = new ArrayList<>();
        for (SuspensionSite s : analysis.sites()) {
            sites.add(new SuspensionSite((MethodInsnNode) copies.get(s.call()), s.bci(), s.locals(), s.live(),
                    s.stackBelow(), s.receiver(), s.monitors(), s.nonNull(), s.receiverLocal(), s.line(), s.names()));
        }
        return new SuspensionSites(twin, analysis.hash(), sites, null);
    }

    /**
     * The twin of a bridge that the weaver passes through ({@link PassThroughBridge}): the bridge's
     * own code, its call linked as a twin's calls are ({@link TwinRewriter}), and nothing else. It
     * saves no frame and rebuilds none: when the coroutine unwinds, the twin it calls returns zero
     * or null, which it returns to its caller, which saves its own frame; when a frame is rebuilt
     * whose callee was the bridge, its caller calls it again with zero or null, which it passes on,
     * and the next prologue rebuilds the method it bridges to. Its receiver and arguments are its
     * caller's, so nothing of it needs keeping. It keeps the bridge's line number and local
     * variable table (javac's names {@code this} alone).
     * <pre>
     * name$weft(P..., Fiber) R:
     *   aload 0; xload argument_k; [checkcast T_k] ...   // as the bridge
     *   aload fiber
     *   invokedynamic name(Own, T..., Fiber) R' TwinLinker.link(opcode, Own)
     *   xreturn
     * </pre>
     */
    public static MethodNode passThrough(PassThroughBridge bridge) {
        MethodNode original = bridge.method();
        MethodNode twin = new MethodNode(twinAccess(original), twinName(original), twinDesc(original.desc), null,
                original.exceptions.toArray(new String[0]));
        int fiber = 1;
        for (Type argument : Type.getArgumentTypes(original.desc)) {
            fiber += argument.getSize();
        }
        Map<LabelNode, LabelNode> labels = new HashMap<>();
        for (AbstractInsnNode insn : original.instructions) {
            if (insn instanceof LabelNode label) {
                labels.put(label, new LabelNode());
            }
        }
        for (AbstractInsnNode insn : original.instructions) {
            if (insn == bridge.call()) {
                twin.instructions.add(new VarInsnNode(ALOAD, fiber));
                twin.instructions.add(TwinRewriter.linkedCall(bridge.call()));
            } else if (!(insn instanceof FrameNode)) { // a bridge has no branch, so no frame but the implicit first
                twin.instructions.add(insn.clone(labels));
            }
        }
        twin.localVariables = copyLocalVariables(original, labels);
        twin.maxLocals = fiber + 1;
        twin.maxStack = original.maxStack + 1;
        return twin;
    }

    /**
     * Private and synthetic; static, {@code synchronized} and {@code strictfp} as its method is
     * (the rest of the method's access, its visibility, {@code final}, bridge and varargs, would
     * only show it to reflection).
     */
    private static int twinAccess(MethodNode original) {
        return original.access & (ACC_STATIC | ACC_SYNCHRONIZED | ACC_STRICT) | ACC_PRIVATE | ACC_SYNTHETIC;
    }

    /**
     * The local variables of {@code original}, with their generic signatures (its
     * {@code LocalVariableTable} and {@code LocalVariableTypeTable}), on the twin's copies of
     * their labels ({@code labels}). The twin's code is the method's, so each range covers the
     * same instructions; what {@link TwinRewriter} adds inside a range writes none of the
     * method's own locals (its values go to locals after them), and what it adds at the start,
     * which writes them to rebuild a frame, is before every range. Null if the method has none.
     */
    private static List<LocalVariableNode> copyLocalVariables(MethodNode original, Map<LabelNode, LabelNode> labels) {
        if (original.localVariables == null) {
            return null;
        }
        List<LocalVariableNode> copies = new ArrayList<>();
        for (LocalVariableNode variable : original.localVariables) {
            copies.add(new LocalVariableNode(variable.name, variable.desc, variable.signature, labels.get(variable.start),
                    labels.get(variable.end), variable.index));
        }
        return copies;
    }

    private static String twinName(MethodNode m) {
        return m.name + SUFFIX;
    }

    /**
     * The key ({@code name + desc}) of the method whose twin is {@code name} of {@code desc}, or
     * that key itself if it is not a twin's.
     */
    public static String originalKey(String name, String desc) {
        Type type = Type.getMethodType(desc);
        Type[] parameters = type.getArgumentTypes();
        boolean twin = name.endsWith(SUFFIX) && parameters.length > 0
                && parameters[parameters.length - 1].getDescriptor().equals(FIBER_DESC);
        if (!twin) {
            return name + desc;
        }
        Type[] original = java.util.Arrays.copyOf(parameters, parameters.length - 1);
        return name.substring(0, name.length() - SUFFIX.length()) + Type.getMethodDescriptor(type.getReturnType(), original);
    }

    static String twinDesc(String desc) {
        Type type = Type.getMethodType(desc);
        Type[] parameters = java.util.Arrays.copyOf(type.getArgumentTypes(), type.getArgumentTypes().length + 1);
        parameters[parameters.length - 1] = Type.getType(FIBER_DESC);
        return Type.getMethodDescriptor(type.getReturnType(), parameters);
    }
}
