package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.CoroutineBase;
import dev.weft.Engine;
import org.junit.jupiter.api.AfterEach;

/**
 * What every contract suite shares: the engine its coroutines run on, chosen by the concrete
 * subclass, and no coroutine left behind on the test thread.
 *
 * <p>The woven engine runs only bodies whose classes the weaver has seen, so the bodies in the
 * suites are named classes (lambdas only where a test is about one), and this module's test
 * classes are woven at build time. Where the engines legitimately differ, the suite asks an overridable hook what to
 * expect, and the woven subclass states the woven engine's refusal, message included.
 */
abstract class EngineContract {

    /** The engine every coroutine the suite creates runs on. */
    abstract Engine engine();

    @AfterEach
    final void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    /** Asserts that {@code message} contains each of {@code parts}. */
    static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message != null && message.contains(part), "missing '" + part + "' in: " + message);
        }
    }

    /** {@code t}, thrown as it is: for bodies that must end with an exception given to them. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError("not an unchecked exception", t);
    }
}
