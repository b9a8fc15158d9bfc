package dev.weft.library.coroutine;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import dev.weft.internal.woven.Twins;
import dev.weft.internal.woven.WovenLambdas;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * A JUnit Jupiter extension that runs each test method, test template invocation, test factory
 * and dynamic test inside a coroutine of the woven engine, called once, and lets what it
 * returned or threw come out of the interceptor unchanged.
 *
 * <p>A test method or template invocation whose method is woven is entered through its twin,
 * as woven code calls it on the woven engine: JUnit's own call is skipped, and the coroutine's
 * body calls a lambda made by the metafactory that woven code's lambdas use
 * ({@code WovenLambdas}, of Weft's woven-engine internals, as {@code Twins} is), on the test
 * instance and the arguments JUnit resolved, which the woven engine links to the method's twin;
 * from there the test's calls of the woven library reach the library's twins. Anything else (a
 * test factory, a dynamic test, a test method that is not woven) is the coroutine's body as
 * JUnit's own call, {@code invocation.proceed()}, which runs the method as compiled, and the
 * library's methods as compiled too, woven. Each intercepted test publishes the report entry
 * {@value #COROUTINE_KEY}, with the engine it ran on and how it was entered,
 * {@code WOVEN:twin} or {@code WOVEN:invocation}, which {@code SuiteRunner} records.
 *
 * <p>Registered by {@code META-INF/services} when
 * {@code junit.jupiter.extensions.autodetection.enabled} is true, which only the in-coroutine
 * run of {@code CommonsLang3SuiteTest} sets; being registered globally, it is outside every
 * interceptor the tests register themselves (commons-lang3's register none). This class is
 * woven by the build: a woven-engine coroutine's body must be woven code.
 *
 * <p>Thread-safe: it keeps, for the run, each woven test method's lambda factory, made once per
 * method as a woven class's lambda is made once per call site (a factory per invocation would
 * define a class per invocation, which the JVM keeps, with what Weft notes of it, as long as the
 * test class's loader: some 57,000 over commons-lang3's suite, more than its 512 MB heap holds).
 * Each coroutine belongs to the thread that runs the test, as JUnit's invocations do.
 */
public final class InWovenCoroutine implements InvocationInterceptor {

    /** The report entry's key: its value is the engine the test ran on and how it was entered. */
    public static final String COROUTINE_KEY = "weft.coroutine";

    /** Each woven test method's lambda factory, which takes the test instance and the arguments; absent if not woven. */
    private final Map<Method, Optional<MethodHandle>> factories = new ConcurrentHashMap<>();

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        runMethodInCoroutine(invocation, invocationContext, extensionContext);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        runMethodInCoroutine(invocation, invocationContext, extensionContext);
    }

    @Override
    public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        return runInCoroutine(invocation::proceed, "invocation", extensionContext);
    }

    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        runInCoroutine(invocation::proceed, "invocation", extensionContext);
    }

    /** A call that may throw anything: the test's body, as the coroutine runs it. */
    @FunctionalInterface
    private interface Body<T> {
        T run() throws Throwable;
    }

    /** What the body gave: its result, or what it threw (never both). */
    private record Outcome<T>(T result, Throwable thrown) {
    }

    /** Runs the test method in a coroutine, entered through its twin if it has one, else by JUnit's call. */
    private void runMethodInCoroutine(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        Runnable twinCall = twinCall(call);
        if (twinCall == null) {
            runInCoroutine(invocation::proceed, "invocation", context);
            return;
        }
        invocation.skip();
        runInCoroutine(() -> {
            twinCall.run();
            return null;
        }, "twin", context);
    }

    /**
     * Runs {@code body} as the body of a new woven-engine coroutine, and returns its result or
     * throws what it threw, the same object. The body catches everything itself, so that
     * nothing the engine does to an escaping exception can change what JUnit sees.
     */
    private static <T> T runInCoroutine(Body<T> body, String entry, ExtensionContext context) throws Throwable {
        AsymCoroutine<Void, Outcome<T>> coroutine = new AsymCoroutine<>((self, unused) -> {
            context.publishReportEntry(COROUTINE_KEY, self.engine().name() + ":" + entry);
            try {
                return new Outcome<>(body.run(), null);
            } catch (Throwable thrown) {
                return new Outcome<>(null, thrown);
            }
        }, Engine.WOVEN);
        Outcome<T> outcome = coroutine.call(null);
        if (!coroutine.isFinished()) {
            throw new IllegalStateException("the coroutine of " + context.getUniqueId() + " suspended; nothing in a test suspends");
        }
        if (outcome.thrown() != null) {
            throw outcome.thrown();
        }
        return outcome.result();
    }

    /**
     * A call of the test method on the instance and arguments of {@code call}, which the woven
     * engine runs as the method's twin: a {@code Runnable} lambda whose implementation is the
     * method, made as a woven class's lambda is; null if the method has no twin, or is static,
     * or if the woven engine would not call the twin for that lambda (it would run the method as
     * compiled: an opaque call).
     */
    private Runnable twinCall(ReflectiveInvocationContext<Method> call) throws Throwable {
        Optional<MethodHandle> factory = factories.get(call.getExecutable());
        if (factory == null) {
            factory = Optional.ofNullable(twinFactory(call.getExecutable()));
            factories.putIfAbsent(call.getExecutable(), factory);
        }
        if (factory.isEmpty()) {
            return null;
        }
        Object[] values = new Object[factory.get().type().parameterCount()];
        values[0] = call.getTarget().orElseThrow();
        System.arraycopy(call.getArguments().toArray(), 0, values, 1, values.length - 1);
        Runnable lambda = (Runnable) factory.get().invokeWithArguments(values);
        return WovenLambdas.of(lambda.getClass()) == null ? null : lambda;
    }

    /**
     * The factory of {@code Runnable} lambdas whose implementation is {@code method}, taking the
     * receiver and the arguments, made by the metafactory woven code's lambdas use; null if the
     * method is static or has no twin.
     */
    static MethodHandle twinFactory(Method method) throws Throwable {
        if (Modifier.isStatic(method.getModifiers()) || Twins.twinOf(method) == null) {
            return null;
        }
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(method.getDeclaringClass(), MethodHandles.lookup());
        MethodHandle implementation = lookup.unreflect(method);
        return WovenLambdas.metafactory(lookup, "run", implementation.type().changeReturnType(Runnable.class),
                MethodType.methodType(void.class), implementation, MethodType.methodType(void.class)).getTarget();
    }
}
