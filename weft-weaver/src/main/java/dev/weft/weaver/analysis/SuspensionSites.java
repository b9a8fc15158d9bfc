package dev.weft.weaver.analysis;

import dev.weft.internal.contract.SiteTable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * The analysis pass: for one method, its suspension sites and the frame at each, or the reason
 * it cannot be woven. A site is every call, except constructor calls and calls of a few JDK
 * classes that never call back into user code.
 *
 * @param method the method as compiled
 * @param hash the fingerprint of its code ({@link MethodHash})
 * @param sites its suspension sites, in code order
 * @param unsupported why the method is left as it is, or null if it is woven
 */
public record SuspensionSites(MethodNode method, String hash, List<SuspensionSite> sites, String unsupported) {

    /** Owners whose methods never call user code, so never suspend: their calls are not sites. */
    private static final Set<String> NEVER_SUSPEND = Set.of("java/lang/String", "java/lang/StringBuilder",
            "java/lang/Math", "java/lang/StrictMath", "java/lang/Integer", "java/lang/Long", "java/lang/Short",
            "java/lang/Byte", "java/lang/Character", "java/lang/Boolean", "java/lang/Float", "java/lang/Double",
            "java/util/Objects", "java/lang/invoke/StringConcatFactory");

    /** Whether the weaver considers weaving {@code method} at all: it has code and may be suspended in. */
    public static boolean isCandidate(MethodNode method) {
        return (method.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0
                && !method.name.equals("<init>") && !method.name.equals("<clinit>");
    }

    /**
     * Analyses {@code method} of class {@code owner}.
     *
     * @param siteIds the site id of each call instruction: its original bytecode index, plus
     *        65536 times its copy number for a further copy of an inlined subroutine's call
     *        ({@code SubroutineInlining})
     * @param hash the fingerprint of the method's code as compiled ({@link MethodHash})
     * @param hierarchy where superclasses are found for a method without stack-map frames
     */
    public static SuspensionSites analyze(String owner, MethodNode method, Map<AbstractInsnNode, Integer> siteIds,
            String hash, ClassHierarchy hierarchy) {
        String unsupported = unsupportedShape(method);
        if (unsupported != null) {
            return new SuspensionSites(method, hash, List.of(), unsupported);
        }
        FrameTypes types;
        try {
            types = FrameTypes.compute(owner, method, hierarchy);
        } catch (AnalyzerException | RuntimeException e) {
            return new SuspensionSites(method, hash, List.of(), "its code does not type-check: " + e.getMessage());
        }
        Liveness liveness = Liveness.compute(method);
        IntWidths widths = IntWidths.compute(owner, method, types);
        NonNullValues nonNull = NonNullValues.compute(owner, method);
        MonitorDepth monitors = MonitorDepth.compute(method);
        SourceNames names = SourceNames.compute(method);
        List<SuspensionSite> sites = new ArrayList<>();
        InsnList insns = method.instructions;
        for (int i = 0; i < insns.size(); i++) {
            if (!(insns.get(i) instanceof MethodInsnNode call) || !isSite(call) || types.before(i) == null) {
                continue;
            }
            SuspensionSite site = site(call, siteIds.get(call), types.before(i), liveness, widths, nonNull, names, i,
                    monitors.before(i));
            String refused = site == null ? "is inside the arguments of a constructor call" : unresolved(site);
            if (refused != null) {
                return new SuspensionSites(method, hash, List.of(), "the call of " + call.owner + "." + call.name
                        + " at bci " + (siteIds.get(call) & 0xFFFF) + " " + refused);
            }
            sites.add(site);
        }
        return new SuspensionSites(method, hash, sites, null);
    }

    /** {@code method}, left as compiled for {@code reason}: no site, and the reason in its class's site table. */
    public static SuspensionSites leftAsCompiled(MethodNode method, String hash, String reason) {
        return new SuspensionSites(method, hash, List.of(), reason);
    }

    private static String unsupportedShape(MethodNode method) {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn.getOpcode() == Opcodes.JSR || insn.getOpcode() == Opcodes.RET) {
                return "its jsr/ret subroutines cannot be inlined (ASM's JSRInlinerAdapter refuses them, as it does a subroutine that calls itself)";
            }
        }
        return null;
    }

    /**
     * Why the frame of {@code site} cannot be restored so that it verifies, or null: a saved
     * value whose type is a guess, where the old verifier may infer a more precise one.
     */
    private static String unresolved(SuspensionSite site) {
        List<SlotType> saved = new ArrayList<>(site.stackBelow());
        site.live().stream().forEach(slot -> saved.add(site.locals().get(slot)));
        if (site.receiver() != null) {
            saved.add(site.receiver());
        }
        return saved.stream().filter(t -> t.unresolved() != null).findFirst()
                .map(t -> "saves a value whose type merges classes whose superclasses the weaver cannot find (the class file of "
                        + t.unresolved().replace('/', '.') + " is missing): weave with a class loader that has it")
                .orElse(null);
    }

    /** Whether {@code call} is a suspension site: any call but a constructor's or one of a JDK class that never calls back. */
    public static boolean isSite(MethodInsnNode call) {
        return !call.name.equals("<init>") && !NEVER_SUSPEND.contains(call.owner);
    }

    /**
     * The site of {@code call} given the frame before it; null if that frame holds an
     * uninitialized object. An instance method's receiver is always saved: a restore calls the
     * outermost frame's method on it.
     */
    private static SuspensionSite site(MethodInsnNode call, int bci, Frame<SlotType> frame, Liveness liveness,
            IntWidths widths, NonNullValues facts, SourceNames names, int index, int monitors) {
        int arguments = Type.getArgumentTypes(call.desc).length;
        boolean hasReceiver = call.getOpcode() != Opcodes.INVOKESTATIC;
        int below = frame.getStackSize() - arguments - (hasReceiver ? 1 : 0);
        List<SlotType> stack = new ArrayList<>();
        for (int i = 0; i < below; i++) {
            stack.add(widths.stack(index, i, frame.getStack(i)));
        }
        SlotType receiver = hasReceiver ? frame.getStack(below) : null;
        List<SlotType> locals = new ArrayList<>();
        BitSet live = new BitSet();
        for (int slot = 0; slot < frame.getLocals(); slot++) {
            SlotType type = widths.local(index, slot, frame.getLocal(slot));
            locals.add(type);
            boolean receiverOfInstanceMethod = slot == 0 && type.kind() == SlotType.Kind.REFERENCE;
            if ((liveness.isLive(index, slot) || receiverOfInstanceMethod)
                    && type.kind() != SlotType.Kind.TOP && !type.isUninitialized()) {
                live.set(slot);
            }
        }
        boolean uninitialized = stack.stream().anyMatch(SlotType::isUninitialized)
                || (receiver != null && receiver.isUninitialized())
                || locals.stream().anyMatch(SlotType::isUninitialized);
        BitSet nonNull = new BitSet();
        for (int slot = 0; slot < locals.size(); slot++) {
            if (facts.local(index, slot)) {
                nonNull.set(slot);
            }
        }
        int receiverLocal = hasReceiver ? facts.receiverLocal(index, below) : -1;
        if (receiverLocal >= 0 && locals.get(receiverLocal).isReference()) {
            nonNull.set(receiverLocal);
        }
        for (int i = 0, slot = locals.size(); i < below; slot += stack.get(i).getSize(), i++) {
            if (facts.stack(index, i)) {
                nonNull.set(slot);
            }
        }
        boolean savedAsLocal = receiverLocal >= 0 && live.get(receiverLocal) && locals.get(receiverLocal).equals(receiver);
        return uninitialized ? null : new SuspensionSite(call, bci, locals, live, stack, receiver, monitors, nonNull,
                savedAsLocal ? receiverLocal : -1, names.lineAt(index), names.namesAt(index, locals.size()));
    }

    /** This method's entry in its class's site table. */
    public SiteTable.Method tableEntry() {
        return new SiteTable.Method(method.name + method.desc, hash, sites.stream().map(SuspensionSite::tableEntry).toList(),
                unsupported);
    }
}
