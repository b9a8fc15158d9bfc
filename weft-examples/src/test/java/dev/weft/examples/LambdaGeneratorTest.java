package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.examples.woven.LambdaGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A lambda body woven at build time runs on the woven engine, and its frames move to the native engine. */
class LambdaGeneratorTest extends LeftoverCheck {

    @Test
    void mainPrintsTheSquares() {
        assertEquals(Output.text(List.of("a lambda generator on the woven engine: 1 4 9 16 25 36")),
                Output.ofMain(() -> LambdaGenerator.main(new String[0])));
    }

    @Test
    void theLambdaGeneratorMovesFromTheWovenEngineToTheNativeOne() {
        AsymCoroutine<Object, Integer> woven = LambdaGenerator.squares(Engine.WOVEN);
        assertEquals(List.of(1, 4, 9), List.of(woven.call(null), woven.call(null), woven.call(null)));
        CoroutineFrame[] frames = woven.serialize();
        assertEquals(1, frames.length, "the lambda's body alone");
        AsymCoroutine<Object, Integer> onNative = LambdaGenerator.squares(Engine.NATIVE);
        for (CoroutineFrame frame : frames) {
            for (int slot = 0; slot < frame.objectValues.length; slot++) {
                if (frame.objectValues[slot] == woven) {
                    frame.objectValues[slot] = onNative;
                }
            }
        }
        onNative.deserialize(frames);
        assertEquals(List.of(16, 25), List.of(onNative.call(null), onNative.call(null)));
        woven.close();
        onNative.close();
    }
}
