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
        copy.deserialize(SerializationContract.rehome(frames, original, copy));
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

    /** Recurses {@code depth} calls deep, then rets. */
    static final class Deep extends AsymCoroutine<Integer, Integer> {
        Deep(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer depth) {
            return down(depth);
        }

        private int down(int n) {
            return n == 0 ? ret(0) : down(n - 1) + 1;
        }
    }

    private static final int DEPTH = 3_000;

    /** Runs {@code task} on a new thread with a stack of {@code stackSize} bytes; returns what it returned. */
    private static <T> T onThread(long stackSize, java.util.concurrent.Callable<T> task) throws Throwable {
        java.util.concurrent.FutureTask<T> future = new java.util.concurrent.FutureTask<>(task);
        Thread thread = new Thread(null, future, "stack-" + stackSize, stackSize);
        thread.start();
        thread.join();
        try {
            return future.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause();
        }
    }

    /**
     * A deep recursion captured on a thread with a large stack and restored on one whose stack
     * could not hold it whole: both engines rebuild a woven body's frames as they run (the
     * native engine runs it as twins on its continuation), the innermost alone and then a few
     * at a time as they return, so the restored coroutine finishes there; and the JVM-wide count
     * of captures and restores in progress, which only bodies run as compiled raise, is as before.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRestoreRebuildsOnlyTheFramesThatRunAndLeavesNothingRaised(Engine engine) throws Throwable {
        Deep[] original = new Deep[1];
        CoroutineFrame[] frames = onThread(64L << 20, () -> {
            original[0] = new Deep(engine);
            assertEquals(0, original[0].call(DEPTH));
            CoroutineFrame[] captured = original[0].serialize();
            original[0].close();
            return captured;
        });
        int after = onThread(160L << 10, () -> {
            Deep copy = new Deep(engine);
            copy.deserialize(SerializationContract.rehome(frames, original[0], copy));
            assertEquals(DEPTH + 1, copy.call(1));
            assertTrue(copy.isFinished());
            return FrameTransfer.activeCount();
        });
        assertEquals(before, after, "on the restoring thread");
        assertEquals(before, FrameTransfer.activeCount());
    }

}
