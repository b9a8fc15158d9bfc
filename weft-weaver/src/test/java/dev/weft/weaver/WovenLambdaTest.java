package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lambdas and method references of a woven class as the body of a coroutine on the woven engine:
 * capturing or not, serializable or not, static and bound references, a lambda calling another
 * that suspends; each runs as on the native engine, and its frames move between the engines and
 * through bytes. (Lambdas in the middle of the chain are in {@link WovenEngineShapesTest} and
 * {@link WovenEngineSerializationTest}: the {@code Chained} and {@code MethodReferenceInChain}
 * fixtures.)
 */
class WovenLambdaTest extends WovenFixtureTest {

    private static final List<Integer> INPUTS = List.of(3, 10, 20, 30, 40);

    private BiFunction<String, Engine, AsymCoroutine<Integer, String>> bodies() {
        return loader.newInstance("LambdaBodies");
    }

    private static List<String> drive(AsymCoroutine<Integer, String> co, int from) {
        return drive(co, from, INPUTS.size());
    }

    private static List<String> drive(AsymCoroutine<Integer, String> co, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to && !co.isFinished(); i++) {
            out.add(co.call(INPUTS.get(i)));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"lambda", "capturing", "serializable", "static reference", "bound reference", "nested"})
    void aLambdaBodyRunsOnTheWovenEngineAsOnTheNativeOne(String kind) {
        List<String> onNative = drive(bodies().apply(kind, Engine.NATIVE), 0);
        assertEquals(4, onNative.size(), onNative.toString());
        assertTrue(onNative.getLast().startsWith("end "), onNative.toString());
        AsymCoroutine<Integer, String> woven = bodies().apply(kind, Engine.WOVEN);
        assertSame(Engine.WOVEN, woven.engine());
        assertEquals(onNative, drive(woven, 0));
        assertTrue(woven.isFinished());
    }

    @ParameterizedTest
    @ValueSource(strings = {"lambda", "capturing", "serializable", "static reference", "bound reference", "nested"})
    void aLambdaBodysFramesMoveBetweenTheEnginesAtEverySuspension(String kind) {
        List<String> expected = drive(bodies().apply(kind, Engine.NATIVE), 0);
        for (int k = 1; k < expected.size(); k++) {
            for (Engine from : Engine.values()) {
                for (Engine to : Engine.values()) {
                    BiFunction<String, Engine, AsymCoroutine<Integer, String>> bodies = bodies();
                    AsymCoroutine<Integer, String> original = bodies.apply(kind, from);
                    for (int i = 0; i < k; i++) {
                        original.call(INPUTS.get(i));
                    }
                    CoroutineFrame[] frames = original.serialize();
                    AsymCoroutine<Integer, String> copy = bodies.apply(kind, to);
                    copy.deserialize(Replay.rehome(frames, original, copy));
                    String where = kind + " after " + k + " calls, " + from + " to " + to;
                    assertEquals(expected.subList(k, expected.size()), drive(copy, k), where);
                    assertEquals(expected.subList(k, expected.size()), drive(original, k), where + ": the original");
                }
            }
        }
    }

    @Test
    void aSerializableLambdaBodyGoesThroughBytesOnTheWovenEngine() throws IOException {
        List<String> expected = drive(bodies().apply("serializable", Engine.NATIVE), 0);
        AsymCoroutine<Integer, String> original = bodies().apply("serializable", Engine.WOVEN);
        original.call(INPUTS.get(0));
        original.call(INPUTS.get(1));
        byte[] bytes = Replay.write(original);
        AsymCoroutine<Integer, String> copy = Replay.read(bytes, loader,
                bodies().apply("serializable", Engine.WOVEN));
        assertEquals(expected.subList(2, expected.size()), drive(copy, 2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Chained", "MethodReferenceInChain"})
    void lambdasInTheMiddleOfTheChainGoThroughBytesOnTheWovenEngineAtEverySuspension(String fixture) throws IOException {
        List<String> expected = drive(loader.newInstance(fixture, Engine.NATIVE), 0);
        assertTrue(expected.size() >= 3, expected.toString());
        for (int k = 1; k < expected.size(); k++) {
            AsymCoroutine<Integer, String> original = loader.newInstance(fixture, Engine.WOVEN);
            assertEquals(expected.subList(0, k), drive(original, 0, k));
            byte[] bytes = Replay.write(original);
            AsymCoroutine<Integer, String> copy = Replay.read(bytes, loader, loader.newInstance(fixture, Engine.WOVEN));
            assertEquals(expected.subList(k, expected.size()), drive(copy, k), fixture + " after " + k + " calls");
        }
    }

    @Test
    void aLambdaBodyOfASymmetricCoroutineRunsOnTheWovenEngine() throws ReflectiveOperationException {
        List<String> log = new ArrayList<>();
        Coroutine co = (Coroutine) loader.loadClass("dev.weft.weaver.fixtures.LambdaBodies")
                .getMethod("symmetric", List.class, Engine.class).invoke(null, log, Engine.WOVEN);
        assertSame(Engine.WOVEN, co.engine());
        Coroutine.yield();
        assertEquals(List.of("step 0"), log);
        Coroutine.yield();
        Coroutine.yield();
        assertFalse(co.isFinished());
        Coroutine.yield();
        assertEquals(List.of("step 0", "step 1", "step 2", "done"), log);
        assertTrue(co.isFinished());
    }
}
