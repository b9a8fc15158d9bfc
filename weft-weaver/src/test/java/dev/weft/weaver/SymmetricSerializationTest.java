package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Coroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Symmetric coroutines suspended in {@code yield()} and {@code yieldTo} from inside nested
 * woven methods, serialized, deserialized into new coroutines, and driven on by the thread's
 * initial coroutine: the ring must behave after the restore exactly as it did without one, on
 * either engine.
 */
class SymmetricSerializationTest extends WovenFixtureTest {

    /**
     * The initial coroutine's moves: {@code A} and {@code B} yield to that coroutine, {@code y}
     * yields round the ring. A move to a coroutine that has finished is skipped.
     */
    private static final String SCRIPT = "AyBAyyBABAyyBAyByAB";

    /** Two rings coroutines, A then B, that log to {@code log} and yield back to the current (initial) coroutine. */
    private List<Coroutine> pair(List<String> log, Engine engine) {
        List<Coroutine> pair = new ArrayList<>();
        for (String name : List.of("A", "B")) {
            try {
                pair.add((Coroutine) loader.loadClass("dev.weft.weaver.fixtures.Ring")
                        .getConstructor(String.class, List.class, Coroutine.class, Engine.class)
                        .newInstance(name, log, Coroutine.current(), engine));
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
        return pair;
    }

    /** Plays move {@code step} of the script; the log as it is afterwards. */
    private static List<String> play(int step, List<Coroutine> pair, List<String> log) {
        char move = SCRIPT.charAt(step);
        if (move == 'y') {
            Coroutine.yield();
        } else {
            Coroutine target = pair.get(move - 'A');
            if (!target.isFinished()) {
                Coroutine.yieldTo(target);
            }
        }
        return List.copyOf(log);
    }

    /** The log after each move of the script, played by a fresh pair on {@code engine}, which must both finish. */
    private List<List<String>> playAll(Engine engine) {
        List<String> log = new ArrayList<>();
        List<Coroutine> pair = pair(log, engine);
        List<List<String>> seen = new ArrayList<>();
        for (int step = 0; step < SCRIPT.length(); step++) {
            seen.add(play(step, pair, log));
        }
        assertTrue(pair.stream().allMatch(Coroutine::isFinished));
        return seen;
    }

    @Test
    void theRingRunsOnTheWovenEngineAsOnTheNativeOne() {
        assertEquals(playAll(Engine.NATIVE), playAll(Engine.WOVEN));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRingRestoredFromFramesGoesOnAsTheOriginalWould(Engine engine) {
        List<String> referenceLog = new ArrayList<>();
        List<Coroutine> reference = pair(referenceLog, engine);
        List<List<String>> expected = new ArrayList<>();
        for (int step = 0; step < SCRIPT.length(); step++) {
            expected.add(play(step, reference, referenceLog));
        }
        assertTrue(reference.stream().allMatch(Coroutine::isFinished), "the script runs both to their end");
        Coroutine.yield(); // nobody else is left in the ring: returns at once
        assertEquals(expected.get(SCRIPT.length() - 1), referenceLog);

        int tried = 0;
        for (int split = 2; split < SCRIPT.length(); split++) {
            List<String> log = new ArrayList<>();
            List<Coroutine> originals = pair(log, engine);
            for (int step = 0; step < split; step++) {
                assertEquals(expected.get(step), play(step, originals, log));
            }
            if (originals.stream().anyMatch(Coroutine::isFinished)) {
                originals.forEach(Coroutine::close);
                continue;
            }
            List<String> copyLog = new ArrayList<>();
            List<Coroutine> copies = restoredCopies(originals, copyLog, engine);
            for (int step = split; step < SCRIPT.length(); step++) {
                List<String> after = play(step, copies, copyLog);
                List<String> joined = new ArrayList<>(log);
                joined.addAll(after);
                assertEquals(expected.get(step), joined, "move " + step + ", restored after move " + (split - 1));
            }
            assertTrue(copies.stream().allMatch(Coroutine::isFinished));
            assertEquals(List.copyOf(log), log, "the originals did not run again");
            tried++;
        }
        assertEquals(14, tried, "restores tried");
    }

    /**
     * Serializes both originals, closes them (they leave the ring), and deserializes their
     * frames into new coroutines, created in the same order so that the ring's order is the same.
     */
    private List<Coroutine> restoredCopies(List<Coroutine> originals, List<String> copyLog, Engine engine) {
        List<CoroutineFrame[]> frames = originals.stream().map(Coroutine::serialize).toList();
        originals.forEach(Coroutine::close);
        List<Coroutine> copies = pair(copyLog, engine);
        Map<Object, Object> replacements = new IdentityHashMap<>();
        for (int i = 0; i < copies.size(); i++) {
            replacements.put(originals.get(i), copies.get(i));
        }
        for (int i = 0; i < copies.size(); i++) {
            int depth = frames.get(i).length;
            assertTrue(depth == 2 || depth == 3, "run, lap, and pass if it yielded there: " + depth);
            copies.get(i).deserialize(Replay.rehome(frames.get(i), replacements));
        }
        return copies;
    }
}
