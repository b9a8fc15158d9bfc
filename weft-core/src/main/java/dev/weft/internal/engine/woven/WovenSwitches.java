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

/**
 * The woven engine's versions of the library's suspension points, which {@code TwinLinker}
 * links a twin's calls of {@code Coroutine.yield}, {@code Coroutine.yieldTo} and
 * {@code AsymCoroutine.ret} to. Each is called twice per suspension: once running, to pass
 * control on and start unwinding, and once rewinding, when the coroutine is resumed and its
 * frames have been rebuilt down to it, to finish the switch on the resumed side. The fixed
 * table of them is this class's own: nothing can add to it. Confined to the running
 * coroutine's owner thread, except {@link #handlerFor}, which any thread may call.
 */
public final class WovenSwitches {

    private static final CoroutineAccess COROUTINES = SharedAccess.coroutines();
    private static final FiberAccess FIBERS = SharedAccess.fibers();

    /** Each suspension point of the library, and what a twin's call of it runs: its parameters with a fiber appended. */
    private static final Map<Method, MethodHandle> HANDLERS = handlers();

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
                            MethodType.methodType(Object.class, AsymCoroutine.class, Object.class, Fiber.class)));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static void yield(Fiber fiber) {
        switchFrom(fiber, null, "yield");
    }

    private static void yieldTo(Coroutine target, Fiber fiber) {
        if (target == null && !fiber.isRewinding()) { // a rewind re-invokes the call with a null argument
            throw new NullPointerException("target");
        }
        switchFrom(fiber, target, "yieldTo");
    }

    /** Passes control from the fiber's coroutine to {@code target}, or the next in the ring if null; or ends the rewind. */
    private static void switchFrom(Fiber fiber, Coroutine target, String operation) {
        CoroutineBase running = (CoroutineBase) FIBERS.coroutine(fiber);
        if (fiber.isRewinding()) {
            FIBERS.finishRewinding(fiber);
            COROUTINES.afterSwitch((Coroutine) running);
            return;
        }
        if (COROUTINES.handOff(running, target, operation)) {
            FIBERS.startUnwinding(fiber);
        }
    }

    /**
     * Passes {@code output} out of {@code self} and unwinds; when the fiber rewinds to it,
     * returns the input of the call that resumed it.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object ret(AsymCoroutine<?, ?> self, Object output, Fiber fiber) {
        if (fiber.isRewinding()) {
            FIBERS.finishRewinding(fiber);
            COROUTINES.checkExitRequested(self);
            return COROUTINES.takeInput(self);
        }
        if (FIBERS.coroutine(fiber) != self) {
            return ((AsymCoroutine) self).ret(output); // not the running coroutine: refused there, as it would be from unwoven code
        }
        COROUTINES.checkExitRequested(self);
        COROUTINES.putOutput(self, output);
        FIBERS.startUnwinding(fiber);
        return null;
    }
}
