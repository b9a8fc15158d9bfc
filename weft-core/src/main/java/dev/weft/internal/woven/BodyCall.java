package dev.weft.internal.woven;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * How the woven engine enters a coroutine's body: a call of the twin of the {@code run} method
 * that runs it (or of a lambda's implementation), made once per body class from a handle of
 * type {@link #TYPE}. Twins are private, so the engine cannot call a body's twin through an
 * interface, as it once did; each body class gets an instance of a hidden class that holds its
 * handle as a constant ({@link HandleClass}), so that the JIT inlines the twin into the engine's
 * call, as it inlined the interface call, where a handle read from a field would be an indirect
 * call every time the body's own frame is entered or rebuilt.
 *
 * <p>Made from a handle only: it calls nothing its maker could not. Immutable; thread-safe.
 */
public abstract class BodyCall {

    /**
     * The type of every body call: the body (the coroutine itself, or its target), the
     * coroutine, its input and the fiber; what the body returns, null if nothing.
     */
    public static final MethodType TYPE = MethodType.methodType(Object.class, Object.class, Object.class, Object.class,
            Fiber.class);

    private static final HandleClass CLASSES = new HandleClass(BodyCall.class, "enter", TYPE);

    BodyCall() {
    }

    /** Calls the body's twin from its start, or to rebuild its frame; what it returns, or throws. */
    public abstract Object enter(Object body, Object coroutine, Object input, Fiber fiber) throws Throwable;

    /** A body call that calls {@code handle}, of type {@link #TYPE}. */
    public static BodyCall of(MethodHandle handle) {
        return CLASSES.instance(handle);
    }
}
