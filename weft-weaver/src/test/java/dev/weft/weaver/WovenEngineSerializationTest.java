package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Serialization on the woven engine: a suspended woven coroutine's frames are read from its
 * fiber, without resuming it, and are the very frames the native engine captures at the same
 * point; frames move between the engines both ways; bad frames are refused.
 */
class WovenEngineSerializationTest extends WovenFixtureTest {

    private static final int MAX_CALLS = 300;
    private static final IntFunction<Object> INTEGERS = i -> (i * 7 + 3) % 11 + 1;
    private static final IntFunction<Object> STRINGS = i -> "in" + i;

    private static IntFunction<Object> inputsOf(String fixture) {
        return fixture.equals("Nested") || fixture.equals("NewArguments") ? STRINGS : INTEGERS;
    }

    private AsymCoroutine<Object, String> create(String fixture, Engine engine) {
        return loader.newInstance(fixture, engine);
    }

    /** Calls {@code co} with inputs {@code from} until {@code to} (exclusive) or its end; its outputs. */
    private static List<String> drive(AsymCoroutine<Object, String> co, IntFunction<Object> inputs, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to && !co.isFinished(); i++) {
            out.add(co.call(inputs.apply(i)));
        }
        return out;
    }

    /** Every output of a native run to its end. */
    private List<String> reference(String fixture) {
        AsymCoroutine<Object, String> co = create(fixture, Engine.NATIVE);
        List<String> all = drive(co, inputsOf(fixture), 0, MAX_CALLS);
        assertTrue(co.isFinished());
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"Accumulator", "Concat", "Guarded", "Loops", "Nested", "NewArguments", "Recursion",
            "Series", "Switches", "Varargs", "Walker", "Wide", "RecordPatterns", "SubStep", "DeepStack", "DeepThrow",
            "Chained", "ReceiverInLocal"})
    void framesMoveBetweenTheEnginesAtEverySuspension(String fixture) {
        IntFunction<Object> inputs = inputsOf(fixture);
        List<String> expected = reference(fixture);
        for (int k = 1; k < expected.size(); k++) {
            List<String> rest = expected.subList(k, expected.size());
            AsymCoroutine<Object, String> nativeOne = suspendedAt(fixture, Engine.NATIVE, k, expected);
            AsymCoroutine<Object, String> woven = suspendedAt(fixture, Engine.WOVEN, k, expected);
            assertSameFrames(nativeOne.serialize(), nativeOne, woven.serialize(), woven, fixture + " at suspension " + k);
            assertEquals(rest, drive(woven, inputs, k, MAX_CALLS), fixture + ": the serialized original goes on as before");
            // each copy gets frames of its own original: frames share the objects of the stack they come from
            for (Engine from : Engine.values()) {
                for (Engine to : Engine.values()) {
                    AsymCoroutine<Object, String> original = suspendedAt(fixture, from, k, expected);
                    AsymCoroutine<Object, String> copy = create(fixture, to);
                    copy.deserialize(Replay.rehome(original.serialize(), original, copy));
                    assertEquals(rest, drive(copy, inputs, k, MAX_CALLS),
                            fixture + ": frames at suspension " + k + " from " + from + " resumed on " + to);
                    original.close();
                }
            }
            nativeOne.close();
        }
    }

    /** A new coroutine of {@code fixture} on {@code engine}, called {@code k} times, which gave the first {@code k} of {@code expected}. */
    private AsymCoroutine<Object, String> suspendedAt(String fixture, Engine engine, int k, List<String> expected) {
        AsymCoroutine<Object, String> co = create(fixture, engine);
        assertEquals(expected.subList(0, k), drive(co, inputsOf(fixture), 0, k), fixture + " on " + engine);
        return co;
    }

    /** The name of a lambda's class up to its address: the class that made it, and a marker. */
    private static String lambdaHost(Object lambda) {
        String name = lambda.getClass().getName();
        return name.substring(0, name.indexOf('/'));
    }

    private static void assertSameFrames(CoroutineFrame[] expected, Object expectedOwner, CoroutineFrame[] actual,
            Object actualOwner, String where) {
        assertEquals(expected.length, actual.length, where + ": frames");
        for (int i = 0; i < expected.length; i++) {
            CoroutineFrame e = expected[i];
            CoroutineFrame a = actual[i];
            String frame = where + ", frame " + i + " " + e;
            assertEquals(e.method, a.method, frame);
            assertEquals(e.bci, a.bci, frame);
            assertEquals(e.localCount, a.localCount, frame);
            assertEquals(e.expressionCount, a.expressionCount, frame);
            assertArrayEquals(e.scalarValues, a.scalarValues, frame);
            for (int slot = 0; slot < e.objectValues.length; slot++) {
                Object ev = e.objectValues[slot] == expectedOwner ? actualOwner : e.objectValues[slot];
                Object av = a.objectValues[slot];
                if (ev == null || av == null || ev == actualOwner || ev instanceof Number || ev instanceof String) {
                    assertEquals(ev, av, frame + ", slot " + slot);
                } else if (ev.getClass().isHidden()) { // a twin's lambda is made by its own copy of the call site
                    assertTrue(av.getClass().isHidden(), frame + ", slot " + slot);
                    assertEquals(lambdaHost(ev), lambdaHost(av), frame + ", slot " + slot);
                } else {
                    assertSame(ev.getClass(), av.getClass(), frame + ", slot " + slot);
                }
            }
        }
    }

    @Test
    void aNewWovenCoroutineHasNoFramesAndAFinishedOneIsRefused() {
        AsymCoroutine<Object, String> co = create("Series", Engine.WOVEN);
        assertEquals(0, co.serialize().length);
        drive(co, INTEGERS, 0, MAX_CALLS);
        assertTrue(co.isFinished());
        assertThrows(IllegalStateException.class, co::serialize);
    }

    @Test
    void aWovenCoroutineGoesThroughBytes() {
        List<String> expected = reference("Accumulator");
        AsymCoroutine<Object, String> original = create("Accumulator", Engine.WOVEN);
        drive(original, INTEGERS, 0, 2);
        byte[] bytes;
        try {
            @SuppressWarnings("unchecked")
            AsymCoroutine<Integer, String> typed = (AsymCoroutine<Integer, String>) (AsymCoroutine<?, ?>) original;
            bytes = Replay.write(typed);
            @SuppressWarnings("unchecked")
            AsymCoroutine<Integer, String> target = (AsymCoroutine<Integer, String>) (AsymCoroutine<?, ?>) create("Accumulator", Engine.WOVEN);
            AsymCoroutine<Integer, String> copy = Replay.read(bytes, original.getClass().getClassLoader(), target);
            @SuppressWarnings("unchecked")
            AsymCoroutine<Object, String> untyped = (AsymCoroutine<Object, String>) (AsymCoroutine<?, ?>) copy;
            assertEquals(expected.subList(2, expected.size()), drive(untyped, INTEGERS, 2, MAX_CALLS));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void framesOfAnotherBodyAreRefusedAndTheCoroutineIsUntouched() {
        AsymCoroutine<Object, String> series = create("Series", Engine.WOVEN);
        drive(series, INTEGERS, 0, 2);
        AsymCoroutine<Object, String> wide = create("Wide", Engine.WOVEN);
        wide.setName("wide");
        List<String> expected = reference("Wide");
        drive(wide, INTEGERS, 0, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> wide.deserialize(Replay.rehome(series.serialize(), series, wide)));
        assertTrue(e.getMessage().contains("cannot deserialize into wide [suspended") && e.getMessage().contains("Series"),
                e.getMessage());
        assertEquals(expected.subList(1, expected.size()), drive(wide, INTEGERS, 1, MAX_CALLS));
    }

    @Test
    void framesWhoseOutermostMethodIsNotTheWovenEntryAreRefused() throws ReflectiveOperationException {
        AsymCoroutine<Object, String> series = create("Series", Engine.WOVEN);
        drive(series, INTEGERS, 0, 2);
        Object target = loader.loadClass("dev.weft.weaver.fixtures.SummingTarget").getConstructor().newInstance();
        @SuppressWarnings("unchecked")
        AsymCoroutine<Object, String> summing = new AsymCoroutine<>((dev.weft.AsymRunnable<Object, String>) target, Engine.WOVEN);
        summing.setName("summing");
        // Series rets on itself, so its frames cannot fit another coroutine: refused before the engine's entry check
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> summing.deserialize(series.serialize()));
        assertTrue(e.getMessage().contains("cannot deserialize into summing [new") && e.getMessage().contains("Series.run")
                && e.getMessage().contains("its ret is made on another coroutine"), e.getMessage());
        assertEquals(0, summing.serialize().length, "still new");
        assertEquals("sum 1", summing.call(1));
    }

    @Test
    void tamperedFramesAreRefusedOnTheWovenEngineToo() {
        AsymCoroutine<Object, String> original = create("Series", Engine.WOVEN);
        drive(original, INTEGERS, 0, 2);
        CoroutineFrame[] frames = original.serialize();
        frames[frames.length - 1].bci += 1;
        AsymCoroutine<Object, String> target = create("Series", Engine.WOVEN);
        target.setName("target");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> target.deserialize(Replay.rehome(frames, original, target)));
        assertTrue(e.getMessage().contains("not a suspension site"), e.getMessage());
        assertEquals(0, target.serialize().length, "the target is still new");
        List<String> expected = reference("Series");
        assertEquals(expected.subList(2, expected.size()), drive(original, INTEGERS, 2, MAX_CALLS));
    }
}
