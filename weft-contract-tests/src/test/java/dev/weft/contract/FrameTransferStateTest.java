package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.internal.frames.FrameTransfer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * No JVM-wide state stays changed by serialization: {@link FrameTransfer}'s count of captures
 * and restores in progress (which sends every woven method in the JVM down its slow path while
 * it is not zero) is back where it was after a deserialized coroutine is dropped, superseded,
 * serialized again, finished or closed, on either engine. Checked on the count itself. Not one
 * of the suites run on the module path: it reads an internal class.
 */
class FrameTransferStateTest {

    /** Adds up its inputs, passing out the running total. */
    static final class Totals extends AsymCoroutine<Integer, Integer> {
        Totals(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer first) {
            int total = first;
            while (true) {
                total += ret(total);
            }
        }
    }

    private int before;

    @BeforeEach
    void noTransferRuns() {
        before = FrameTransfer.activeCount();
        assertEquals(0, before, "a capture or restore is in progress before the test");
    }

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    /** A {@link Totals} on {@code engine} restored from one that was called with 1 and 2. */
    private static Totals restoredCopy(Engine engine) {
        Totals original = new Totals(engine);
        original.call(1);
        original.call(2);
        CoroutineFrame[] frames = original.serialize();
        Totals copy = new Totals(engine);
        for (CoroutineFrame frame : frames) {
            for (int i = 0; i < frame.objectValues.length; i++) {
                if (frame.objectValues[i] == original) {
                    frame.objectValues[i] = copy;
                }
            }
        }
        copy.deserialize(frames);
        original.close();
        return copy;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aDeserializedCoroutineThatIsDroppedLeavesNothingRaised(Engine engine) {
        for (int i = 0; i < 3; i++) {
            restoredCopy(engine); // dropped: never resumed
        }
        assertEquals(before, FrameTransfer.activeCount());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aPendingRestoreReplacedByAnotherLeavesNothingRaised(Engine engine) {
        Totals copy = restoredCopy(engine);
        copy.deserialize(copy.serialize()); // the pending restore is read back, then replaced
        copy.deserialize(new CoroutineFrame[0]);
        assertEquals(before, FrameTransfer.activeCount());
        assertEquals(5, copy.call(5), "no frames: it starts afresh");
        assertEquals(before, FrameTransfer.activeCount());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRestoreThatRanLeavesNothingRaised(Engine engine) {
        Totals copy = restoredCopy(engine);
        assertEquals(13, copy.call(10));
        assertEquals(before, FrameTransfer.activeCount());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRestoredCoroutineClosedBeforeItRanLeavesNothingRaised(Engine engine) {
        Totals copy = restoredCopy(engine);
        copy.close();
        assertTrue(copy.isFinished());
        assertEquals(before, FrameTransfer.activeCount());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRestoreThatFailsLeavesNothingRaised(Engine engine) {
        Totals copy = restoredCopy(engine);
        Totals other = new Totals(engine);
        other.call(0);
        CoroutineFrame[] frames = copy.serialize();
        frames[frames.length - 1].objectValues[0] = other; // its ret is then made on a coroutine that is not running
        copy.deserialize(frames);
        IllegalStateException failed = assertThrows(IllegalStateException.class, () -> copy.call(1));
        assertTrue(failed.getMessage().contains("is not the coroutine running"), failed.getMessage());
        assertTrue(copy.isFinished());
        assertEquals(before, FrameTransfer.activeCount());
    }
}
