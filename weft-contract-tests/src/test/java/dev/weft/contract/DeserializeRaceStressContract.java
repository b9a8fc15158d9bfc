package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * deserialize while another thread keeps swapping the given frames' value arrays between the
 * captured ones and ones that must be refused (a {@code this} of the wrong class, no scalars):
 * each deserialize either refuses with {@link IllegalArgumentException}, or takes a state made
 * of the captured arrays only, since it checks the copy it restores, so the next call returns
 * exactly what the captured coroutine would. Any other exception, or any other result, fails.
 * Bounded by a count of rounds, not by time.
 */
abstract class DeserializeRaceStressContract extends EngineContract {

    private static final int ROUNDS = 200_000;
    private static final int CALLS_BEFORE = 3;

    /** Adds up its inputs and counts them; immutable values only, so that frames can be restored again and again. */
    static final class Tally extends AsymCoroutine<Long, String> {
        Tally(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Long first) {
            long total = 0;
            int calls = 0;
            String label = "tally";
            long in = first;
            while (true) {
                total += in;
                calls++;
                in = report(label, total, calls);
            }
        }

        private long report(String label, long total, int calls) {
            return ret(label + " " + total + "/" + calls);
        }
    }

    @Test
    void aDeserializeRacingChangesToItsFramesRefusesOrRestoresTheCapturedState() throws Throwable {
        AsymCoroutine<Long, String> original = new Tally(engine());
        for (long in = 1; in <= CALLS_BEFORE; in++) {
            original.call(in);
        }
        AsymCoroutine<Long, String> target = new Tally(engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, target);
        original.close();
        String expected = "tally " + (1 + 2 + 3 + 100) + "/" + (CALLS_BEFORE + 1);

        AtomicReference<Throwable> scribblerFailed = new AtomicReference<>();
        Thread scribbler = new Thread(() -> scribble(frames), "scribbler");
        scribbler.setUncaughtExceptionHandler((t, e) -> scribblerFailed.set(e));
        scribbler.start();
        int accepted = 0;
        int refused = 0;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                try {
                    target.deserialize(frames);
                } catch (IllegalArgumentException e) {
                    assertTrue(e.getMessage().startsWith("cannot deserialize into " + target), e.getMessage());
                    refused++;
                    continue;
                }
                assertEquals(expected, target.call(100L), "round " + round);
                accepted++;
            }
        } finally {
            scribbler.interrupt();
            scribbler.join();
            target.close();
        }
        assertNull(scribblerFailed.get());
        assertEquals(ROUNDS, accepted + refused);
        assertTrue(accepted > 0 && refused > 0, accepted + " accepted and " + refused + " refused: the race was not run");
    }

    /**
     * Until interrupted, sets each frame's arrays now to the captured ones, now to ones that
     * must be refused, never changing an array's contents.
     */
    private static void scribble(CoroutineFrame[] frames) {
        long[][] scalars = new long[frames.length][];
        Object[][] objects = new Object[frames.length][];
        Object[][] wrongThis = new Object[frames.length][];
        for (int i = 0; i < frames.length; i++) {
            scalars[i] = frames[i].scalarValues;
            objects[i] = frames[i].objectValues;
            wrongThis[i] = objects[i].clone();
            wrongThis[i][0] = "not a Tally";
        }
        for (long step = 0; !Thread.currentThread().isInterrupted(); step++) {
            int i = (int) (step % frames.length);
            int what = (int) (step / frames.length % 4);
            frames[i].objectValues = what == 1 ? wrongThis[i] : objects[i];
            frames[i].scalarValues = what == 3 ? null : scalars[i];
        }
        for (int i = 0; i < frames.length; i++) {
            frames[i].objectValues = objects[i];
            frames[i].scalarValues = scalars[i];
        }
    }
}
