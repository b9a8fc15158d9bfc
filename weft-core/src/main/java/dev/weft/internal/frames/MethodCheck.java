package dev.weft.internal.frames;

import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@link FrameValidator} needs to know of one method, looked up once: its key (name and
 * descriptor), and its suspension sites ready to check frames against, or why frames of it are
 * refused. Immutable but for the slot classes each {@link SiteCheck} resolves on first use;
 * shared by all threads.
 */
final class MethodCheck {

    /** Per declaring class, so that a class and its checks are unloaded together. */
    private static final ClassValue<Map<Method, MethodCheck>> CHECKS = new ClassValue<>() {
        @Override
        protected Map<Method, MethodCheck> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    /** The method's name followed by its JVM descriptor. */
    final String key;
    /** The original bytecode indexes of the sites, ascending; empty if the method is refused. */
    private final int[] bcis;
    private final SiteCheck[] sites;
    /** Why frames of this method are refused ("is in ..., which is not woven"), or null. */
    final String refusal;

    private MethodCheck(String key, Map<Integer, SiteTable.Site> sites, String refusal) {
        this.key = key;
        this.bcis = sites.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        this.sites = new SiteCheck[bcis.length];
        for (int i = 0; i < bcis.length; i++) {
            this.sites[i] = new SiteCheck(sites.get(bcis[i]));
        }
        this.refusal = refusal;
    }

    /** The site at original bytecode index {@code bci}, or null if there is none. */
    SiteCheck siteAt(int bci) {
        int i = Arrays.binarySearch(bcis, bci);
        return i >= 0 ? sites[i] : null;
    }

    /** The original bytecode indexes of the sites, for messages. */
    String siteList() {
        return Arrays.toString(bcis);
    }

    static MethodCheck of(Method method) {
        return CHECKS.get(method.getDeclaringClass()).computeIfAbsent(method, MethodCheck::lookUp);
    }

    private static MethodCheck lookUp(Method method) {
        String key = method.getName() + WovenFrames.descriptorOf(method);
        WovenMethods table = WovenMethods.of(method.getDeclaringClass());
        if (table == null) {
            return new MethodCheck(key, Map.of(), "is in " + method.getDeclaringClass().getName() + ", which is not woven: "
                    + SourceTerms.howToWeave(method.getDeclaringClass()));
        }
        WovenMethods.WovenMethod woven = table.method(key);
        if (woven != null && woven.bridgeTo() != null) {
            return new MethodCheck(key, Map.of(), "is in " + method + ", a bridge that Weft passes through: frame lists"
                    + " never hold a frame of it (the frame of " + woven.bridgeTo() + ", which it calls, stands in its place)");
        }
        if (woven == null || woven.unsupported() != null) {
            return new MethodCheck(key, Map.of(), "is in " + method + ", which is not woven"
                    + (woven == null ? "" : ": " + woven.unsupported()));
        }
        return new MethodCheck(key, woven.sites(), null);
    }
}
