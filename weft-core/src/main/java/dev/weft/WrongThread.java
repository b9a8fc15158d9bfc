package dev.weft;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The exception for an operation on a coroutine from a thread that does not own it:
 * {@code java.lang.WrongThreadException} where the JDK has it (19 and later), else
 * {@link IllegalStateException} (JDK 17 and 18), so that {@code weft-core} loads on JDK 17 and
 * throws the JDK's own type wherever it exists. Stateless; any thread.
 */
final class WrongThread {

    private static final String WRONG_THREAD_EXCEPTION = "java.lang.WrongThreadException";

    /** {@code (String) -> RuntimeException}: the constructor of the type thrown here. */
    private static final MethodHandle NEW = constructor();

    private WrongThread() {
    }

    /** A new exception of the JDK's type for {@code message}, to be thrown by the caller. */
    static RuntimeException exception(String message) {
        try {
            return (RuntimeException) NEW.invokeExact(message);
        } catch (Throwable unexpected) {
            throw new AssertionError("the constructor of an exception with a message threw", unexpected);
        }
    }

    private static MethodHandle constructor() {
        Class<? extends RuntimeException> type;
        try {
            type = Class.forName(WRONG_THREAD_EXCEPTION).asSubclass(RuntimeException.class);
        } catch (ClassNotFoundException beforeJdk19) {
            type = IllegalStateException.class;
        }
        try {
            return MethodHandles.publicLookup()
                    .findConstructor(type, MethodType.methodType(void.class, String.class))
                    .asType(MethodType.methodType(RuntimeException.class, String.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
