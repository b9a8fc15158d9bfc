package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the woven engine refuses: bodies it cannot enter, and suspensions through frames it cannot
 * unwind. Each refusal names the coroutine and the frame or class, and leaves the coroutine usable.
 */
class WovenEngineRefusalTest extends WovenFixtureTest {

    /** Leaves the fixtures named Unwoven* as compiled. */
    private final WovenLoader partly = WovenLoader.leavingUnwovenClassesAsIs();

    /** How every not-woven refusal says to weave a class of the fixtures' package. */
    private static final String HOW_TO_WEAVE_FIXTURES = "weave it with the Maven plugin (<package>dev.weft.weaver.fixtures"
            + "</package> in weft-maven-plugin's <packages>), the agent (-javaagent:weft-weaver-VERSION-agent.jar="
            + "dev.weft.weaver.fixtures) or the command line (java -jar weft-weaver-VERSION-agent.jar --only"
            + " dev.weft.weaver.fixtures DIR)";

    private static void assertMessage(Throwable e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "missing '" + part + "' in: " + e.getMessage());
        }
    }

    private <T> T create(String simpleName, Class<?>[] types, Object... arguments) {
        return WovenEngineSemanticsTest.create(loader, simpleName, types, arguments);
    }

    // ------------------------------------------------------------ at construction

    @Test
    void aLambdaBodyIsRefusedAtConstruction() {
        IllegalArgumentException asym = assertThrows(IllegalArgumentException.class,
                () -> new AsymCoroutine<Integer, String>((co, x) -> "x" + co.ret("y"), Engine.WOVEN));
        assertMessage(asym, "cannot run ", "on the woven engine", "lambda", "Engine.NATIVE");
        IllegalArgumentException sym = assertThrows(IllegalArgumentException.class,
                () -> new Coroutine(Coroutine::yield, Engine.WOVEN));
        assertMessage(sym, "cannot run ", "on the woven engine", "lambda or a method reference");
        assertEquals(0, CoroutineBase.closeAll(), "a refused coroutine is not left in the thread's ring");
        AsymCoroutine<Integer, String> onNative = new AsymCoroutine<>((co, x) -> "x" + co.ret("y" + x), Engine.NATIVE);
        assertEquals("y1", onNative.call(1), "the same lambda runs on the native engine");
        assertEquals("x2", onNative.call(2));
    }

    @Test
    void aBodyClassThatIsNotWovenIsRefusedAtConstruction() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> partly.newInstance("UnwovenBody", Engine.WOVEN));
        assertMessage(e, "cannot run UnwovenBody-", "on the woven engine", "dev.weft.weaver.fixtures.UnwovenBody",
                "is not woven: " + HOW_TO_WEAVE_FIXTURES + ", or run it on Engine.NATIVE");
        AsymCoroutine<Integer, String> onNative = partly.newInstance("UnwovenBody", Engine.NATIVE);
        assertEquals("once 1", onNative.call(1));
        assertEquals("end 2", onNative.call(2));
    }

    @Test
    void aRunnableClassThatIsNotWovenIsRefusedAtConstruction() throws ReflectiveOperationException {
        Runnable task = (Runnable) partly.loadClass("dev.weft.weaver.fixtures.UnwovenTask").getConstructor().newInstance();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Coroutine(task, Engine.WOVEN));
        assertMessage(e, "on the woven engine", "dev.weft.weaver.fixtures.UnwovenTask", "is not woven: " + HOW_TO_WEAVE_FIXTURES);
        assertEquals(0, CoroutineBase.closeAll());
    }

    @Test
    void anUnwovenOverrideOfAWovenRunIsRefusedAtConstruction() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> partly.newInstance("UnwovenOverride", Engine.WOVEN));
        assertMessage(e, "cannot run UnwovenOverride-", "on the woven engine", "UnwovenOverride");
    }

    // ------------------------------------------------------------ suspensions through opaque frames

    @Test
    void aRetInsideAJdkCallbackIsRefusedAndTheBodyGoesOn() {
        AsymCoroutine<Integer, String> co = create("RefusedInCallback", new Class<?>[] {Engine.class}, Engine.WOVEN);
        co.setName("callback");
        assertEquals("after refused 1", co.call(1));
        List<String> refusals = refusals(co);
        assertEquals(1, refusals.size());
        assertMessage(new IllegalStateException(refusals.get(0)), "cannot suspend callback [", "on the woven engine",
                "RefusedInCallback.lambda$run$", "which the woven engine cannot unwind (it is not woven: it is JDK code,"
                + " which is never woven)");
        assertEquals("end 2", co.call(2));
        assertTrue(co.isFinished());
    }

    @Test
    void aRetInsideAJdkCallbackRunsOnTheNativeEngine() {
        AsymCoroutine<Integer, String> co = create("RefusedInCallback", new Class<?>[] {Engine.class}, Engine.NATIVE);
        assertEquals(List.of("inside a", "inside b", "after not refused 1", "end 4"),
                List.of(co.call(1), co.call(2), co.call(3), co.call(4)));
        assertEquals(List.of(), refusals(co));
    }

    @Test
    void aYieldInsideAJdkCallbackIsRefusedAndTheBodyGoesOn() {
        List<String> log = new ArrayList<>();
        Coroutine co = create("YieldInCallback", new Class<?>[] {List.class, Engine.class}, log, Engine.WOVEN);
        co.setName("sym-callback");
        Coroutine.yield();
        assertEquals(1, log.size(), log.toString());
        assertMessage(new IllegalStateException(log.get(0)), "refused: cannot suspend sym-callback [",
                "on the woven engine", "YieldInCallback.lambda$run$");
        assertFalse(co.isFinished());
        Coroutine.yield();
        assertEquals(2, log.size());
        assertEquals("end", log.get(1));
        assertTrue(co.isFinished());
    }

    @Test
    void aRetInsideSynchronizedIsRefusedNamingTheMonitor() {
        AsymCoroutine<Integer, String> co = create("SynchronizedRet", new Class<?>[] {Engine.class}, Engine.WOVEN);
        co.setName("locker");
        assertEquals("unlocked 1 false false", co.call(1), "both refused, and no monitor is left held");
        List<String> refusals = refusals(co);
        assertEquals(2, refusals.size(), refusals.toString());
        for (String refusal : refusals) {
            assertMessage(new IllegalStateException(refusal), "cannot suspend locker [", "on the woven engine",
                    "holds a monitor");
        }
        assertMessage(new IllegalStateException(refusals.get(0)), "SynchronizedRet.lockedBlock(SynchronizedRet.java:");
        assertMessage(new IllegalStateException(refusals.get(1)), "SynchronizedRet.lockedStep(SynchronizedRet.java:");
        assertEquals("end 2", co.call(2));
        assertTrue(co.isFinished());
    }

    /** Only the block holds the monitor: a ret after it is not refused on the woven engine (nor serialize() on the native one, below). */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRetAfterASynchronizedBlockInsideATryIsNotRefused(Engine engine) {
        AsymCoroutine<Integer, String> co = create("TryAroundSynchronized", new Class<?>[] {Engine.class}, engine);
        assertEquals("after 5 false", co.call(5));
        assertEquals("end 12", co.call(7));
        assertTrue(co.isFinished());
    }

    @Test
    void aCoroutineAfterASynchronizedBlockInsideATrySerializes() {
        AsymCoroutine<Integer, String> co = create("TryAroundSynchronized", new Class<?>[] {Engine.class}, Engine.NATIVE);
        assertEquals("after 5 false", co.call(5));
        co.serialize();
        assertEquals("end 12", co.call(7));
    }

    @Test
    void aRetReachedThroughReflectionIsRefused() {
        AsymCoroutine<Integer, String> co = create("ReflectiveRet", new Class<?>[] {Engine.class}, Engine.WOVEN);
        co.setName("reflective");
        assertEquals("after refused", co.call(1));
        Throwable thrown = field(co, "thrown");
        assertInstanceOf(IllegalStateException.class, thrown);
        assertMessage(thrown, "cannot suspend reflective [", "on the woven engine", "ReflectiveRet.inner");
        assertEquals("end 2", co.call(2));
        assertTrue(co.isFinished());
    }

    private static List<String> refusals(Object fixture) {
        return field(fixture, "refusals");
    }

    @SuppressWarnings("unchecked")
    private static <T> T field(Object owner, String name) {
        try {
            return (T) owner.getClass().getField(name).get(owner);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------ an override that is not woven

    @Test
    void anOverrideThatIsNotWovenRunsOnTheNativeEngine() {
        AsymCoroutine<Integer, String> co = partly.newInstance("UnwovenStep", Engine.NATIVE);
        assertEquals(List.of("step 0", "step 1", "after s5+s6+", "end 7"),
                List.of(co.call(1), co.call(5), co.call(6), co.call(7)));
        assertEquals(List.of("override 0", "override 1"), field(co, "log"));
    }

    @Test
    void anOverrideThatIsNotWovenIsRunAndItsSuspensionRefused() {
        AsymCoroutine<Integer, String> co = partly.newInstance("UnwovenStep", Engine.WOVEN);
        co.setName("stepper");
        assertEquals("after refused;refused;", co.call(1));
        assertEquals(List.of("override 0", "override 1"), field(co, "log"), "the override ran, each time");
        List<String> refusals = refusals(co);
        assertEquals(2, refusals.size());
        for (String refusal : refusals) {
            assertMessage(new IllegalStateException(refusal), "cannot suspend stepper [", "on the woven engine");
        }
        assertEquals("end 2", co.call(2));
        assertTrue(co.isFinished());
    }

    @Test
    void theRefusalThroughAnUnwovenOverrideNamesIt() {
        AsymCoroutine<Integer, String> co = partly.newInstance("UnwovenStep", Engine.WOVEN);
        co.setName("stepper");
        co.call(1);
        for (String refusal : refusals(co)) {
            assertMessage(new IllegalStateException(refusal), "UnwovenStep");
        }
    }

    @Test
    void theWovenBaseAloneRetsThroughItsStep() {
        AsymCoroutine<Integer, String> co = partly.newInstance("StepBase", Engine.WOVEN);
        assertEquals(List.of("step 0", "step 1", "after s5s6", "end 7"),
                List.of(co.call(1), co.call(5), co.call(6), co.call(7)));
    }
}
