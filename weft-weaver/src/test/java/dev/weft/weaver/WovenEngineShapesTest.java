package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every shape of woven code the serialization tests cover runs on the woven engine exactly as on
 * the native one, lambdas and method references in the middle of the chain included: a fresh instance of each fixture, called with the same inputs on each engine,
 * gives the same outputs and ends the same way.
 */
class WovenEngineShapesTest extends WovenFixtureTest {

    /** More calls than any fixture needs to finish. */
    private static final int MAX_CALLS = 300;

    /** The inputs of the fixtures that take integers: small, of both parities, never zero. */
    private static final IntFunction<Object> INTEGERS = i -> (i * 7 + 3) % 11 + 1;
    /** The inputs of the fixtures that take strings. */
    private static final IntFunction<Object> STRINGS = i -> "in" + i;

    /** What a coroutine passed out, call by call, and how it ended. */
    private static List<String> drive(AsymCoroutine<Object, String> co, IntFunction<Object> inputs) {
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < MAX_CALLS && !co.isFinished(); i++) {
            try {
                seen.add("out " + co.call(inputs.apply(i)));
            } catch (RuntimeException | Error e) {
                seen.add("threw " + e.getClass().getName() + ": " + e.getMessage().replace(co.getName(), "<co>"));
                assertTrue(co.isFinished(), "a coroutine whose code threw has finished");
            }
        }
        seen.add(co.isFinished() ? "finished" : "still running after " + MAX_CALLS + " calls");
        return seen;
    }

    private List<String> play(String fixture, Engine engine) {
        AsymCoroutine<Object, String> co = loader.newInstance(fixture, engine);
        assertSame(engine, co.engine());
        IntFunction<Object> inputs = fixture.equals("Nested") || fixture.equals("NewArguments") ? STRINGS : INTEGERS;
        return drive(co, inputs);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Accumulator", "Concat", "Guarded", "Loops", "Nested", "NewArguments", "Recursion",
            "Series", "Switches", "Varargs", "Walker", "Wide", "RecordPatterns", "SubStep", "DeepStack", "DeepThrow",
            "Chained", "MethodReferenceInChain", "shapes.other.Overrides"})
    void aFixtureRunsOnTheWovenEngineAsOnTheNativeOne(String fixture) {
        List<String> onNative = play(fixture, Engine.NATIVE);
        assertTrue(onNative.size() > 2, "the fixture suspends at least once: " + onNative);
        assertEquals("finished", onNative.getLast(), "the native run finishes");
        List<String> onWoven = play(fixture, Engine.WOVEN);
        assertEquals(onNative, onWoven);
    }
}
