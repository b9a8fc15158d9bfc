package dev.weft.weaver.analysis;

import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.WeavingContract;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The analysis of a bridge method that the weaver passes through instead of weaving it
 * ({@link WeavingContract#BRIDGE_ACCESS}): one whose code has exactly the shape javac gives a
 * bridge, so that it holds nothing but its receiver and arguments, on their way to the method
 * it bridges to:
 * <pre>
 *   aload 0
 *   xload argument_k; [checkcast T_k]      // each argument, in order, a reference at most cast
 *   invokevirtual Own.name(T...)R          // invokeinterface in an interface; the same name,
 *                                          // another descriptor, as many arguments
 *   xreturn                                // of the bridge's own return type
 * </pre>
 * with no handler. Neither engine saves a frame of it (see {@code dev.weft.internal.frames.Bridges}):
 * left as compiled, it is called again whenever its caller's call is; its twin calls the twin of
 * the method it bridges to. A bridge of any other shape, or a method with the bridge flags that
 * another compiler made, is not one: it is woven as an ordinary method.
 *
 * @param method the bridge as compiled
 * @param hash the fingerprint of its code ({@link MethodHash})
 * @param call its one call, of the method it bridges to
 */
public record PassThroughBridge(MethodNode method, String hash, MethodInsnNode call) implements Opcodes {

    /** {@code method} of {@code type} as a bridge passed through, or null if it is not one; {@code hash} its fingerprint. */
    public static PassThroughBridge of(ClassNode type, MethodNode method, String hash) {
        if ((method.access & WeavingContract.BRIDGE_ACCESS) != WeavingContract.BRIDGE_ACCESS
                || (method.access & (ACC_STATIC | ACC_ABSTRACT | ACC_NATIVE)) != 0 || !method.tryCatchBlocks.isEmpty()) {
            return null;
        }
        MethodInsnNode call = callOfSimpleShape(type, method);
        return call == null ? null : new PassThroughBridge(method, hash, call);
    }

    /** The one call of {@code method}'s code if it has the shape above; else null. */
    private static MethodInsnNode callOfSimpleShape(ClassNode type, MethodNode method) {
        AbstractInsnNode insn = Instructions.atOrAfter(method.instructions.getFirst());
        if (!isLoad(insn, ALOAD, 0)) {
            return null;
        }
        Type[] arguments = Type.getArgumentTypes(method.desc);
        Type[] passed = new Type[arguments.length];
        int slot = 1;
        for (int k = 0; k < arguments.length; k++) {
            insn = Instructions.next(insn);
            if (!isLoad(insn, arguments[k].getOpcode(ILOAD), slot)) {
                return null;
            }
            passed[k] = arguments[k];
            if (Instructions.next(insn) instanceof TypeInsnNode cast && cast.getOpcode() == CHECKCAST) {
                insn = cast;
                passed[k] = Type.getObjectType(cast.desc);
            }
            slot += arguments[k].getSize();
        }
        insn = Instructions.next(insn);
        if (!(insn instanceof MethodInsnNode call) || !isBridgedCall(type, method, call, passed)) {
            return null;
        }
        AbstractInsnNode last = Instructions.next(call);
        boolean returnsResult = last != null && last.getOpcode() == Type.getReturnType(method.desc).getOpcode(IRETURN)
                && Instructions.next(last) == null;
        return returnsResult ? call : null;
    }

    private static boolean isLoad(AbstractInsnNode insn, int opcode, int slot) {
        return insn instanceof VarInsnNode load && load.getOpcode() == opcode && load.var == slot;
    }

    /**
     * Whether {@code call} is a bridge's call of the method it bridges to: a virtual call named in
     * the bridge's own class, of the same name and another descriptor, taking exactly the
     * {@code passed} arguments and returning what the bridge may return as it is.
     */
    private static boolean isBridgedCall(ClassNode type, MethodNode bridge, MethodInsnNode call, Type[] passed) {
        boolean isInterface = (type.access & ACC_INTERFACE) != 0;
        Type result = Type.getReturnType(call.desc);
        Type bridgeResult = Type.getReturnType(bridge.desc);
        boolean resultFits = result.equals(bridgeResult) || isReference(result) && isReference(bridgeResult);
        return call.getOpcode() == (isInterface ? INVOKEINTERFACE : INVOKEVIRTUAL) && call.itf == isInterface
                && call.owner.equals(type.name) && call.name.equals(bridge.name) && !call.desc.equals(bridge.desc)
                && List.of(Type.getArgumentTypes(call.desc)).equals(List.of(passed)) && resultFits;
    }

    private static boolean isReference(Type type) {
        return type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY;
    }

    /** The key (name and descriptor) of the method this bridge calls. */
    public String bridgeTo() {
        return call.name + call.desc;
    }

    /** This bridge's entry in its class's site table. */
    public SiteTable.Method tableEntry() {
        return new SiteTable.Method(method.name + method.desc, hash, List.of(), null, bridgeTo());
    }
}
