package dev.weft;

import dev.weft.internal.woven.Twins;

import java.lang.reflect.Method;

/** Finds, and checks, how the woven engine enters a coroutine's body: the twin of its {@code run}. */
final class WovenEntries {

    private WovenEntries() {
    }

    /**
     * Whether {@code coroutine}'s class overrides {@code run} of {@code base} (its body is then
     * itself rather than its target).
     */
    static boolean overridesRun(CoroutineBase coroutine, Class<?> base, Class<?>... parameters) {
        Method run = Twins.implementation(coroutine.getClass(), "run", parameters);
        return run != null && run.getDeclaringClass() != base;
    }

    /**
     * {@code body} as the woven twin interface {@code entry}, after checking that the {@code run}
     * method it runs (with these parameters) has a twin: an override that is not woven must not
     * be skipped.
     *
     * @throws IllegalArgumentException naming the coroutine and the class, if it has none
     */
    static <T> T require(CoroutineBase coroutine, Object body, Class<T> entry, Class<?>... parameters) {
        Class<?> type = body.getClass();
        Method run = Twins.implementation(type, "run", parameters);
        if (run != null && Twins.twinOf(run) != null && entry.isInstance(body)) {
            return entry.cast(body);
        }
        String why = type.isHidden()
                ? "its body is a lambda or a method reference (" + type.getName() + "), whose class the weaver never sees;"
                        + " make the body a named class"
                : "its body's run method (" + (run == null ? type.getName() + ".run" : run.toString()) + ") is not woven;"
                        + " weave " + (run == null ? type : run.getDeclaringClass()).getName() + " with weft-weaver";
        return fail(coroutine, why + ", or run it on Engine.NATIVE");
    }

    /** The {@code run} method (with these parameters) that {@code body} runs; null for no body. */
    static Method runMethod(Object body, Class<?>... parameters) {
        return body == null ? null : Twins.implementation(body.getClass(), "run", parameters);
    }

    private static <T> T fail(CoroutineBase coroutine, String why) {
        throw new IllegalArgumentException("cannot run " + coroutine.getName() + " on the woven engine: " + why);
    }
}
