package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What the woven engine does, value by value: locals, entries, iteration, exceptions, close, stealing, rings and nesting. */
class WovenEngineSemanticsTest extends WovenFixtureTest {

    private static final String FIXTURES = "dev.weft.weaver.fixtures.";

    /** A new instance of the woven fixture {@code simpleName}, by its constructor of these parameter types. */
    @SuppressWarnings("unchecked")
    static <T> T create(WovenLoader loader, String simpleName, Class<?>[] types, Object... arguments) {
        try {
            return (T) loader.loadClass(FIXTURES + simpleName).getConstructor(types).newInstance(arguments);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError(e);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private <T> T create(String simpleName, Class<?>[] types, Object... arguments) {
        return create(loader, simpleName, types, arguments);
    }

    @SuppressWarnings("unchecked")
    private static <T> T field(Object owner, String name) {
        try {
            return (T) owner.getClass().getField(name).get(owner);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static <I, O> List<O> drive(AsymCoroutine<I, O> co, List<I> inputs) {
        List<O> out = new ArrayList<>();
        for (I input : inputs) {
            out.add(co.call(input));
        }
        return out;
    }

    // ------------------------------------------------------------ locals and entries

    @ParameterizedTest
    @EnumSource(Engine.class)
    void localsOfEveryKindSurviveThreeHelpersDownBehindTheBridge(Engine engine) {
        AsymCoroutine<Integer, String> co = loader.newInstance("DeepLocals", engine);
        assertSame(engine, co.engine());
        assertEquals(List.of("r0 f0.0 true", "r1 f1.5 false", "r2 f3.0 true",
                "end 30000000072 73.5 72.75 false [11, 23, 38] 112338"), drive(co, List.of(3, 10, 20, 30)));
        assertTrue(co.isFinished());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void defaultAndStaticInterfaceMethodsRet(Engine engine) {
        AsymCoroutine<Integer, String> co = loader.newInstance("AskingBody", engine);
        assertEquals(List.of("x1?", "again 5", "again 1", "end x1=5,12,3"), drive(co, List.of(1, 5, 7, 2)));
        assertTrue(co.isFinished());
    }

    @Test
    void aNamedAsymRunnableClassIsABody() {
        AsymRunnable<Integer, String> target = create("SummingTarget", new Class<?>[0]);
        AsymCoroutine<Integer, String> co = new AsymCoroutine<>(target, Engine.WOVEN);
        assertSame(Engine.WOVEN, co.engine());
        assertEquals(List.of("sum 1", "sum 3", "sum 6", "total 10"), drive(co, List.of(1, 2, 3, 4)));
        assertTrue(co.isFinished());
    }

    @Test
    void aNamedRunnableClassIsABody() {
        List<String> log = new ArrayList<>();
        Runnable target = create("LoggingTarget", new Class<?>[] {List.class}, log);
        Coroutine co = new Coroutine(target, Engine.WOVEN);
        assertSame(Engine.WOVEN, co.engine());
        Coroutine.yield();
        assertEquals(List.of("step 0"), log);
        Coroutine.yield();
        Coroutine.yield();
        assertEquals(List.of("step 0", "step 1", "step 2"), log);
        assertFalse(co.isFinished());
        Coroutine.yield();
        assertEquals(List.of("step 0", "step 1", "step 2", "done"), log);
        assertTrue(co.isFinished());
    }

    @Test
    void theBodyRunsOnTwinsWithoutAContinuationOnTheWovenEngineAndWithOneOnTheNative() {
        AsymCoroutine<Integer, String> woven = loader.newInstance("Introspect", Engine.WOVEN);
        for (String frames : List.of(woven.call(0), woven.call(0))) { // before the first ret, and after a rewind
            List<String> seen = Arrays.asList(frames.split(","));
            assertTrue(seen.stream().anyMatch(f -> f.endsWith("$weft")), frames);
            assertTrue(seen.contains(FIXTURES + "Introspect.run$weft"), frames);
            assertFalse(seen.stream().anyMatch(f -> f.startsWith("jdk.internal.vm.Continuation")), frames);
        }
        assertTrue(woven.isFinished());

        AsymCoroutine<Integer, String> onNative = loader.newInstance("Introspect", Engine.NATIVE);
        String frames = onNative.call(0);
        assertTrue(frames.contains(FIXTURES + "Introspect.run$weft"), "the native engine runs a woven body as twins: " + frames);
        assertTrue(frames.contains("jdk.internal.vm.Continuation"), "on a continuation: " + frames);
    }

    // ------------------------------------------------------------ iteration, exceptions, close, try/catch

    @Test
    void aWovenGeneratorIterates() {
        AsymCoroutine<Void, Integer> squares = create("Squares", new Class<?>[] {int.class, Engine.class}, 5, Engine.WOVEN);
        List<Integer> seen = new ArrayList<>();
        for (int square : squares) {
            seen.add(square);
        }
        assertEquals(List.of(25, 16, 9, 4, 1, -1), seen, "the rets, then what run returns");
        assertTrue(squares.isFinished());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anExceptionThrownAfterRetsPropagatesOutOfCall(Engine engine) {
        AsymCoroutine<Integer, String> co = loader.newInstance("Thrower", engine);
        assertEquals(List.of("step 0", "step 1", "step 2"), drive(co, List.of(1, 10, 100)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> co.call(1000));
        assertEquals("boom after 1111", e.getMessage());
        assertTrue(co.isFinished());
        assertThrows(IllegalStateException.class, () -> co.call(0));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void closeRunsTheFinallyBlocksInnermostFirst(Engine engine) {
        AsymCoroutine<Integer, String> co = loader.newInstance("Finallies", engine);
        List<String> log = field(co, "log");
        assertEquals(List.of("inner 4", "inner again 5"), drive(co, List.of(4, 5)));
        assertEquals(List.of(), log);
        co.close(); // the CoroutineExitException stays inside
        assertEquals(List.of("inner caught CoroutineExitException", "inner finally 5", "outer finally", "run finally"), log);
        assertTrue(co.isFinished());
        co.close(); // finished: nothing more happens
        assertEquals(4, log.size());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void finallyBlocksRunOnceWhenTheBodyEndsNormally(Engine engine) {
        AsymCoroutine<Integer, String> co = loader.newInstance("Finallies", engine);
        List<String> log = field(co, "log");
        assertEquals(List.of("inner 4", "inner again 5", "end inner 6/outer"), drive(co, List.of(4, 5, 6)));
        assertEquals(List.of("inner finally 6", "outer finally", "run finally"), log);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aCatchAroundARetIsReachedAfterTheResume(Engine engine) {
        AsymCoroutine<Integer, String> co = loader.newInstance("Catcher", engine);
        assertEquals(List.of("try 0 7", "caught 0 / by zero", "try 1 5", "try 2 20", "caught 2 / by zero",
                "end !;5;!; 9"), drive(co, List.of(7, 0, 5, 20, 0, 9)));
        assertTrue(co.isFinished());
    }

    // ------------------------------------------------------------ depth

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aThousandFramesDeepRetIsResumedSeveralTimes(Engine engine) {
        AsymCoroutine<Integer, String> co = create("DeepRecursion", new Class<?>[] {int.class, Engine.class}, 1000, engine);
        assertEquals(List.of("bottom 1000 1000", "bottom 1000 1001", "bottom 1000 1003", "end 2006"),
                drive(co, List.of(0, 1, 2, 3)));
        assertTrue(co.isFinished());
    }

    /** A chain of {@code length} links whose engines {@code engines} gives by position, head first; the head. */
    private AsymCoroutine<Integer, Integer> chain(int length, java.util.function.IntFunction<Engine> engines) {
        AsymCoroutine<Integer, Integer> next = null;
        for (int i = length - 1; i >= 0; i--) {
            next = create("Link", new Class<?>[] {AsymCoroutine.class, Engine.class}, next, engines.apply(i));
            next.setName("link " + i);
        }
        return next;
    }

    @Test
    void fiftyNestedWovenCoroutinesEachCallTheNext() {
        AsymCoroutine<Integer, Integer> head = chain(50, i -> Engine.WOVEN);
        assertEquals(List.of(51, 53, 55, 249), drive(head, List.of(1, 2, 3, 100)));
        assertEquals(50, CoroutineBase.closeAll());
    }

    @Test
    void wovenAndNativeCoroutinesCallEachOther() {
        AsymCoroutine<Integer, Integer> head = chain(10, i -> i % 2 == 0 ? Engine.WOVEN : Engine.NATIVE);
        assertSame(Engine.WOVEN, head.engine());
        assertEquals(List.of(11, 13, 209), drive(head, List.of(1, 2, 100)));
        assertEquals(10, CoroutineBase.closeAll());
    }

    // ------------------------------------------------------------ threads

    @Test
    void aStolenWovenAsymmetricCoroutineGoesOnOnTheOtherThread() throws Exception {
        AsymCoroutine<String, String> co = loader.newInstance("Nested", Engine.WOVEN);
        assertEquals(List.of("a/0#0", "b!/1#10"), drive(co, List.of("a", "b")));
        List<String> there = onAnotherThread(() -> {
            assertTrue(co.steal());
            return drive(co, List.of("c", "d"));
        });
        assertEquals(List.of("c!/2#20", "finished with d!"), there);
        assertTrue(co.isFinished());
    }

    @Test
    void aStolenWovenSymmetricCoroutineIsYieldedToOnTheOtherThread() throws Exception {
        List<String> log = new ArrayList<>();
        Coroutine co = create("Yielder", new Class<?>[] {List.class, Engine.class}, log, Engine.WOVEN);
        Coroutine.yield();
        assertEquals(List.of("step 0 main"), log);
        boolean finishedThere = onAnotherThread(() -> {
            assertTrue(co.steal());
            Coroutine.yieldTo(co);
            Coroutine.yield();
            Coroutine.yield();
            return co.isFinished();
        });
        assertTrue(finishedThere);
        assertEquals(List.of("step 0 main", "step 1 restorer", "step 2 restorer", "done"), log);
        Coroutine.yield(); // it left this thread's ring
        assertEquals(4, log.size());
    }

    // ------------------------------------------------------------ rings

    private List<String> mixedRing(Engine a, Engine b, Engine c, Engine d) {
        List<String> log = new ArrayList<>();
        Class<?>[] types = {String.class, List.class, Engine.class};
        Coroutine ha = create("Hopper", types, "A", log, a);
        Coroutine hb = create("Hopper", types, "B", log, b);
        Coroutine hc = create("Hopper", types, "C", log, c);
        Coroutine hd = create("Hopper", types, "D", log, d);
        setJump(ha, hd); // woven to native
        setJump(hd, hb); // native to woven
        for (int i = 0; i < 5 && !List.of(ha, hb, hc, hd).stream().allMatch(Coroutine::isFinished); i++) {
            Coroutine.yield();
            log.add("main");
        }
        assertTrue(List.of(ha, hb, hc, hd).stream().allMatch(Coroutine::isFinished), log.toString());
        return log;
    }

    private static void setJump(Coroutine from, Coroutine to) {
        try {
            from.getClass().getField("jumpTo").set(from, to);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aRingOfThreeWovenCoroutinesAndANativeOneSwitchesInOrder() {
        // a new coroutine joins the ring right after its creator: the ring is main, D, C, B, A
        List<String> expected = List.of("D1", "C1", "B1", "A1", "main", "D2", "B2", "A2", "D3", "C2", "B3", "A3",
                "main", "C3", "main");
        assertEquals(expected, mixedRing(Engine.NATIVE, Engine.NATIVE, Engine.NATIVE, Engine.NATIVE), "all native");
        assertEquals(expected, mixedRing(Engine.WOVEN, Engine.WOVEN, Engine.WOVEN, Engine.NATIVE), "mixed");
    }

    // ------------------------------------------------------------ dispatch

    /**
     * javac calls a private method with invokevirtual; the JVM runs the private method itself
     * even when the receiver's class declares one of the same name and descriptor.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aPrivateMethodIsNotReplacedByASubclassMethodOfTheSameSignature(Engine engine) {
        AsymCoroutine<Integer, String> co = loader.newInstance("PrivateShadow", engine);
        assertEquals("base 1", co.call(1));
        assertEquals("end base 2", co.call(2));
        assertTrue(co.isFinished());
    }
}
