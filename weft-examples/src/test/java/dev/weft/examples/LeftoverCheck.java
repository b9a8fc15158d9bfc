package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.CoroutineBase;
import org.junit.jupiter.api.AfterEach;

/**
 * Every example must finish or close the coroutines it creates: one left suspended on the test
 * thread would be run by the next test's {@code Coroutine.yield()}. This closes any that are
 * left, and fails the test that left them.
 */
abstract class LeftoverCheck {

    @AfterEach
    void noCoroutineLeftBehind() {
        assertEquals(0, CoroutineBase.closeAll(), "coroutines the example left unfinished");
    }
}
