package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Restored coroutines serialized again, and coroutines restored on another thread than the one they were captured on. */
class RoundTripTest extends WovenFixtureTest {

    @Test
    void aRestoredCoroutineResumedAndSerializedAgainRestoresAgain() {
        for (String name : List.of("Guarded", "Wide")) {
            List<Integer> inputs = Replay.inputs(30);
            List<String> expected = Replay.reference(fixture(name), inputs);
            int n = expected.size();
            for (int first = 1; first < n - 1; first++) {
                for (int second = first + 1; second < n; second += 3) {
                    AsymCoroutine<Integer, String> original = loader.newInstance(name);
                    Replay.drive(original, inputs.subList(0, first));
                    AsymCoroutine<Integer, String> copy = Replay.copy(original, fixture(name));
                    assertEquals(expected.subList(first, second), Replay.drive(copy, inputs.subList(first, second)));
                    AsymCoroutine<Integer, String> copyOfCopy = Replay.copy(copy, fixture(name));
                    assertEquals(expected.subList(second, n), Replay.drive(copyOfCopy, inputs.subList(second, inputs.size())),
                            name + " restored at suspension " + first + ", then at " + second);
                    assertTrue(copyOfCopy.isFinished());
                }
            }
        }
    }

    @Test
    void aRestoredCoroutineSerializedBeforeItRanGivesTheSameFramesBack() {
        List<Integer> inputs = Replay.inputs(60);
        List<String> expected = Replay.reference(fixture("Switches"), inputs);
        for (int k = 1; k < expected.size(); k += 2) {
            AsymCoroutine<Integer, String> original = loader.newInstance("Switches");
            Replay.drive(original, inputs.subList(0, k));
            AsymCoroutine<Integer, String> copy = Replay.copy(original, fixture("Switches"));
            AsymCoroutine<Integer, String> copyOfCopy = Replay.copy(copy, fixture("Switches"));
            assertEquals(expected.subList(k, expected.size()), Replay.drive(copyOfCopy, inputs.subList(k, inputs.size())));
        }
    }

    @Test
    void framesCapturedOnOneThreadResumeOnAnotherInACoroutineCreatedThere() throws Exception {
        List<Integer> inputs = Replay.inputs(30);
        List<String> expected = Replay.reference(fixture("Recursion"), inputs);
        int n = expected.size();
        for (int k = 1; k < n; k++) {
            AsymCoroutine<Integer, String> original = loader.newInstance("Recursion");
            Replay.drive(original, inputs.subList(0, k));
            CoroutineFrame[] frames = original.serialize();
            List<Integer> rest = inputs.subList(k, inputs.size());
            List<String> after = onAnotherThread(() -> {
                AsymCoroutine<Integer, String> copy = loader.newInstance("Recursion");
                copy.deserialize(Replay.rehome(frames, original, copy));
                List<String> out = Replay.drive(copy, rest);
                assertTrue(copy.isFinished());
                return out;
            });
            assertEquals(expected.subList(k, n), after, "restored on another thread at suspension " + k);
        }
    }

    @Test
    void framesCapturedOnAnotherThreadResumeHereInACoroutineStolenFromAThirdOne() throws Exception {
        List<Integer> inputs = Replay.inputs(30);
        List<String> expected = Replay.reference(fixture("Wide"), inputs);
        int k = expected.size() / 2;
        AsymCoroutine<Integer, String> original = createdOnAThreadThatLeavesItOpen(() -> loader.newInstance("Wide"));
        AsymCoroutine<Integer, String> copy = createdOnAThreadThatLeavesItOpen(() -> loader.newInstance("Wide"));
        CoroutineFrame[] frames = onAnotherThread(() -> {
            assertTrue(original.steal());
            assertEquals(expected.subList(0, k), Replay.drive(original, inputs.subList(0, k)));
            return original.serialize();
        });
        assertTrue(copy.steal(), "a new coroutine of a thread that ended without closing it can be stolen");
        copy.deserialize(Replay.rehome(frames, original, copy));
        assertEquals(expected.subList(k, expected.size()), Replay.drive(copy, inputs.subList(k, inputs.size())));
        assertTrue(copy.isFinished());
    }

    /** What {@code create} makes on a new thread that ends without closing its coroutines. */
    private static <T> T createdOnAThreadThatLeavesItOpen(java.util.function.Supplier<T> create) throws Exception {
        java.util.concurrent.FutureTask<T> task = new java.util.concurrent.FutureTask<>(create::get);
        Thread thread = new Thread(task, "creator");
        thread.start();
        return task.get();
    }
}
