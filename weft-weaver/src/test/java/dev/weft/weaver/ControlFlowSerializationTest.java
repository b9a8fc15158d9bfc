package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.AsymCoroutine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hard cases of control flow around a suspension: exception handlers, loops and switches. */
class ControlFlowSerializationTest extends WovenFixtureTest {

    /** For {@code Guarded}: the second and seventh inputs, odd, pass through its try block; the fourth throws there. */
    private static final List<Integer> GUARDED_INPUTS = List.of(3, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
            20, 21, 22);

    private static int finallyRuns(Object guarded) {
        try {
            return guarded.getClass().getField("finallyRuns").getInt(guarded);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void suspensionsInsideTryCatchAndFinally() {
        assertEquals(14, Replay.everySuspension(fixture("Guarded"), GUARDED_INPUTS));
    }

    @Test
    void everyFinallyBlockRunsExactlyOnceAcrossACaptureAndRestore() {
        AsymCoroutine<Integer, String> reference = loader.newInstance("Guarded");
        List<String> expected = Replay.drive(reference, GUARDED_INPUTS);
        int total = finallyRuns(reference);
        assertEquals(7, total, "three rounds, the exceptional finally, thrower's twice, and returning's");
        for (int k = 1; k < expected.size(); k++) {
            AsymCoroutine<Integer, String> original = loader.newInstance("Guarded");
            Replay.drive(original, GUARDED_INPUTS.subList(0, k));
            int before = finallyRuns(original);
            AsymCoroutine<Integer, String> copy = Replay.copy(original, fixture("Guarded"));
            assertEquals(before, finallyRuns(original), "capturing at suspension " + k + " runs no finally block");
            assertEquals(expected.subList(k, expected.size()),
                    Replay.drive(copy, GUARDED_INPUTS.subList(k, GUARDED_INPUTS.size())));
            assertEquals(total, before + finallyRuns(copy), "finally blocks run, restored at suspension " + k);
        }
    }

    @Test
    void suspensionsInsideForWhileDoAndLabelledNestedLoops() {
        assertEquals(17, Replay.everySuspension(fixture("Loops"), Replay.inputs(40)));
    }

    @Test
    void suspensionsInsideASwitchThatTakesARecordApart() {
        assertEquals(4, Replay.everySuspension(fixture("RecordPatterns"), Replay.inputs(10)));
    }

    @Test
    void suspensionsInsideIntStringEnumAndPatternSwitches() {
        assertEquals(31, Replay.everySuspension(fixture("Switches"), Replay.inputs(60)));
    }
}
