package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.Engine;
import dev.weft.examples.woven.Fibonacci;
import dev.weft.examples.woven.WovenEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The woven engine's example: a relay of a thousand woven coroutines, and a generator moved from the woven engine to the native one. */
class WovenEngineExampleTest extends LeftoverCheck {

    /*
     * Each lap adds one per member. The generator is suspended in two woven frames: run(Void) at
     * its call of emit, and emit at its ret (the bridge run(Object) javac adds is passed through,
     * on both engines, and leaves no frame); it was called 8 times
     * (0 1 1 2 3 5 8 13), so the native copy goes on with the 9th Fibonacci number.
     */
    static final List<String> EXPECTED = List.of(
            "lap 1: the baton went through 1000 woven coroutines and came back as 1000",
            "lap 2: the baton went through 1000 woven coroutines and came back as 2000",
            "lap 3: the baton went through 1000 woven coroutines and came back as 3000",
            "on the woven engine: 0 1 1 2 3 5 8 13",
            "serialized: 2 frames (run@7, emit@5)",
            "resumed on the native engine: 21 34 55 89 144 233 377 610");

    @Test
    void mainPrintsTheRelayAndTheGeneratorAcrossEngines() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> WovenEngine.main(new String[0])));
    }

    @Test
    void theGeneratorRunsOnTheEngineItWasCreatedFor() {
        for (Engine engine : Engine.values()) {
            Fibonacci generator = new Fibonacci(engine);
            assertEquals(engine, generator.engine());
            assertEquals(List.of(0L, 1L, 1L, 2L), List.of(generator.call(null), generator.call(null),
                    generator.call(null), generator.call(null)));
            assertEquals(2, generator.serialize().length, "run and emit, no bridge");
            generator.close();
        }
    }
}
