package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A million suspended coroutines in a default-sized test JVM, each resumed to completion. */
class ScaleStressTest {

    private static final int COUNT = 1_000_000;

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    @Test
    void aMillionSuspendedSymmetricCoroutinesEachRunToCompletion() {
        int[] firstRound = new int[COUNT];
        int[] steps = new int[COUNT];
        int[] sequence = {0};
        for (int i = 0; i < COUNT; i++) {
            int id = i;
            new Coroutine(() -> {
                firstRound[id] = sequence[0]++;
                steps[id]++;
                Coroutine.yield();
                steps[id]++;
            });
        }
        Coroutine.yield(); // each runs to its yield: all suspended now
        assertEquals(COUNT, sequence[0]);
        for (int i = 0; i < COUNT; i++) {
            // each new one was inserted right after the initial coroutine: the last created runs first
            assertEquals(COUNT - 1 - i, firstRound[i]);
            assertEquals(1, steps[i]);
        }
        Coroutine.yield(); // each runs to its end
        for (int i = 0; i < COUNT; i++) {
            assertEquals(2, steps[i], "coroutine " + i);
        }
        assertEquals(0, CoroutineBase.closeAll());
    }

    @Test
    void aMillionSuspendedAsymmetricCoroutinesEachRunToCompletion() {
        @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type
        AsymCoroutine<Integer, Integer>[] all = new AsymCoroutine[COUNT];
        for (int i = 0; i < COUNT; i++) {
            int id = i;
            all[i] = new AsymCoroutine<>((self, first) -> {
                int second = self.ret(first + id);
                return second - id;
            });
            assertEquals(id + 1, all[i].call(1));
        }
        for (int i = 0; i < COUNT; i++) {
            assertEquals(-i, all[i].call(0));
            assertTrue(all[i].isFinished());
        }
    }
}
