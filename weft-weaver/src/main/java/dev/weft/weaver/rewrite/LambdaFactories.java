package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.WeavingContract;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The rewrite pass for the lambdas and method references of a woven class: each
 * {@code invokedynamic} that {@code LambdaMetafactory} bootstraps is bootstrapped by Weft's
 * {@code WovenLambdas} instead, with the same name, type and arguments:
 * <pre>
 * invokedynamic run(captured...)Runnable LambdaMetafactory.metafactory(samType, implementation, instantiatedType)
 *   becomes
 * invokedynamic run(captured...)Runnable WovenLambdas.metafactory(samType, implementation, instantiatedType)
 * </pre>
 * which makes the same call site, and notes the implementation's twin for the woven engine (a
 * lambda as a body, or called in the middle of the chain of woven frames).
 */
final class LambdaFactories implements Opcodes {

    private LambdaFactories() {
    }

    /** Rewrites every lambda factory of {@code type}'s methods. */
    static void rewrite(ClassNode type) {
        for (MethodNode method : type.methods) {
            for (AbstractInsnNode insn : method.instructions) {
                if (insn instanceof InvokeDynamicInsnNode indy && indy.bsm.getOwner().equals(WeavingContract.LAMBDA_METAFACTORY_CLASS)
                        && indy.bsm.getTag() == H_INVOKESTATIC) {
                    indy.bsm = new Handle(H_INVOKESTATIC, WeavingContract.LAMBDAS_CLASS, indy.bsm.getName(), indy.bsm.getDesc(),
                            false);
                }
            }
        }
    }
}
