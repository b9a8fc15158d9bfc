package dev.weft.internal.engine.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.TwinAsymBody;
import dev.weft.internal.woven.TwinAsymRunnable;
import dev.weft.internal.woven.TwinRunnable;
import dev.weft.internal.woven.Twins;
import dev.weft.internal.woven.WovenLambdas;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;

/**
 * Finds, and checks, how the woven engine enters a coroutine's body: the twin of its
 * {@code run}, declared by the coroutine's own class if it overrides {@code run}, else by its
 * target's; for a target that is a lambda or method reference of a woven class, the twin of its
 * implementation ({@link WovenLambdas}). Any thread.
 */
final class WovenEntries {

    private WovenEntries() {
    }

    /** How a woven stack enters its coroutine's body, and the {@code run} method whose twin that is (null if none). */
    sealed interface Entry {

        /** Runs the body's twin from its start, or rewinds it; its return value. */
        Object enter(CoroutineBase coroutine, Object input, Fiber fiber);

        Method method();
    }

    /** A symmetric coroutine's {@code run()}, or its {@code Runnable}'s. */
    private record Symmetric(TwinRunnable body, Method method) implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            body.run$weft(fiber);
            return null;
        }
    }

    /** An asymmetric coroutine subclass's {@code run(I)}. */
    private record OwnBody(TwinAsymBody body, Method method) implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            return body.run$weft(input, fiber);
        }
    }

    /** An asymmetric coroutine's {@code AsymRunnable}. */
    private record Target(TwinAsymRunnable body, Method method) implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            return body.run$weft((AsymCoroutine<?, ?>) coroutine, input, fiber);
        }
    }

    /** A lambda or method reference of a woven class as a {@code Runnable}: its implementation's twin. */
    private record SymmetricLambda(Object body, MethodHandle invoker, Method method) implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            try {
                invoker.invokeExact(body, fiber);
            } catch (Throwable t) {
                throw WovenEntries.<RuntimeException>sneaky(t); // as the body threw it
            }
            return null;
        }
    }

    /** A lambda or method reference of a woven class as an {@code AsymRunnable}: its implementation's twin. */
    private record AsymLambda(Object body, MethodHandle invoker, Method method) implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            try {
                return (Object) invoker.invokeExact(body, (AsymCoroutine<?, ?>) coroutine, input, fiber);
            } catch (Throwable t) {
                throw WovenEntries.<RuntimeException>sneaky(t); // as the body threw it
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** A coroutine with nothing to run: its {@code run} is the library's own and it has no target. */
    private record Nothing() implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            return null;
        }

        @Override
        public Method method() {
            return null;
        }

    }

    /** A body class's {@code run} method of one signature, and whether it has a twin. */
    private record Run(Method method, boolean woven) {
    }

    /**
     * Per body class, its {@code run} method with these parameters: found by reflection once per
     * class, not once per coroutine (a lookup that misses throws, which costs microseconds).
     */
    private static final class RunMethods extends ClassValue<Run> {
        private final Class<?>[] parameters;

        RunMethods(Class<?>... parameters) {
            this.parameters = parameters;
        }

        @Override
        protected Run computeValue(Class<?> type) {
            Method run = Twins.implementation(type, "run", parameters);
            return new Run(run, run != null && Twins.twinOf(run) != null);
        }

        /** The parameter types, shared: not to be changed. */
        Class<?>[] parameters() {
            return parameters;
        }
    }

    private static final RunMethods SYMMETRIC_RUN = new RunMethods();
    private static final RunMethods OWN_RUN = new RunMethods(Object.class);
    private static final RunMethods TARGET_RUN = new RunMethods(AsymCoroutine.class, Object.class);

    /**
     * How the woven engine enters {@code coroutine}'s body.
     *
     * @throws IllegalArgumentException naming the coroutine and the class, if the {@code run}
     *         method that runs has no twin
     */
    static Entry of(CoroutineBase coroutine) {
        Object target = SharedAccess.coroutines().target(coroutine);
        if (coroutine instanceof Coroutine) {
            Object body = overridesRun(coroutine, Coroutine.class, SYMMETRIC_RUN) ? coroutine : target;
            WovenLambdas.Lambda lambda = body == null ? null : WovenLambdas.of(body.getClass());
            if (lambda != null && lambda.isCallOf("run", SYMMETRIC_RUN.parameters())) {
                return new SymmetricLambda(body, lambda.invoker(), lambda.implementation());
            }
            return body == null ? new Nothing()
                    : new Symmetric(require(coroutine, body, TwinRunnable.class, SYMMETRIC_RUN), runMethod(body, SYMMETRIC_RUN));
        }
        if (overridesRun(coroutine, AsymCoroutine.class, OWN_RUN)) {
            return new OwnBody(require(coroutine, coroutine, TwinAsymBody.class, OWN_RUN), runMethod(coroutine, OWN_RUN));
        }
        WovenLambdas.Lambda lambda = target == null ? null : WovenLambdas.of(target.getClass());
        if (lambda != null && lambda.isCallOf("run", TARGET_RUN.parameters())) {
            return new AsymLambda(target, lambda.invoker(), lambda.implementation());
        }
        return target == null ? new Nothing()
                : new Target(require(coroutine, target, TwinAsymRunnable.class, TARGET_RUN), runMethod(target, TARGET_RUN));
    }

    /**
     * Whether {@code coroutine}'s class overrides {@code run} of {@code base} (its body is then
     * itself rather than its target).
     */
    private static boolean overridesRun(CoroutineBase coroutine, Class<?> base, RunMethods runs) {
        Method run = runs.get(coroutine.getClass()).method();
        return run != null && run.getDeclaringClass() != base;
    }

    /**
     * {@code body} as the woven twin interface {@code entry}, after checking that the {@code run}
     * method it runs has a twin: an override that is not woven must not be skipped.
     */
    private static <T> T require(CoroutineBase coroutine, Object body, Class<T> entry, RunMethods runs) {
        Class<?> type = body.getClass();
        Run run = runs.get(type);
        if (run.woven() && entry.isInstance(body)) {
            return entry.cast(body);
        }
        Method method = run.method();
        String why = type.isHidden()
                ? "its body is a lambda or a method reference (" + type.getName() + ") of a class that is not woven, or"
                        + " whose implementation is not woven; weave the class that creates it with weft-weaver"
                : "its body's run method (" + (method == null ? type.getName() + ".run" : method.toString()) + ") is not woven;"
                        + " weave " + (method == null ? type : method.getDeclaringClass()).getName() + " with weft-weaver";
        throw new IllegalArgumentException("cannot run " + coroutine.getName() + " on the woven engine: " + why
                + ", or run it on Engine.NATIVE");
    }

    /** The {@code run} method that {@code body} runs. */
    private static Method runMethod(Object body, RunMethods runs) {
        return runs.get(body.getClass()).method();
    }
}
