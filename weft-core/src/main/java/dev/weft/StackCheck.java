package dev.weft;

import dev.weft.internal.engine.NativeEngine;
import dev.weft.internal.woven.WovenMethods;

import java.util.List;

/**
 * Decides, from the names of a suspended coroutine's frames alone, whether its woven code can
 * capture it: every frame between Weft's suspension point and Weft's entry frames must be a
 * woven method that holds no monitor at its suspension site, or a hidden class's frame (a
 * lambda's proxy, which is stateless and simply called again on restore).
 */
final class StackCheck {

    private StackCheck() {
    }

    /** Throws {@link IllegalArgumentException} naming the first frame that cannot be captured. */
    static void requireCapturable(CoroutineBase c) {
        List<StackWalker.StackFrame> frames = NativeEngine.frames(c.stack);
        int top = 0;
        while (top < frames.size() && isSuspensionMachinery(frames.get(top))) {
            top++;
        }
        int bottom = frames.size();
        while (bottom > top && isEntryMachinery(frames.get(bottom - 1))) {
            bottom--;
        }
        int woven = 0;
        for (int i = top; i < bottom; i++) {
            StackWalker.StackFrame frame = frames.get(i);
            if (frame.getDeclaringClass().isHidden()) {
                continue; // a lambda's proxy: stateless, called again on restore
            }
            requireWoven(c, frame);
            woven++;
        }
        if (woven == 0) {
            throw new IllegalArgumentException("cannot serialize " + c + ": it is suspended in no woven frame");
        }
    }

    private static void requireWoven(CoroutineBase c, StackWalker.StackFrame frame) {
        Class<?> type = frame.getDeclaringClass();
        WovenMethods table = WovenMethods.of(type);
        if (table == null) {
            throw refuse(c, frame, "is not woven (weave " + type.getName() + " with weft-weaver)");
        }
        int wovenBci = frame.getByteCodeIndex();
        String key = WovenMethods.keyAt(type, frame.getMethodName(), wovenBci);
        if (key == null) {
            key = frame.getMethodName() + frame.getDescriptor();
        }
        WovenMethods.WovenMethod method = table.method(key);
        if (method == null) {
            throw refuse(c, frame, "is not woven (constructors, class initializers and native methods never are)");
        }
        if (method.unsupported() != null) {
            throw refuse(c, frame, "was not woven: " + method.unsupported());
        }
        WovenMethods.Site site = table.siteAt(type, key, wovenBci);
        boolean holdsMonitor = site != null ? site.monitors() > 0
                : method.sites().values().stream().anyMatch(s -> s.monitors() > 0); // where unknown: any site
        if (holdsMonitor) {
            throw refuse(c, frame, "holds a monitor (synchronized) where it is suspended"
                    + (site != null ? ", at bci " + site.bci() : ""));
        }
    }

    private static IllegalArgumentException refuse(CoroutineBase c, StackWalker.StackFrame frame, String why) {
        return new IllegalArgumentException("cannot serialize " + c + ": its frame " + frame.getDeclaringClass().getName()
                + "." + frame.getMethodName() + frame.getDescriptor() + " " + why);
    }

    /** The frames above the user's innermost one: Weft's suspension methods and HotSpot's continuation. */
    private static boolean isSuspensionMachinery(StackWalker.StackFrame frame) {
        Class<?> type = frame.getDeclaringClass();
        return type.getModule() == Object.class.getModule() && type.getName().startsWith("jdk.internal.vm.")
                || type.getName().startsWith("dev.weft.internal.engine.")
                || type == CoroutineSupport.class
                || (type == Coroutine.class || type == AsymCoroutine.class)
                        && List.of("yield", "yieldTo", "ret").contains(frame.getMethodName());
    }

    /**
     * The frames below the user's outermost one: HotSpot's continuation entry, Weft's entry into
     * the coroutine's code, and the reflection that a restored coroutine's entry goes through.
     */
    private static boolean isEntryMachinery(StackWalker.StackFrame frame) {
        Class<?> type = frame.getDeclaringClass();
        String name = type.getName();
        return type == CoroutineBase.class || type == Coroutine.class || type == AsymCoroutine.class
                || type.isHidden() || name.startsWith("jdk.internal.vm.") || name.startsWith("jdk.internal.reflect.")
                || type == java.lang.reflect.Method.class || name.startsWith("java.lang.invoke.");
    }
}
