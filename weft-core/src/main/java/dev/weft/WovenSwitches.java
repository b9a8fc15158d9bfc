package dev.weft;

import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.Twins;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The woven engine's versions of the library's suspension points, which {@code TwinLinker}
 * links a twin's calls of {@code Coroutine.yield}, {@code Coroutine.yieldTo} and
 * {@code AsymCoroutine.ret} to. Each is called twice per suspension: once running, to pass
 * control on and start unwinding, and once rewinding, when the coroutine is resumed and its
 * frames have been rebuilt down to it, to finish the switch on the resumed side.
 */
final class WovenSwitches {

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Twins.registerSuspension(Coroutine.class.getMethod("yield"),
                    lookup.findStatic(WovenSwitches.class, "yield", MethodType.methodType(void.class, Fiber.class)));
            Twins.registerSuspension(Coroutine.class.getMethod("yieldTo", Coroutine.class),
                    lookup.findStatic(WovenSwitches.class, "yieldTo", MethodType.methodType(void.class, Coroutine.class, Fiber.class)));
            Twins.registerSuspension(AsymCoroutine.class.getMethod("ret", Object.class),
                    lookup.findStatic(WovenSwitches.class, "ret", MethodType.methodType(Object.class, AsymCoroutine.class, Object.class, Fiber.class)));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private WovenSwitches() {
    }

    static void yield(Fiber fiber) {
        switchFrom(fiber, null, "yield");
    }

    static void yieldTo(Coroutine target, Fiber fiber) {
        if (target == null && !fiber.isRewinding()) { // a rewind re-invokes the call with a null argument
            throw new NullPointerException("target");
        }
        switchFrom(fiber, target, "yieldTo");
    }

    /** Passes control from the fiber's coroutine to {@code target}, or the next in the ring if null; or ends the rewind. */
    private static void switchFrom(Fiber fiber, Coroutine target, String operation) {
        CoroutineBase running = (CoroutineBase) fiber.coroutine();
        if (fiber.isRewinding()) {
            fiber.finishRewinding();
            running.owner().afterSwitch((Coroutine) running); // its owner now: it may have been stolen while suspended
            return;
        }
        Coroutine from = CoroutineSupport.symmetric(running, operation);
        from.owner().yieldWoven(from, target, fiber);
    }

    static Object ret(AsymCoroutine<?, ?> self, Object output, Fiber fiber) {
        return self.retWoven(output, fiber);
    }
}
