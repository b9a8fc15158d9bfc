package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.AsymCoroutine;
import org.junit.jupiter.api.Test;

/**
 * Hard cases of frame contents: two-slot values, varargs arrays and string concatenation
 * operands, captured at every suspension and restored into a new coroutine.
 */
class FrameShapeSerializationTest extends WovenFixtureTest {

    @Test
    void longsAndDoublesAsLocalsArgumentsResultsAndOnTheOperandStack() {
        assertEquals(27, Replay.everySuspension(fixture("Wide"), Replay.inputs(30)));
    }

    @Test
    void suspensionsInsideVarargsArgumentsAndWithAVarargsArrayLive() {
        assertEquals(10, Replay.everySuspension(fixture("Varargs"), Replay.inputs(20)));
    }

    @Test
    void suspensionsAmongStringConcatenationOperands() {
        assertEquals(6, Replay.everySuspension(fixture("Concat"), Replay.inputs(10)));
    }
}
