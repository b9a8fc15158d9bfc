package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Thesis figures 3.2 and 3.3 print exactly the output the thesis gives for them. */
class SymmetricFiguresTest extends LeftoverCheck {

    static final List<String> EXPECTED = List.of("start", "Coroutine running 1", "middle", "Coroutine running 2", "end");

    @Test
    void figure3_2SubclassInterleavesWithMain() {
        assertEquals(Output.text(EXPECTED), Output.of(ExampleCoroutine::demo));
    }

    @Test
    void figure3_3RunnableInterleavesTheSameWay() {
        assertEquals(Output.text(EXPECTED), Output.of(ExampleRunnable::demo));
    }

    @Test
    void mainsPrintToSystemOut() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> ExampleCoroutine.main(new String[0])));
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> ExampleRunnable.main(new String[0])));
    }
}
