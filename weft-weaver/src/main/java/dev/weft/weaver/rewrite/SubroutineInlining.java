package dev.weft.weaver.rewrite;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.JSRInlinerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The first rewrite pass: replaces the {@code jsr}/{@code ret} subroutines of old class files by
 * copies of their code at each place they are called from (ASM's {@link JSRInlinerAdapter}), so
 * that the analysis and the woven code never meet a return address. Produces the site id of
 * every call: a call that appears once keeps its original bytecode index; the copies of a call
 * inside a subroutine, in the order they appear in the inlined code, get
 * {@code bci + 65536 * n} for the n-th copy, the first one (n = 0) keeping {@code bci}. An
 * original index is below 65536 (the JVM's limit on a method's code), so site ids are unique in
 * their method, and inlining is deterministic, so they are the same at every weave.
 *
 * <p>A method whose subroutines cannot be inlined (a subroutine that calls itself) is left as
 * it is, and the analysis reports it as unsupported.
 */
public final class SubroutineInlining implements Opcodes {

    /** What the site id of the n-th copy of a call adds, times n, to its original bytecode index. */
    public static final int COPY_STRIDE = 65536;

    private SubroutineInlining() {
    }

    /* Implementation notes: JSRInlinerAdapter clones instructions and tells no copy's original.
     * Each call's descriptor is first replaced by a String of its own (equal, not identical to
     * any other); a clone shares its original's String, so identity leads back to the original. */

    /**
     * Inlines the subroutines of each method of {@code type} that has any, replacing the method in
     * {@code type.methods}; {@code siteIds}, given the original bytecode index of every call,
     * receives the site id of every copy. Stack-map frames of an inlined method are dropped: its
     * types are inferred, as for a class file without frames. (Only a version-50 class file can
     * have both frames and subroutines; the JVM verifies one whose frames do not cover its code
     * with the old verifier, as it did before.)
     */
    public static void apply(ClassNode type, Map<AbstractInsnNode, Integer> siteIds) {
        for (int m = 0; m < type.methods.size(); m++) {
            MethodNode method = type.methods.get(m);
            if (hasSubroutines(method)) {
                MethodNode inlined = inline(method, siteIds);
                if (inlined != null) {
                    type.methods.set(m, inlined);
                }
            }
        }
    }

    private static boolean hasSubroutines(MethodNode method) {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn.getOpcode() == JSR || insn.getOpcode() == RET) {
                return true;
            }
        }
        return false;
    }

    /** The method with its subroutines inlined, or null if JSRInlinerAdapter refuses them. */
    private static MethodNode inline(MethodNode method, Map<AbstractInsnNode, Integer> siteIds) {
        Map<String, MethodInsnNode> originals = new IdentityHashMap<>();
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof MethodInsnNode call) {
                call.desc = new String(call.desc);
                originals.put(call.desc, call);
            }
        }
        String[] exceptions = method.exceptions.toArray(new String[0]);
        MethodNode inlined = new MethodNode(ASM9, method.access, method.name, method.desc, method.signature, exceptions);
        try {
            method.accept(new JSRInlinerAdapter(inlined, method.access, method.name, method.desc, method.signature,
                    exceptions));
        } catch (RuntimeException e) {
            return null;
        }
        Map<MethodInsnNode, Integer> copies = new HashMap<>();
        for (AbstractInsnNode insn : inlined.instructions.toArray()) {
            if (insn instanceof FrameNode) {
                inlined.instructions.remove(insn);
            } else if (insn instanceof MethodInsnNode call) {
                MethodInsnNode original = originals.get(call.desc);
                int copy = copies.merge(original, 1, Integer::sum) - 1;
                siteIds.put(call, siteIds.get(original) + COPY_STRIDE * copy);
            }
        }
        return inlined;
    }
}
