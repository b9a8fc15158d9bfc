package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Suspend woven code, capture its frames, restore them into a new coroutine, and compare every value. */
class SerializationTest extends WovenFixtureTest {

    private static List<String> drive(AsymCoroutine<Integer, String> co, int... inputs) {
        List<String> out = new ArrayList<>();
        for (int input : inputs) {
            out.add(co.call(input));
        }
        return out;
    }

    @Test
    void localsOfEveryKindSurviveACaptureAndRestoreIntoANewCoroutine() {
        AsymCoroutine<Integer, String> reference = loader.newInstance("Accumulator");
        List<String> expected = drive(reference, 1, 2, 3, 4, 5, 6);

        AsymCoroutine<Integer, String> original = loader.newInstance("Accumulator");
        assertEquals(expected.subList(0, 2), drive(original, 1, 2));
        CoroutineFrame[] frames = original.serialize();
        assertTrue(frames.length >= 1, "frames: " + frames.length);

        AsymCoroutine<Integer, String> copy = loader.newInstance("Accumulator");
        copy.deserialize(Replay.rehome(frames, original, copy));
        assertEquals(expected.subList(2, 6), drive(copy, 3, 4, 5, 6));
        assertTrue(copy.isFinished());
    }

    @Test
    void aSerializedCoroutineGoesOnAsBefore() {
        AsymCoroutine<Integer, String> reference = loader.newInstance("Accumulator");
        List<String> expected = drive(reference, 1, 2, 3, 4, 5, 6);
        AsymCoroutine<Integer, String> co = loader.newInstance("Accumulator");
        assertEquals(expected.subList(0, 3), drive(co, 1, 2, 3));
        co.serialize();
        co.serialize(); // again, before it ran: the same frames
        assertEquals(expected.subList(3, 6), drive(co, 4, 5, 6));
    }

    @Test
    void framesChangedAfterDeserializeDoNotReachTheCoroutine() {
        AsymCoroutine<Integer, String> reference = loader.newInstance("Accumulator");
        List<String> expected = drive(reference, 1, 2, 3, 4);
        AsymCoroutine<Integer, String> original = loader.newInstance("Accumulator");
        drive(original, 1, 2);
        CoroutineFrame[] frames = original.serialize();
        AsymCoroutine<Integer, String> copy = loader.newInstance("Accumulator");
        copy.deserialize(Replay.rehome(frames, original, copy));
        for (CoroutineFrame frame : frames) { // what deserialize checked must be what it restores
            java.util.Arrays.fill(frame.objectValues, "tampered");
            java.util.Arrays.fill(frame.scalarValues, Long.MAX_VALUE);
            frame.bci = -1;
        }
        assertEquals(expected.subList(2, 4), drive(copy, 3, 4));
    }

    @Test
    void framesShareTheObjectsOfTheStack() {
        AsymCoroutine<Integer, String> co = loader.newInstance("Accumulator");
        drive(co, 1, 2);
        CoroutineFrame[] frames = co.serialize();
        long arrays = java.util.Arrays.stream(frames).flatMap(f -> java.util.Arrays.stream(f.objectValues))
                .filter(int[].class::isInstance).count();
        assertEquals(1, arrays, "the histogram is captured by reference, once");
    }

    @Test
    void deserializingEarlierFramesRollsACoroutineBack() {
        AsymCoroutine<Integer, String> co = loader.newInstance("Series");
        drive(co, 3, 1);
        CoroutineFrame[] checkpoint = co.serialize();
        List<String> ahead = drive(co, 4, 1, 5);
        co.deserialize(checkpoint);
        assertEquals(ahead, drive(co, 4, 1, 5), "replayed from the checkpoint");
        co.deserialize(checkpoint);
        assertEquals(ahead, drive(co, 4, 1, 5), "and again");
    }

    /** Every prefix of the conversation, serialized there and finished by a restored copy, gives the same result. */
    @Test
    void suspensionsInsideTheArgumentsOfNewAreSerializable() {
        List<String> answers = List.of("one", "two", "three");
        for (String input : List.of("x", "")) {
            AsymCoroutine<String, String> reference = loader.newInstance("NewArguments");
            List<String> expected = new ArrayList<>();
            expected.add(reference.call(input));
            answers.forEach(a -> expected.add(reference.call(a)));
            for (int cut = 1; cut <= answers.size(); cut++) {
                AsymCoroutine<String, String> original = loader.newInstance("NewArguments");
                List<String> seen = new ArrayList<>();
                seen.add(original.call(input));
                for (int k = 0; k < cut - 1; k++) {
                    seen.add(original.call(answers.get(k)));
                }
                AsymCoroutine<String, String> copy = loader.newInstance("NewArguments");
                copy.deserialize(Replay.rehome(original.serialize(), original, copy));
                for (int k = cut - 1; k < answers.size(); k++) {
                    seen.add(copy.call(answers.get(k)));
                }
                assertEquals(expected, seen, "input '" + input + "', serialized after " + cut + " answers");
            }
        }
    }

    @Test
    void theSimplestSuspensionInNewArguments() {
        AsymCoroutine<String, String> co = loader.newInstance("SuspendsInNewArguments");
        assertEquals("give me text", co.call(null));
        AsymCoroutine<String, String> copy = loader.newInstance("SuspendsInNewArguments");
        copy.deserialize(Replay.rehome(co.serialize(), co, copy));
        assertEquals("olleh", copy.call("hello"));
    }
}
