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
    private final Class<?>[] types;
    /** The last method found to be the one this site calls: most frames chain as the last did. */
    private MethodCheck lastCalled;

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
    }

    /** Whether this site's call is a call of {@code method} (same name and descriptor). */
    boolean calls(MethodCheck method) {
        if (lastCalled == method) {
            return true;
        }
        boolean calls = targetKey.equals(method.key);
        if (calls) {
            lastCalled = method; // a benign race: any thread stores a method that matches
        }
        return calls;
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
