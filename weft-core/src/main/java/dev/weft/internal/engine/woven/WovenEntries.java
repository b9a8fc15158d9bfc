package dev.weft.internal.engine.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.internal.access.CoroutineAccess;
import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.frames.Bridges;
import dev.weft.internal.woven.BodyCall;
import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.Twins;
import dev.weft.internal.woven.WovenLambdas;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Finds, and checks, how the woven engine enters a coroutine's body: the twin of its
 * {@code run}, declared by the coroutine's own class if it overrides {@code run}, else by its
 * target's; for a target that is a lambda or method reference of a woven class, the twin of its
 * implementation ({@link WovenLambdas}). An entry holds no coroutine: it reads the body from the
 * coroutine it enters (the coroutine itself, or its target), so that one entry per body class
 * serves every coroutine of that class. Twins being private, an entry calls its body's twin
 * through a {@link BodyCall} made for the body's class from an exact handle of the twin of the
 * {@code run} that runs for that class, adapted to {@link BodyCall#TYPE}:
 * <pre>
 * Coroutine.run()              twin(body, fiber)                 coroutine and input dropped, null returned
 * AsymCoroutine.run(I)         twin(body, input, fiber)          coroutine dropped
 * AsymRunnable.run(co, I)      twin(body, coroutine, input, fiber)
 * lambda bodies                the lambda's invoker ({@link WovenLambdas.Lambda#invoker}), the same way
 * </pre>
 * Any thread.
 */
final class WovenEntries {

    private static final CoroutineAccess COROUTINES = SharedAccess.coroutines();
    private static final FiberAccess FIBERS = SharedAccess.fibers();

    private WovenEntries() {
    }

    /**
     * How a woven stack enters its coroutine's body, and the method whose frame is the body's
     * outermost (null if none): the {@code run} method whose twin the entry calls, or, where that
     * is a bridge the weaver passes through, the method it bridges to ({@link Bridges}), whose
     * twin the bridge's twin calls.
     */
    sealed interface Entry {

        /** Runs the body's twin from its start, or rewinds it; its return value. */
        Object enter(CoroutineBase coroutine, Object input, Fiber fiber);

        Method method();
    }

    /** A coroutine subclass's own {@code run}: the body is the coroutine. */
    private record OwnRun(Method method, BodyCall call) implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            try {
                return call.enter(coroutine, coroutine, input, fiber);
            } catch (Throwable t) {
                throw WovenEntries.<RuntimeException>sneaky(t); // as the body threw it
            }
        }
    }

    /** A coroutine's target's {@code run}, a named class's or a lambda's: the body is the target. */
    private record TargetRun(Method method, BodyCall call) implements Entry {
        @Override
        public Object enter(CoroutineBase coroutine, Object input, Fiber fiber) {
            try {
                return call.enter(COROUTINES.target(coroutine), coroutine, input, fiber);
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
        static final Nothing INSTANCE = new Nothing();

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
        return of(coroutine, true);
    }

    /** The entry of a coroutine with nothing to run. */
    static Entry nothing() {
        return Nothing.INSTANCE;
    }

    /** How the woven engine would enter {@code coroutine}'s body, or null if it is not woven. */
    static Entry ifWoven(CoroutineBase coroutine) {
        return of(coroutine, false);
    }

    /** The entry; if its {@code run} has no twin, an exception if {@code refuse}, else null. */
    private static Entry of(CoroutineBase coroutine, boolean refuse) {
        Object target = SharedAccess.coroutines().target(coroutine);
        if (coroutine instanceof Coroutine) {
            if (overridesRun(coroutine, Coroutine.class, SYMMETRIC_RUN)) {
                if (!woven(coroutine, coroutine, SYMMETRIC_RUN, refuse)) {
                    return null;
                }
                return SYMMETRIC.get(coroutine.getClass());
            }
            if (target == null) {
                return Nothing.INSTANCE;
            }
            WovenLambdas.Lambda lambda = WovenLambdas.of(target.getClass());
            if (lambda != null && lambda.isCallOf("run", SYMMETRIC_RUN.parameters())) {
                return SYMMETRIC_LAMBDA.get(target.getClass());
            }
            if (!woven(coroutine, target, SYMMETRIC_RUN, refuse)) {
                return null;
            }
            return SYMMETRIC_TARGET.get(target.getClass());
        }
        if (overridesRun(coroutine, AsymCoroutine.class, OWN_RUN)) {
            if (!woven(coroutine, coroutine, OWN_RUN, refuse)) {
                return null;
            }
            return OWN_BODY.get(coroutine.getClass());
        }
        if (target == null) {
            return Nothing.INSTANCE;
        }
        WovenLambdas.Lambda lambda = WovenLambdas.of(target.getClass());
        if (lambda != null && lambda.isCallOf("run", TARGET_RUN.parameters())) {
            return ASYM_LAMBDA.get(target.getClass());
        }
        if (!woven(coroutine, target, TARGET_RUN, refuse)) {
            return null;
        }
        return TARGET.get(target.getClass());
    }

    /** The entries, one per body class, made once the body's class has been checked. */
    private static final ClassValue<Entry> SYMMETRIC = entries(type -> new OwnRun(outermost(SYMMETRIC_RUN, type),
            bodyCall(twinOfRun(SYMMETRIC_RUN, type), 1, 2)));
    private static final ClassValue<Entry> SYMMETRIC_TARGET = entries(type -> new TargetRun(outermost(SYMMETRIC_RUN, type),
            bodyCall(twinOfRun(SYMMETRIC_RUN, type), 1, 2)));
    private static final ClassValue<Entry> OWN_BODY = entries(type -> new OwnRun(outermost(OWN_RUN, type),
            bodyCall(twinOfRun(OWN_RUN, type), 1, 1)));
    private static final ClassValue<Entry> TARGET = entries(type -> new TargetRun(outermost(TARGET_RUN, type),
            bodyCall(twinOfRun(TARGET_RUN, type), 1, 0)));

    private static final ClassValue<Entry> SYMMETRIC_LAMBDA = entries(type -> {
        WovenLambdas.Lambda lambda = WovenLambdas.of(type);
        return new TargetRun(lambda.implementation(), bodyCall(lambda.invoker(), 1, 2));
    });
    private static final ClassValue<Entry> ASYM_LAMBDA = entries(type -> {
        WovenLambdas.Lambda lambda = WovenLambdas.of(type);
        return new TargetRun(lambda.implementation(), bodyCall(lambda.invoker(), 1, 0));
    });

    /** An exact call of the twin of the {@code run} of {@code runs} that a body of class {@code type} runs. */
    private static MethodHandle twinOfRun(RunMethods runs, Class<?> type) {
        return FIBERS.exactTwin(runs.get(type).method());
    }

    /**
     * {@code twin}, of type {@code (body, parameters..., Fiber) R}, as a {@link BodyCall}: the
     * {@code dropped} arguments of {@link BodyCall#TYPE} from {@code at} on (the coroutine, the
     * input, or both) dropped, the result boxed, or null if void.
     */
    private static BodyCall bodyCall(MethodHandle twin, int at, int dropped) {
        List<Class<?>> drop = BodyCall.TYPE.parameterList().subList(at, at + dropped);
        return BodyCall.of(MethodHandles.dropArguments(twin, at, drop).asType(BodyCall.TYPE));
    }

    /** The method of the outermost frame of a body of class {@code type} entered by its {@code run} of {@code runs}. */
    private static Method outermost(RunMethods runs, Class<?> type) {
        return Bridges.passedThrough(runs.get(type).method(), type);
    }

    private static ClassValue<Entry> entries(java.util.function.Function<Class<?>, Entry> make) {
        return new ClassValue<>() {
            @Override
            protected Entry computeValue(Class<?> type) {
                return make.apply(type);
            }
        };
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
     * Whether the {@code run} method that {@code body} runs has a twin (an override that is not
     * woven must not be skipped); if not and {@code refuse}, throws the exception that says so.
     */
    private static boolean woven(CoroutineBase coroutine, Object body, RunMethods runs, boolean refuse) {
        Class<?> type = body.getClass();
        Run run = runs.get(type);
        if (run.woven() || !refuse) {
            return run.woven();
        }
        Method method = run.method();
        String why = type.isHidden()
                ? "its body is a lambda or a method reference (" + type.getName() + ") of a class that is not woven, or"
                        + " whose implementation is not woven; weave the class that creates it, "
                        + type.getNestHost().getName() + ": " + SourceTerms.howToWeave(type.getNestHost())
                : "its body's run method (" + (method == null ? type.getName() + ".run" : method.toString()) + ") is not woven: "
                        + SourceTerms.howToWeave(method == null ? type : method.getDeclaringClass());
        throw new IllegalArgumentException("cannot run " + coroutine.getName() + " on the woven engine: " + why
                + ", or run it on Engine.NATIVE");
    }
}
