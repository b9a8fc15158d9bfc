package dev.weft.internal.frames;

import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.woven.WovenMethods;

/**
 * One suspension site as {@link FrameValidator} checks frames against it: the type code of
 * every slot, locals first, and the called method. The class a reference slot names is resolved
 * through the woven class's loader on first use, then kept; any thread.
 */
final class SiteCheck {

    /** Type codes of the frame's slots, locals then stack, as in {@link WovenMethods}. */
    final String[] codes;
    /** The first character of each code: what kind of value the slot holds. */
    final char[] kinds;
    final int localCount;
    /** The called method: owner, name and descriptor. */
    final String target;
    /** The called method's name and descriptor. */
    final String targetKey;
    /** Whether the call selects its method by the receiver's class (invokevirtual, invokeinterface). */
    final boolean virtual;
    /** Whether the call has a receiver: the last stack slot. */
    final boolean hasReceiver;
    /** The local the receiver was loaded from and which still holds it, or -1 ({@link SiteTable.Site#receiverLocal}). */
    final int receiverLocal;
    /** The binary name of the class the call names. */
    final String targetOwner;
    private final Class<?>[] types;
    private Class<?> targetClass;
    /** The slots whose reference the code never leaves null at this site. */
    private final java.util.Set<Integer> nonNull;

    SiteCheck(SiteTable.Site site) {
        this.localCount = site.locals().size();
        this.codes = new String[localCount + site.stack().size()];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = i < localCount ? site.locals().get(i) : site.stack().get(i - localCount);
        }
        this.kinds = new char[codes.length];
        for (int i = 0; i < codes.length; i++) {
            kinds[i] = codes[i].charAt(0);
        }
        this.target = site.target();
        this.targetKey = site.targetKey();
        this.types = new Class<?>[codes.length];
        this.virtual = site.isVirtual();
        this.hasReceiver = site.opcode() != SiteTable.Site.INVOKESTATIC;
        this.receiverLocal = site.receiverLocal();
        this.targetOwner = site.targetOwner().replace('/', '.');
        this.nonNull = site.nonNull();
    }

    /** Whether the code never has null in slot {@code index} here. */
    boolean isNonNull(int index) {
        return nonNull.contains(index);
    }

    /**
     * The class the call names, as {@code caller}'s loader finds it (a name from the woven
     * class's own table, never from the frames); loaded without being initialized. Null if it
     * cannot be found.
     */
    Class<?> targetClass(Class<?> caller) {
        Class<?> type = targetClass;
        if (type == null) {
            try {
                type = Class.forName(targetOwner, false, caller.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return null;
            }
            targetClass = type; // a benign race: every thread resolves the same class
        }
        return type;
    }

    /** The class reference slot {@code index} must hold, as {@code owner}'s loader finds it; null if it cannot. */
    Class<?> typeAt(int index, Class<?> owner) {
        Class<?> type = types[index];
        if (type == null) {
            try {
                type = Class.forName(className(codes[index]), false, owner.getClassLoader());
            } catch (ClassNotFoundException e) {
                return null;
            }
            types[index] = type; // a benign race: every thread resolves the same class
        }
        return type;
    }

    /** The binary name of the class a reference type code names: {@code Lp/Foo;} or an array descriptor. */
    static String className(String code) {
        return code.startsWith("L") ? code.substring(1, code.length() - 1).replace('/', '.') : code.replace('/', '.');
    }
}
