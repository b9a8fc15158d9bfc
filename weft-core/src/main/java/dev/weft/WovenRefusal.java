package dev.weft;

import dev.weft.internal.woven.Twins;

import java.util.Optional;

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
        Optional<StackWalker.StackFrame> caller = WALKER.walk(frames -> frames.filter(f -> !isWeft(f.getDeclaringClass())).findFirst());
        String why = caller.map(WovenRefusal::why).orElse("no frame of its code is on the stack");
        return new IllegalStateException("cannot suspend " + c + " on the woven engine: " + why
                + "; nothing was suspended, and the coroutine goes on from the exception");
    }

    private static String why(StackWalker.StackFrame f) {
        String frame = f.getClassName() + "." + f.getMethodName() + " (line " + f.getLineNumber() + ")";
        if (f.getMethodName().endsWith(Twins.SUFFIX)) {
            return "the woven frame " + frame.replace(Twins.SUFFIX + " ", " ")
                    + " suspends while it holds a monitor (synchronized), which it cannot release and take again";
        }
        return "the frame " + frame + " that called the suspension is not woven code running as the woven engine's"
                + " twin: it is not woven, or it was reached through a lambda, a JDK callback, reflection or a class"
                + " that is not woven (use Engine.NATIVE for such code)";
    }

    private static boolean isWeft(Class<?> type) {
        String p = type.getPackageName();
        return p.equals("dev.weft") || p.startsWith("dev.weft.internal");
    }
}
