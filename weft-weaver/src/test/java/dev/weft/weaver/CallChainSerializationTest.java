package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Hard cases of the call chain between the coroutine's entry and its suspension: recursion,
 * interface methods, lambdas and method references.
 */
class CallChainSerializationTest extends WovenFixtureTest {

    private static List<String> methodNames(CoroutineFrame[] frames) {
        return Arrays.stream(frames).map(f -> f.method.getName()).toList();
    }

    @Test
    void aRecursionSerializedFiftyLevelsDown() {
        List<Integer> inputs = Replay.inputs(10);
        List<String> expected = Replay.reference(fixture("Recursion"), inputs);
        AsymCoroutine<Integer, String> original = loader.newInstance("Recursion");
        assertEquals(expected.subList(0, 1), Replay.drive(original, inputs.subList(0, 1)));
        CoroutineFrame[] frames = original.serialize();
        // run(Integer), the bridge run(Object) passed through; then down() at depths 0 to 50
        assertEquals(1 + 50 + 1, frames.length, "frames: " + methodNames(frames));
        assertEquals("run", methodNames(frames).get(0));
        assertTrue(methodNames(frames).subList(1, frames.length).stream().allMatch("down"::equals));
        AsymCoroutine<Integer, String> copy = loader.newInstance("Recursion");
        copy.deserialize(Replay.rehome(frames, original, copy));
        assertEquals(expected.subList(1, expected.size()), Replay.drive(copy, inputs.subList(1, inputs.size())));
        assertTrue(copy.isFinished());
    }

    @Test
    void recursionAndMutualRecursionSerializedAtEverySuspension() {
        List<Integer> inputs = Replay.inputs(10);
        int tried = Replay.everySuspension(fixture("Recursion"), inputs);
        assertEquals(6, tried);
        AsymCoroutine<Integer, String> original = loader.newInstance("Recursion");
        Replay.drive(original, inputs.subList(0, 4)); // bottom, again, back, then half way down from even(n)
        List<String> names = methodNames(original.serialize());
        int n = inputs.get(3) % 4 + 20;
        assertEquals(1 + (n - 10 + 1), names.size(), "run(Integer) (its bridge passed through), then even(n), odd(n - 1) ... even(10): " + names);
        assertEquals("even", names.get(names.size() - 1));
        assertEquals("odd", names.get(names.size() - 2));
    }

    @Test
    void suspensionsInsideInterfaceDefaultStaticAndPrivateMethods() {
        assertEquals(16, Replay.everySuspension(fixture("Walker"), Replay.inputs(30)));
    }

    @Test
    void coroutinesWhoseCodeIsALambdaOrAMethodReference() {
        Function<String, AsymCoroutine<Integer, String>> lambdas = loader.newInstance("Lambdas");
        for (String kind : List.of("lambda", "capturing", "static reference", "bound reference")) {
            int tried = Replay.everySuspension(() -> lambdas.apply(kind), Replay.inputs(5));
            assertEquals(3, tried, kind);
        }
    }

    @Test
    void lambdasCalledInTheMiddleOfTheChainAreCalledAgainOnRestore() {
        AsymCoroutine<Integer, String> co = loader.newInstance("Chained");
        co.call(1);
        List<String> names = methodNames(co.serialize());
        assertEquals(2, names.size(), "run(Integer), the lambda's body, and no frame of the bridge or the proxy: " + names);
        assertTrue(names.get(1).startsWith("lambda$run$"), names.get(1));
        assertEquals(6, Replay.everySuspension(fixture("Chained"), Replay.inputs(10)));
    }
}
