package com.example.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The user's own test, woven by weave-tests, run by Surefire with the README's argLine. */
class CountdownTest {

    /** A body of the test's own, on the woven engine: needs weave-tests. */
    static final class Twice extends AsymCoroutine<Integer, Integer> {
        Twice() {
            super(Engine.WOVEN);
        }

        @Override
        protected Integer run(Integer first) {
            int value = first;
            while (true) {
                value = ret(value * 2);
            }
        }
    }

    private static List<Integer> drain(AsymCoroutine<Void, Integer> coroutine) {
        List<Integer> values = new ArrayList<>();
        for (int value : coroutine) {
            values.add(value);
        }
        return values;
    }

    @Test
    void countsDownOnTheNativeEngine() {
        assertEquals(List.of(3, 2, 1), drain(new AsymCoroutine<>(new Countdown(3))));
    }

    @Test
    void framesMoveFromTheWovenEngineToTheNativeOne() {
        AsymCoroutine<Void, Integer> woven = new AsymCoroutine<>(new Countdown(4), Engine.WOVEN);
        assertEquals(4, woven.call(null));
        CoroutineFrame[] frames = woven.serialize();
        AsymCoroutine<Void, Integer> resumed = new AsymCoroutine<>();
        for (CoroutineFrame frame : frames) {
            for (int slot = 0; slot < frame.objectValues.length; slot++) {
                if (frame.objectValues[slot] == woven) {
                    frame.objectValues[slot] = resumed;
                }
            }
        }
        resumed.deserialize(frames);
        assertEquals(List.of(3, 2, 1), drain(resumed));
        woven.close();
    }

    @Test
    void aTestClassOfItsOwnRunsWoven() {
        Twice twice = new Twice();
        assertEquals(6, twice.call(3));
        assertEquals(10, twice.call(5));
        twice.close();
    }
}
