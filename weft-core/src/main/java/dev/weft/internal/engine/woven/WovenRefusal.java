package dev.weft.internal.engine.woven;

import dev.weft.CoroutineBase;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.WovenMethods;

import java.util.List;

/**
 * The exception for a suspension that the woven engine cannot make: the coroutine's code
 * reached {@code yield}, {@code yieldTo} or {@code ret} through a frame that cannot unwind. It
 * names that frame, the caller of the suspension point, and why.
 */
final class WovenRefusal {

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private WovenRefusal() {
    }

    static IllegalStateException of(CoroutineBase c) {
        List<StackWalker.StackFrame> frames = WALKER.walk(s -> s.filter(f -> !isWeft(f.getDeclaringClass())).toList());
        return new IllegalStateException("cannot suspend " + c + " on the woven engine: " + why(frames)
                + "; nothing was suspended, and the coroutine goes on from the exception");
    }

    /**
     * Why, given the frames of the coroutine's code, innermost first: the caller of the
     * suspension point is a twin that holds a monitor, or the chain of twins was broken by a
     * call that is not one (the frame right above the innermost twin).
     */
    private static String why(List<StackWalker.StackFrame> frames) {
        if (frames.isEmpty()) {
            return "no frame of its code is on the stack";
        }
        StackWalker.StackFrame suspender = frames.get(0);
        if (isTwin(suspender)) {
            return "the woven frame " + name(suspender)
                    + " suspends while it holds a monitor (synchronized), which it cannot release and take again";
        }
        int twin = 1;
        while (twin < frames.size() && !isTwin(frames.get(twin))) {
            twin++;
        }
        String breaker = twin < frames.size()
                ? "the woven frame " + name(frames.get(twin)) + " called " + name(frames.get(twin - 1))
                        + ", which the woven engine cannot unwind (" + whyNotWoven(frames.get(twin - 1)) + ")"
                : "no frame on the way is woven code of the woven engine";
        return breaker + ", on the way to the suspension in " + name(suspender) + " (use Engine.NATIVE for such code)";
    }

    /** Why {@code f}, a frame a twin called, is not woven code: the weaver's reason if it left the method of a woven class as compiled. */
    private static String whyNotWoven(StackWalker.StackFrame f) {
        Class<?> type = f.getDeclaringClass();
        WovenMethods table = WovenMethods.registered(type);
        WovenMethods.WovenMethod method = table == null ? null : table.method(f.getMethodName() + f.getDescriptor());
        if (method != null && method.unsupported() != null) {
            return "the weaver left it as compiled: " + method.unsupported();
        }
        return table == null && !type.isHidden() ? "it is not woven: " + SourceTerms.howToWeave(type)
                : "it is not woven, or it is a lambda, a JDK method or reflection";
    }

    private static boolean isTwin(StackWalker.StackFrame f) {
        return f.getMethodName().endsWith(WeavingContract.TWIN_SUFFIX);
    }

    private static String name(StackWalker.StackFrame f) {
        String method = f.getMethodName();
        if (method.endsWith(WeavingContract.TWIN_SUFFIX)) {
            method = method.substring(0, method.length() - WeavingContract.TWIN_SUFFIX.length());
        }
        return SourceTerms.place(f.getClassName(), method, f.getFileName(), f.getLineNumber());
    }

    private static boolean isWeft(Class<?> type) {
        String p = type.getPackageName();
        return p.equals("dev.weft") || p.startsWith("dev.weft.internal");
    }
}
