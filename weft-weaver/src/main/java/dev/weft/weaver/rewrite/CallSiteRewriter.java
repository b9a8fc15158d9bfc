package dev.weft.weaver.rewrite;

import dev.weft.weaver.analysis.Instructions;
import dev.weft.weaver.analysis.SlotType;
import dev.weft.weaver.analysis.SuspensionSite;
import dev.weft.weaver.analysis.SuspensionSites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * What the two rewrite passes of a method share ({@link MethodRewriter} for capture and restore
 * by {@code CoroutineFrame}, {@link TwinRewriter} for the woven engine's twins): a label right
 * before each site's call, where a restore jumps with the operand stack rebuilt; the receiver
 * of an instance call kept in a local while the call is in progress; stack-map frames at the
 * labels they add.
 */
abstract class CallSiteRewriter implements Opcodes {

    final String owner;
    final MethodNode method;
    final SuspensionSites analysis;
    final boolean frames;
    /** The first local after the method's own that this pass may use. */
    final int firstFree;
    final Map<SuspensionSite, LabelNode> callLabels = new HashMap<>();

    CallSiteRewriter(String owner, SuspensionSites analysis, boolean frames, int firstFree) {
        this.owner = owner;
        this.method = analysis.method();
        this.analysis = analysis;
        this.frames = frames;
        this.firstFree = firstFree;
    }

    /** The local that holds the receiver of the call in progress. */
    abstract int receiverTemp();

    /** The first of the scratch locals, which hold a call's arguments or the stack below it for a moment. */
    abstract int firstScratch();

    /** The locals that the frames this pass adds declare, given the method's own at that point. */
    List<SlotType> frameLocals(List<SlotType> locals) {
        return locals;
    }

    /**
     * Puts {@code site}'s call label right before its call, with a frame if none stands there,
     * and saves the receiver of an instance call under it.
     */
    final void labelCall(SuspensionSite site) {
        MethodInsnNode call = site.call();
        InsnList insns = method.instructions;
        AbstractInsnNode previous = Instructions.previous(call);
        LabelNode callLabel = new LabelNode();
        InsnList entry = new InsnList();
        entry.add(callLabel);
        if (!hasFrameBetween(previous, call)) {
            addFrame(entry, frameLocals(site.locals()), stackBefore(site));
        }
        if (previous == null) {
            insns.insert(entry);
        } else {
            insns.insert(previous, entry);
        }
        callLabels.put(site, callLabel);
        if (keepsReceiver(site)) {
            insns.insertBefore(call, saveReceiver(call));
        }
    }

    /** Whether {@code site}'s receiver is copied into {@link #receiverTemp()} for the call: an instance call's is. */
    boolean keepsReceiver(SuspensionSite site) {
        return site.receiver() != null;
    }

    /** Adds a frame after {@code site}'s call (at {@code call}, its instruction now), where the code continues, if none stands there. */
    final void addFrameAfter(InsnList code, SuspensionSite site, AbstractInsnNode call) {
        if (!hasFrameBetween(call, Instructions.next(call))) {
            List<SlotType> stack = new ArrayList<>(site.stackBelow());
            SlotType result = SlotType.of(Type.getReturnType(site.call().desc));
            if (result != null) {
                stack.add(result);
            }
            addFrame(code, frameLocals(site.locals()), stack);
        }
    }

    static List<SlotType> stackBefore(SuspensionSite site) {
        List<SlotType> stack = new ArrayList<>(site.stackBelow());
        if (site.receiver() != null) {
            stack.add(site.receiver());
        }
        for (Type argument : Type.getArgumentTypes(site.call().desc)) {
            stack.add(SlotType.of(argument));
        }
        return stack;
    }

    /** Copies the receiver, under the arguments, into {@link #receiverTemp()}. */
    private InsnList saveReceiver(MethodInsnNode call) {
        InsnList code = new InsnList();
        Type[] arguments = Type.getArgumentTypes(call.desc);
        int[] scratch = scratchSlots(arguments);
        for (int k = arguments.length - 1; k >= 0; k--) {
            code.add(SlotCode.store(SlotType.of(arguments[k]), scratch[k]));
        }
        code.add(new InsnNode(DUP));
        code.add(new VarInsnNode(ASTORE, receiverTemp()));
        for (int k = 0; k < arguments.length; k++) {
            code.add(SlotCode.load(SlotType.of(arguments[k]), scratch[k]));
        }
        return code;
    }

    private int[] scratchSlots(Type[] types) {
        int[] slots = new int[types.length];
        int next = firstScratch();
        for (int k = 0; k < types.length; k++) {
            slots[k] = next;
            next += types[k].getSize();
        }
        return slots;
    }

    /** Moves the stack below {@code site}'s call, the top first, into scratch locals; returns them, bottom first. */
    final int[] stackBelowToScratch(InsnList code, SuspensionSite site) {
        List<SlotType> below = site.stackBelow();
        int[] scratch = new int[below.size()];
        int next = firstScratch();
        for (int j = 0; j < below.size(); j++) {
            scratch[j] = next;
            next += below.get(j).getSize();
        }
        for (int j = below.size() - 1; j >= 0; j--) {
            code.add(SlotCode.store(below.get(j), scratch[j]));
        }
        return scratch;
    }

    /** Where a restore takes a saved value from: pushes the value of frame slot {@code slot} (locals, then the stack), of {@code type}. */
    interface SavedValues {
        void push(InsnList code, int slot, SlotType type);
    }

    /**
     * The end of a restore at {@code site}: every local of its frame set from {@code saved} if
     * live, else to zero or null; the stack below the call and its receiver pushed from
     * {@code saved}; zero or null for each argument; then a jump to the call, which the callee,
     * woven too, restores itself in turn.
     */
    final void restoreAndJump(InsnList code, SuspensionSite site, SavedValues saved) {
        int slot = restoreFrame(code, site, saved);
        if (site.receiver() != null) {
            saved.push(code, slot, site.receiver());
        }
        for (Type argument : Type.getArgumentTypes(site.call().desc)) {
            code.add(SlotCode.defaultValue(SlotType.of(argument)));
        }
        code.add(new JumpInsnNode(GOTO, callLabels.get(site)));
    }

    /**
     * Sets every local of {@code site}'s frame from {@code saved} if live, else to zero or null,
     * and pushes the stack below the call from {@code saved}; returns the frame slot of the
     * call's receiver, the next saved value.
     */
    final int restoreFrame(InsnList code, SuspensionSite site, SavedValues saved) {
        List<SlotType> locals = site.locals();
        for (int slot = 0; slot < locals.size(); slot++) {
            SlotType type = locals.get(slot);
            if (type.kind() == SlotType.Kind.TOP || type.isUninitialized() || type.kind() == SlotType.Kind.RETURN_ADDRESS) {
                continue;
            }
            if (site.live().get(slot)) {
                saved.push(code, slot, type);
            } else {
                code.add(SlotCode.defaultValue(type));
            }
            code.add(SlotCode.store(type, slot));
        }
        int slot = locals.size();
        for (SlotType type : site.stackBelow()) {
            saved.push(code, slot, type);
            slot += type.getSize();
        }
        return slot;
    }

    /** The locals at the method's start: the receiver, if any, and the parameters. */
    final List<SlotType> entryLocals() {
        List<SlotType> locals = new ArrayList<>();
        if ((method.access & ACC_STATIC) == 0) {
            locals.add(SlotType.ofInternalName(owner));
        }
        for (Type argument : Type.getArgumentTypes(method.desc)) {
            SlotType type = SlotType.of(argument);
            locals.add(type);
            if (type.getSize() == 2) {
                locals.add(SlotType.TOP);
            }
        }
        return locals;
    }

    /** {@code locals}, then TOP up to {@code slot}, then {@code type} there. */
    static List<SlotType> withLocal(List<SlotType> locals, int slot, SlotType type) {
        List<SlotType> out = new ArrayList<>(locals);
        while (out.size() < slot) {
            out.add(SlotType.TOP);
        }
        out.add(type);
        return out;
    }

    /** Adds a stack-map frame with these types, if the class file has stack-map frames. */
    final void addFrame(InsnList code, List<SlotType> locals, List<SlotType> stack) {
        if (frames) {
            code.add(FrameItems.frame(locals, stack));
        }
    }

    /** Whether a stack-map frame stands between {@code from} (exclusive; null for the method's start) and {@code to}. */
    final boolean hasFrameBetween(AbstractInsnNode from, AbstractInsnNode to) {
        AbstractInsnNode n = from == null ? method.instructions.getFirst() : from.getNext();
        for (; n != null && n != to; n = n.getNext()) {
            if (n instanceof FrameNode) {
                return true;
            }
        }
        return false;
    }

    /** {@code sites} sorted by id, as a lookupswitch needs its keys. */
    static List<SuspensionSite> sortedById(List<SuspensionSite> sites) {
        List<SuspensionSite> sorted = new ArrayList<>(sites);
        sorted.sort((a, b) -> Integer.compare(a.bci(), b.bci()));
        return sorted;
    }
}
