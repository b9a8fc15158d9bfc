package dev.weft.internal.frames;

import dev.weft.internal.woven.WovenMethods;

import java.lang.reflect.Method;

/**
 * Bridge methods that the weaver passes through ({@code WeavingContract.BRIDGE_ACCESS}, the
 * site table's {@code bridgeTo}): a bridge of the shape javac gives them only casts its
 * arguments and calls, on its own receiver, the method it bridges to. Neither engine ever saves
 * a frame of one (the woven engine's twin of it saves none; the native engine runs it unwoven
 * and its stack check lets it by), so a frame list, which both engines read and write alike,
 * never holds one: a call that reaches such a bridge stands for a call of the method it bridges
 * to, whose frame comes next. Their class's site table, written by the weaver, is the one
 * record of which bridges these are.
 *
 * <p>Stateless; any thread.
 */
public final class Bridges {

    /**
     * How many bridges in a row are followed: javac's bridge calls the method it bridges to
     * directly, so one is all a compiled class needs, and a longer chain ends here rather than
     * loop in a class made to.
     */
    private static final int MOST_BRIDGES = 8;

    private Bridges() {
    }

    /**
     * The method that runs, and whose frame stands, when {@code method} is called on a receiver
     * of class {@code receiverClass} (null when unknown: then as the bridge's own class resolves
     * the call): {@code method} itself unless it is a bridge the weaver passed through, else the
     * method it calls, as the JVM selects it for that receiver, and so on through further such
     * bridges. A bridge whose target cannot be found is returned as it is.
     */
    public static Method passedThrough(Method method, Class<?> receiverClass) {
        Method m = method;
        for (int k = 0; k < MOST_BRIDGES; k++) {
            String target = bridgeTo(m);
            if (target == null) {
                return m;
            }
            Class<?> owner = m.getDeclaringClass();
            Method next = receiverClass != null && owner.isAssignableFrom(receiverClass)
                    ? CallTargets.selected(owner, target, receiverClass)
                    : CallTargets.resolve(owner, target);
            if (next == null) {
                return m;
            }
            m = next;
        }
        return m;
    }

    /** The key of the method {@code method} bridges to if the weaver passed it through; else null. */
    private static String bridgeTo(Method method) {
        if (!method.isBridge()) {
            return null;
        }
        WovenMethods.WovenMethod woven = WovenMethods.methodOf(method);
        return woven == null ? null : woven.bridgeTo();
    }
}
