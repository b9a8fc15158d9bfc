package dev.weft.library.coroutine;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * A JUnit Jupiter extension that runs each test method, test template invocation, test factory
 * and dynamic test inside a coroutine of the woven engine: {@code invocation.proceed()} is the
 * body of a new {@code AsymCoroutine} on {@link Engine#WOVEN}, called once, and what the
 * invocation returned or threw comes out of the interceptor unchanged. Each intercepted test
 * publishes the report entry {@value #ENGINE_KEY} with the engine it ran on, which
 * {@code SuiteRunner} records, so a run can show that its tests did run in coroutines.
 *
 * <p>Registered by {@code META-INF/services} when
 * {@code junit.jupiter.extensions.autodetection.enabled} is true, which only the in-coroutine
 * run of {@code LibrarySuiteTest} sets. This class is woven by the build (the body of a
 * woven-engine coroutine must be woven code); the tests it runs call the woven library from
 * code that is not woven.
 *
 * <p>Stateless; each coroutine belongs to the thread that runs the test, as JUnit's
 * invocations do.
 */
public final class InWovenCoroutine implements InvocationInterceptor {

    /** The report entry's key: its value is the engine of the coroutine the test ran in. */
    public static final String ENGINE_KEY = "weft.coroutine.engine";

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        runInCoroutine(invocation, extensionContext);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        runInCoroutine(invocation, extensionContext);
    }

    @Override
    public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        return runInCoroutine(invocation, extensionContext);
    }

    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        runInCoroutine(invocation, extensionContext);
    }

    /** What the invocation gave: its result, or what it threw (never both). */
    private record Outcome<T>(T result, Throwable thrown) {
    }

    /**
     * Proceeds with {@code invocation} as the body of a woven-engine coroutine, and returns its
     * result or throws what it threw, the same object. The body catches everything itself, so
     * that nothing the engine does to an escaping exception can change what JUnit sees.
     */
    private static <T> T runInCoroutine(Invocation<T> invocation, ExtensionContext context) throws Throwable {
        AsymCoroutine<Void, Outcome<T>> coroutine = new AsymCoroutine<>((self, unused) -> {
            context.publishReportEntry(ENGINE_KEY, self.engine().name());
            return proceed(invocation);
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

    private static <T> Outcome<T> proceed(Invocation<T> invocation) {
        try {
            return new Outcome<>(invocation.proceed(), null);
        } catch (Throwable thrown) {
            return new Outcome<>(null, thrown);
        }
    }
}
