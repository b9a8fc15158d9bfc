package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Coroutine;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The woven engine runs woven code exactly as the native engine does. */
class WovenEngineTest extends WovenFixtureTest {

    private static final String SCRIPT = "AyBAyyBABAyyBAyByAB";

    private List<Coroutine> ring(List<String> log, Engine engine) {
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

    private List<List<String>> play(Engine engine) {
        List<String> log = new ArrayList<>();
        List<Coroutine> pair = ring(log, engine);
        List<List<String>> seen = new ArrayList<>();
        for (char move : SCRIPT.toCharArray()) {
            if (move == 'y') {
                Coroutine.yield();
            } else if (!pair.get(move - 'A').isFinished()) {
                Coroutine.yieldTo(pair.get(move - 'A'));
            }
            seen.add(List.copyOf(log));
        }
        assertTrue(pair.stream().allMatch(Coroutine::isFinished));
        return seen;
    }

    @Test
    void aSymmetricRingRunsAsOnTheNativeEngine() {
        assertEquals(play(Engine.NATIVE), play(Engine.WOVEN));
    }
}
