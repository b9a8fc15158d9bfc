package dev.weft.library.coroutine;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import dev.weft.internal.woven.WovenLambdas;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Enumeration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import junit.extensions.TestDecorator;
import junit.framework.Test;
import junit.framework.TestCase;
import junit.framework.TestResult;
import junit.framework.TestSuite;

/**
 * A JUnit 3 test case run inside a coroutine of the woven engine, called once: what
 * {@link InWovenCoroutine} is to Jupiter's tests, for tests that no Jupiter extension
 * intercepts, such as those guava-testlib's suite builders generate. {@link #decorate} wraps
 * each test case of a suite in one; JUnit 4 (and so the vintage engine) describes a decorator
 * as the test it decorates, so the tests keep their names and ids.
 *
 * <p>A test case whose test method (the public method {@code TestCase.runTest} would call
 * reflectively) has a twin is entered through it: the coroutine's body does what
 * {@code TestResult.run} and {@code TestCase.runBare} do (the result's start and end of the
 * test, {@code setUp}, then the method, then {@code tearDown} whatever happened, what was thrown
 * recorded as the result records it), but calls the method through a lambda made by the
 * metafactory woven code's lambdas use, which the woven engine links to the method's twin, as
 * {@link InWovenCoroutine} does; {@code setUp} and {@code tearDown} run as compiled. Any other
 * test case is the coroutine's body as JUnit's own call, {@code test.run(result)}. While the
 * body runs, {@link #RAN} holds the engine and the entry, {@code WOVEN:twin} or
 * {@code WOVEN:invocation}, for {@code OutcomeListener} to record when the test ends (JUnit 4
 * reports a JUnit 3 test's end from inside its run, on the same thread).
 *
 * <p>This class is woven by the build: a woven-engine coroutine's body must be woven code.
 * Each coroutine belongs to the thread that runs the test; the lambda factories, one per test
 * method, are shared by the run, as {@link InWovenCoroutine}'s.
 */
public final class JUnit3InWovenCoroutine extends TestDecorator {

    /** How the test the current thread is running was entered: the engine and the entry; null outside one. */
    public static final ThreadLocal<String> RAN = new ThreadLocal<>();

    /** Each test method's lambda factory, which takes the test case; absent if the method has none. */
    private static final Map<Method, Optional<MethodHandle>> FACTORIES = new ConcurrentHashMap<>();
    /** The test method's name, TestCase.fName: guava-testlib's testers override getName() to add their suite's. */
    private static final Field NAME;
    private static final Method SET_UP;
    private static final Method TEAR_DOWN;

    static {
        try {
            NAME = TestCase.class.getDeclaredField("fName");
            NAME.setAccessible(true);
            SET_UP = TestCase.class.getDeclaredMethod("setUp");
            SET_UP.setAccessible(true);
            TEAR_DOWN = TestCase.class.getDeclaredMethod("tearDown");
            TEAR_DOWN.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private JUnit3InWovenCoroutine(TestCase test) {
        super(test);
    }

    /**
     * {@code test} with each of its test cases run in a woven-engine coroutine: a suite is copied,
     * with the same name, its tests decorated in turn; a test case is decorated.
     *
     * @throws IllegalArgumentException if {@code test} is, or holds, another kind of test
     */
    public static Test decorate(Test test) {
        if (test instanceof TestCase testCase) {
            return new JUnit3InWovenCoroutine(testCase);
        }
        if (test instanceof TestSuite suite) {
            TestSuite copy = new TestSuite(suite.getName());
            for (Enumeration<Test> tests = suite.tests(); tests.hasMoreElements();) {
                copy.addTest(decorate(tests.nextElement()));
            }
            return copy;
        }
        throw new IllegalArgumentException("neither a TestCase nor a TestSuite: " + test.getClass().getName() + " " + test);
    }

    @Override
    public void run(TestResult result) {
        TestCase test = (TestCase) getTest();
        Runnable twinCall;
        try {
            twinCall = twinCall(test);
        } catch (Throwable failure) {
            throw new IllegalStateException("no lambda for the test method of " + test, failure);
        }
        AsymCoroutine<Void, Throwable> coroutine = new AsymCoroutine<>((self, unused) -> {
            RAN.set(self.engine().name() + ":" + (twinCall == null ? "invocation" : "twin"));
            try {
                if (twinCall == null) {
                    test.run(result);
                } else {
                    result.startTest(test);
                    result.runProtected(test, () -> runBare(test, twinCall));
                    result.endTest(test);
                }
                return null;
            } catch (Throwable thrown) {
                return thrown;
            }
        }, Engine.WOVEN);
        Throwable thrown;
        try {
            thrown = coroutine.call(null);
        } finally {
            RAN.remove();
        }
        if (!coroutine.isFinished()) {
            throw new IllegalStateException("the coroutine of " + test + " suspended; nothing in a test suspends");
        }
        if (thrown instanceof RuntimeException e) {
            throw e;
        }
        if (thrown instanceof Error e) {
            throw e;
        }
        if (thrown != null) {
            throw new IllegalStateException(thrown);
        }
    }

    /** What {@code TestCase.runBare} does, the test method called through {@code twinCall}. */
    private static void runBare(TestCase test, Runnable twinCall) throws Throwable {
        Throwable exception = null;
        invoke(SET_UP, test);
        try {
            twinCall.run();
        } catch (Throwable running) {
            exception = running;
        } finally {
            try {
                invoke(TEAR_DOWN, test);
            } catch (Throwable tearingDown) {
                if (exception == null) {
                    exception = tearingDown;
                }
            }
        }
        if (exception != null) {
            throw exception;
        }
    }

    private static void invoke(Method method, TestCase test) throws Throwable {
        try {
            method.invoke(test);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * A call of {@code test}'s test method, which the woven engine runs as the method's twin;
     * null if the method is not one {@code TestCase.runTest} would call (public, not static, no
     * parameters), or has no twin, or the woven engine would not call the twin for the lambda.
     */
    private static Runnable twinCall(TestCase test) throws Throwable {
        String name = (String) NAME.get(test);
        if (name == null) {
            return null;
        }
        Method method;
        try {
            method = test.getClass().getMethod(name);
        } catch (NoSuchMethodException e) {
            return null;
        }
        if (Modifier.isStatic(method.getModifiers())) {
            return null;
        }
        Optional<MethodHandle> factory = FACTORIES.get(method);
        if (factory == null) {
            factory = Optional.ofNullable(InWovenCoroutine.twinFactory(method));
            FACTORIES.putIfAbsent(method, factory);
        }
        if (factory.isEmpty()) {
            return null;
        }
        Runnable lambda = (Runnable) factory.get().invoke(test);
        return WovenLambdas.of(lambda.getClass()) == null ? null : lambda;
    }
}
