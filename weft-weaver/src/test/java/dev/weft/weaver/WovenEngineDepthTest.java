package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deep stacks on both engines: on the woven engine a resume rebuilds only the innermost saved
 * frame, and each outer one when the frame above it returns or throws, and a suspension saves
 * only the frames that ran since the last one. Values, exceptions, finally blocks, close and
 * serialization behave at depth exactly as on the native engine.
 */
class WovenEngineDepthTest extends WovenFixtureTest {

    private static final Class<?>[] ENGINE_AND_DEPTH = {Engine.class, int.class};

    private AsymCoroutine<Integer, String> create(String fixture, Engine engine, int depth) {
        return WovenEngineSemanticsTest.create(loader, fixture, ENGINE_AND_DEPTH, engine, depth);
    }

    /** Calls {@code co} with 1, 2, 3... until it finishes; what it passed out, and how it ended. */
    private static List<String> toTheEnd(AsymCoroutine<Integer, String> co, int from) {
        List<String> out = new ArrayList<>();
        for (int i = from; !co.isFinished(); i++) {
            out.add(co.call(i));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 1000})
    void valuesOfEveryKindSurviveManySwitchesAtDepth(int depth) {
        List<String> onNative = toTheEnd(create("DeepStack", Engine.NATIVE, depth), 1);
        List<String> onWoven = toTheEnd(create("DeepStack", Engine.WOVEN, depth), 1);
        int bottom = 3 + depth / 10;
        int up = (int) IntStream.rangeClosed(0, depth).filter(n -> n % 7 == 3).count();
        assertEquals(bottom + 2 * up + 1, onNative.size(), "every suspension, then the end: " + onNative);
        assertTrue(onNative.getLast().startsWith("end "), onNative.getLast());
        assertEquals(onNative, onWoven);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aResumedFrameSeesOnlyItselfOnTheWovenEngineAndTheWholeStackOnTheNativeOne(Engine engine) {
        AsymCoroutine<Integer, String> co = create("FrameCount", engine, 200);
        assertEquals("frames 201", co.call(1), "the first run calls every frame");
        String again = engine == Engine.WOVEN ? "frames 1" : "frames 201";
        assertEquals(again, co.call(1));
        assertEquals(again, co.call(1));
        assertEquals(engine == Engine.WOVEN ? "end 1" : "end 201", co.call(0));
        assertTrue(co.isFinished());
    }

    @ParameterizedTest
    @CsvSource({"NATIVE, 12", "WOVEN, 12", "NATIVE, 200", "WOVEN, 200"})
    void anExceptionThrownByAResumedFrameIsCaughtByAnOuterFramesHandler(Engine engine, int depth) {
        AsymCoroutine<Integer, String> co = create("DeepThrow", engine, depth);
        assertEquals(List.of("bottom 1", "bottom again 2", "caught at " + depth / 2,
                "run caught rethrown at " + depth / 2 + " with 4, caused by thrown at the bottom after 3"), toTheEnd(co, 1));
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < depth / 2; n++) {
            expected.add("finally " + n);
        }
        expected.add("caught at " + depth / 2 + ": thrown at the bottom after 3");
        for (int n = depth / 2; n <= depth; n++) {
            expected.add("finally " + n);
        }
        assertEquals(expected, log(co));
    }

    @ParameterizedTest
    @CsvSource({"NATIVE, 12", "WOVEN, 12", "NATIVE, 1000", "WOVEN, 1000"})
    void closeAtDepthRunsEveryFinallyBlockInnermostFirst(Engine engine, int depth) {
        AsymCoroutine<Integer, String> co = create("DeepThrow", engine, depth);
        assertEquals("bottom 1", co.call(1));
        assertEquals("bottom again 2", co.call(2));
        co.close();
        assertTrue(co.isFinished());
        assertEquals(IntStream.rangeClosed(0, depth).mapToObj(n -> "finally " + n).toList(), log(co));
    }

    @ParameterizedTest
    @CsvSource({"NATIVE, 12", "WOVEN, 12", "NATIVE, 1000", "WOVEN, 1000"})
    void closeWhileSuspendedInAnOuterFramesHandlerRunsTheRest(Engine engine, int depth) {
        AsymCoroutine<Integer, String> co = create("DeepThrow", engine, depth);
        assertEquals(List.of("bottom 1", "bottom again 2", "caught at " + depth / 2), List.of(co.call(1), co.call(2), co.call(3)));
        co.close();
        assertTrue(co.isFinished());
        List<String> log = log(co);
        assertEquals(IntStream.rangeClosed(depth / 2, depth).mapToObj(n -> "finally " + n).toList(),
                log.subList(depth / 2 + 1, log.size()));
    }

    @ParameterizedTest
    @CsvSource({"NATIVE, NATIVE", "NATIVE, WOVEN", "WOVEN, NATIVE", "WOVEN, WOVEN"})
    void aCoroutineSerializedAtDepthFinishesWhereverItIsDeserialized(Engine from, Engine to) {
        int depth = 200;
        List<String> expected = toTheEnd(create("DeepStack", Engine.NATIVE, depth), 1);
        for (int calls : List.of(1, 24, 30, 40)) { // at the bottom; on the way up; in a side call; on the way up again
            AsymCoroutine<Integer, String> original = create("DeepStack", from, depth);
            for (int i = 1; i <= calls; i++) {
                assertEquals(expected.get(i - 1), original.call(i));
            }
            CoroutineFrame[] frames = original.serialize();
            assertTrue(frames.length > 1, "suspended below its body: " + frames.length + " frames");
            AsymCoroutine<Integer, String> copy = create("DeepStack", to, depth);
            copy.deserialize(Replay.rehome(frames, original, copy));
            assertEquals(expected.subList(calls, expected.size()), toTheEnd(copy, calls + 1), "after " + calls + " calls");
            assertEquals(expected.subList(calls, expected.size()), toTheEnd(original, calls + 1), "the original goes on");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aCoroutineSerializedAtDepthGoesThroughBytes(Engine engine) throws IOException {
        int depth = 200;
        List<String> expected = toTheEnd(create("DeepStack", Engine.NATIVE, depth), 1);
        AsymCoroutine<Integer, String> original = create("DeepStack", engine, depth);
        for (int i = 1; i <= 26; i++) {
            original.call(i);
        }
        byte[] bytes = Replay.write(original);
        AsymCoroutine<Integer, String> copy = Replay.read(bytes, original.getClass().getClassLoader(),
                create("DeepStack", engine, depth));
        assertEquals(expected.subList(26, expected.size()), toTheEnd(copy, 27));
    }

    @Test
    void framesSavedBeforeAResumeAreReadWithoutResumingAndMatchTheNativeEnginesAtEverySuspension() {
        int depth = 40;
        AsymCoroutine<Integer, String> onNative = create("DeepStack", Engine.NATIVE, depth);
        AsymCoroutine<Integer, String> woven = create("DeepStack", Engine.WOVEN, depth);
        for (int i = 1; !onNative.isFinished(); i++) {
            assertEquals(onNative.call(i), woven.call(i));
            if (!onNative.isFinished()) {
                CoroutineFrame[] expected = onNative.serialize();
                CoroutineFrame[] actual = woven.serialize();
                assertEquals(expected.length, actual.length, "frames after call " + i);
                for (int f = 0; f < expected.length; f++) {
                    assertEquals(expected[f].method, actual[f].method, "frame " + f + " after call " + i);
                    assertEquals(expected[f].bci, actual[f].bci, "frame " + f + " after call " + i);
                    assertArrayEquals(expected[f].scalarValues, actual[f].scalarValues, "scalars of frame " + f + " after call " + i);
                }
            }
        }
        assertTrue(woven.isFinished());
    }

    @SuppressWarnings("unchecked")
    private static List<String> log(Object co) {
        try {
            return (List<String>) co.getClass().getField("log").get(co);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
