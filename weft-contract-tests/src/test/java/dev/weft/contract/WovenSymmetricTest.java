package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.Engine;
import java.util.List;

/** The symmetric contract on the woven engine. */
class WovenSymmetricTest extends SymmetricContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }

    /**
     * The woven engine cannot unwind the JDK's {@code forEach} and the lambda's proxy: the first
     * yield is refused where it is made, naming the coroutine and the frames, and the body goes
     * on from the exception (here, to its end).
     */
    @Override
    void expectYieldInsideAJdkCallback(List<String> events) {
        assertEquals(5, events.size(), events.toString());
        assertEquals(List.of("in callback x", "main", "main", "main"), List.of(events.get(0), events.get(2),
                events.get(3), events.get(4)));
        assertMentions(events.get(1), "refused: cannot suspend in-callback [running, thread ", "on the woven engine",
                "the woven frame " + YieldsInACallback.class.getName() + ".run(SymmetricContract.java:",
                "which the woven engine cannot unwind",
                "on the way to the suspension in " + YieldsInACallback.class.getName() + ".lambda$run$",
                "use Engine.NATIVE for such code", "nothing was suspended");
    }
}
