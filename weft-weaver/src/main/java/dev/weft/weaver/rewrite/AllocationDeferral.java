package dev.weft.weaver.rewrite;

import dev.weft.weaver.analysis.ClassHierarchy;
import dev.weft.weaver.analysis.FrameTypes;
import dev.weft.weaver.analysis.Instructions;
import dev.weft.weaver.analysis.SlotType;
import dev.weft.weaver.analysis.SuspensionSites;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * A pass that runs before the analysis: where a constructor's arguments contain a suspension
 * site ({@code new Foo(a, suspends())}), it moves the allocation after the arguments, so that no
 * uninitialized object is on the stack while the coroutine may be suspended (the JVM has no way
 * to save or rebuild one). Kilim does the same.
 *
 * <pre>
 * new Foo; dup; [args, with a call that may suspend]; invokespecial Foo.&lt;init&gt;
 *   becomes
 * [args]; args -&gt; scratch; new Foo; dup; scratch -&gt; args; invokespecial Foo.&lt;init&gt;
 * </pre>
 *
 * The only visible difference is that {@code Foo}'s class initializer, if it has not run yet,
 * runs after the arguments are evaluated instead of before.
 */
public final class AllocationDeferral implements Opcodes {

    private record Allocation(TypeInsnNode allocate, AbstractInsnNode duplicate, MethodInsnNode construct) {
    }

    private AllocationDeferral() {
    }

    /**
     * Rewrites the allocations of {@code method} (of class {@code owner}) that need it; returns
     * whether any did. {@code hierarchy} serves a method without stack-map frames.
     */
    public static boolean apply(String owner, MethodNode method, ClassHierarchy hierarchy) throws AnalyzerException {
        List<Allocation> allocations = findDeferrable(owner, method, hierarchy);
        for (Allocation allocation : allocations) {
            defer(method, allocation);
        }
        return !allocations.isEmpty();
    }

    private static List<Allocation> findDeferrable(String owner, MethodNode method, ClassHierarchy hierarchy)
            throws AnalyzerException {
        FrameTypes types = FrameTypes.compute(owner, method, hierarchy);
        InsnList insns = method.instructions;
        List<Allocation> found = new ArrayList<>();
        for (int i = 0; i < insns.size(); i++) {
            if (!(insns.get(i) instanceof MethodInsnNode call) || call.getOpcode() != INVOKESPECIAL
                    || !call.name.equals("<init>") || types.before(i) == null) {
                continue;
            }
            Frame<SlotType> frame = types.before(i);
            int arguments = Type.getArgumentTypes(call.desc).length;
            int receiver = frame.getStackSize() - 1 - arguments;
            SlotType value = frame.getStack(receiver);
            if (value.kind() != SlotType.Kind.UNINITIALIZED || receiver < 1 || !value.equals(frame.getStack(receiver - 1))) {
                continue;
            }
            TypeInsnNode allocate = (TypeInsnNode) value.newInsn();
            AbstractInsnNode duplicate = Instructions.next(allocate);
            if (duplicate.getOpcode() == DUP && hasSiteBetween(insns, duplicate, call)) {
                found.add(new Allocation(allocate, duplicate, call));
            }
        }
        return found;
    }

    private static boolean hasSiteBetween(InsnList insns, AbstractInsnNode from, AbstractInsnNode to) {
        for (AbstractInsnNode n = from.getNext(); n != to; n = n.getNext()) {
            if (n instanceof MethodInsnNode call && SuspensionSites.isSite(call)) {
                return true;
            }
        }
        return false;
    }

    private static void defer(MethodNode method, Allocation allocation) {
        InsnList insns = method.instructions;
        for (AbstractInsnNode n = allocation.duplicate().getNext(); n != allocation.construct(); n = n.getNext()) {
            if (n instanceof FrameNode frame && frame.stack != null) {
                frame.stack.removeIf(item -> item instanceof LabelNode label && Instructions.atOrAfter(label) == allocation.allocate());
            }
        }
        insns.remove(allocation.allocate());
        insns.remove(allocation.duplicate());
        Type[] arguments = Type.getArgumentTypes(allocation.construct().desc);
        int[] scratch = new int[arguments.length];
        for (int k = 0; k < arguments.length; k++) {
            scratch[k] = method.maxLocals;
            method.maxLocals += arguments[k].getSize();
        }
        InsnList code = new InsnList();
        for (int k = arguments.length - 1; k >= 0; k--) {
            code.add(SlotCode.store(SlotType.of(arguments[k]), scratch[k]));
        }
        code.add(new TypeInsnNode(NEW, allocation.allocate().desc));
        code.add(new InsnNode(DUP));
        for (int k = 0; k < arguments.length; k++) {
            code.add(SlotCode.load(SlotType.of(arguments[k]), scratch[k]));
        }
        insns.insertBefore(allocation.construct(), code);
    }
}
