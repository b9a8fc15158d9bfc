package dev.weft.internal.engine.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.internal.access.CoroutineAccess;
import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.woven.Fiber;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The woven engine's versions of the library's suspension points, which {@code TwinLinker}
 * links a twin's calls of {@code Coroutine.yield}, {@code Coroutine.yieldTo} and
 * {@code AsymCoroutine.ret} to. Each passes control on and starts unwinding; when the coroutine is
 * resumed, {@link #resumed} finishes the switch on the resumed side and gives what the
 * suspension point returns, which the engine passes to the innermost saved frame.
 * {@code AsymCoroutine.call} is linked here too: past a few hundred nested runs, an asymmetric caller
 * unwinds rather than run its callee on top of its own frames, and the scheduler's loop that ran the caller runs the callee,
 * then resumes the caller with the call's result ({@link WovenStack#resume}), so that a chain of
 * calls keeps the thread's stack flat. The fixed
 * table of them is this class's own: nothing can add to it. Confined to the running
 * coroutine's owner thread, except {@link #handlerFor}, which any thread may call.
 */
public final class WovenSwitches {

    private static final CoroutineAccess COROUTINES = SharedAccess.coroutines();
    private static final FiberAccess FIBERS = SharedAccess.fibers();

    /** Each suspension point of the library, and what a twin's call of it runs: its parameters with a fiber appended. */
    private static final Map<Method, MethodHandle> HANDLERS = handlers();

    /** What the scheduler returns for a call it made the caller unwind for: no call's output is this object. */
    private static final Object UNWOUND = new Object();

    private WovenSwitches() {
    }

    /** What a twin's call of {@code method} runs if it is one of the library's suspension points; else null. */
    public static MethodHandle handlerFor(Method method) {
        return HANDLERS.get(method);
    }

    private static Map<Method, MethodHandle> handlers() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            return Map.of(
                    Coroutine.class.getMethod("yield"),
                    lookup.findStatic(WovenSwitches.class, "yield", MethodType.methodType(void.class, Fiber.class)),
                    Coroutine.class.getMethod("yieldTo", Coroutine.class),
                    lookup.findStatic(WovenSwitches.class, "yieldTo", MethodType.methodType(void.class, Coroutine.class, Fiber.class)),
                    AsymCoroutine.class.getMethod("ret", Object.class),
                    lookup.findStatic(WovenSwitches.class, "ret",
                            MethodType.methodType(Object.class, AsymCoroutine.class, Object.class, Fiber.class)),
                    AsymCoroutine.class.getMethod("call", Object.class),
                    lookup.findStatic(WovenSwitches.class, "call",
                            MethodType.methodType(Object.class, AsymCoroutine.class, Object.class, Fiber.class)));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static void yield(Fiber fiber) {
        WovenStack continued = onContinuation(fiber);
        if (continued != null) {
            byTwin(continued, () -> {
                Coroutine.yield();
                return null;
            });
            return;
        }
        switchFrom(fiber, null, "yield");
    }

    private static void yieldTo(Coroutine target, Fiber fiber) {
        WovenStack continued = onContinuation(fiber);
        if (continued != null) {
            byTwin(continued, () -> {
                Coroutine.yieldTo(target);
                return null;
            });
            return;
        }
        if (target == null) {
            throw new NullPointerException("target");
        }
        switchFrom(fiber, target, "yieldTo");
    }

    /**
     * The fiber as a stack that a native stack runs on a continuation, where a suspension point
     * suspends the continuation (the plain operation, marked as called by a twin); null on the
     * woven engine.
     */
    private static WovenStack onContinuation(Fiber fiber) {
        return fiber instanceof WovenStack stack && stack.onContinuation() ? stack : null;
    }

    /** Runs the plain suspension point {@code operation} on {@code stack}'s continuation, marked as called by a twin. */
    private static Object byTwin(WovenStack stack, Supplier<Object> operation) {
        stack.suspendingByTwin(true);
        try {
            return operation.get();
        } finally {
            stack.suspendingByTwin(false);
        }
    }

    /** Passes control from the fiber's coroutine to {@code target}, or the next in the ring if null. */
    private static void switchFrom(Fiber fiber, Coroutine target, String operation) {
        CoroutineBase running = (CoroutineBase) FIBERS.coroutine(fiber);
        if (COROUTINES.handOff(running, target, operation)) {
            FIBERS.startUnwinding(fiber);
        }
    }

    /**
     * Finishes the switch to {@code coroutine}, resumed with its frames saved: what its suspension
     * point returns ({@code ret}'s input, nothing for {@code yield} and {@code yieldTo}), or throws
     * what it throws there ({@code CoroutineExitException} when it is being closed).
     */
    static Object resumed(CoroutineBase coroutine) {
        if (coroutine instanceof AsymCoroutine<?, ?> self) {
            COROUTINES.checkExitRequested(self);
            return COROUTINES.takeInput(self);
        }
        COROUTINES.afterSwitch((Coroutine) coroutine);
        return null;
    }

    /** Passes {@code output} out of {@code self} and unwinds; {@link #resumed} gives its result on resumption. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object ret(AsymCoroutine<?, ?> self, Object output, Fiber fiber) {
        if (FIBERS.coroutine(fiber) != self) {
            return ((AsymCoroutine) self).ret(output); // not the running coroutine: refused there, as it would be from unwoven code
        }
        WovenStack continued = onContinuation(fiber);
        if (continued != null) {
            return byTwin(continued, () -> ((AsymCoroutine) self).ret(output));
        }
        COROUTINES.checkExitRequested(self);
        COROUTINES.putOutput(self, output);
        FIBERS.startUnwinding(fiber);
        return null;
    }

    /**
     * Calls {@code callee} with {@code input} by unwinding the fiber's coroutine, which waits,
     * CALLING, until the callee rets or ends; its stack then resumes with the call's result.
     * Runs the call nested, as unwoven code would, until many runs are nested on the thread's
     * stack (a nested call is one switch, its callee's ret, where this is two) and when the
     * caller cannot wait so (a symmetric coroutine); a callee that cannot be called is refused
     * here, as by {@code call}.
     */
    private static Object call(AsymCoroutine<?, ?> callee, Object input, Fiber fiber) {
        CoroutineBase caller = (CoroutineBase) FIBERS.coroutine(fiber);
        Object output = COROUTINES.wovenCall(caller, callee, input, fiber instanceof WovenStack && onContinuation(fiber) == null,
                UNWOUND);
        if (output != UNWOUND) {
            return output;
        }
        ((WovenStack) fiber).awaitCallReturn();
        FIBERS.startUnwinding(fiber);
        return null;
    }
}
