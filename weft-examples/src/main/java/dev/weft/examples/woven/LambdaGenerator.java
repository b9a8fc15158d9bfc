package dev.weft.examples.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

import java.util.StringJoiner;

/**
 * A generator written as a lambda, on the woven engine: the build's weaving (the Maven plugin,
 * see the pom) weaves the lambda's body with its class, and the engine runs it as it runs a
 * named body.
 */
public final class LambdaGenerator {

    private LambdaGenerator() {
    }

    /** A generator of the squares 1, 4, 9... whose body is a lambda. */
    public static AsymCoroutine<Object, Integer> squares(Engine engine) {
        return new AsymCoroutine<>((self, in) -> {
            for (int i = 1; ; i++) {
                self.ret(i * i);
            }
        }, engine);
    }

    public static void main(String[] args) {
        AsymCoroutine<Object, Integer> squares = squares(Engine.WOVEN);
        StringJoiner values = new StringJoiner(" ");
        for (int i = 0; i < 6; i++) {
            values.add(String.valueOf(squares.call(null)));
        }
        System.out.println("a lambda generator on the woven engine: " + values);
        squares.close();
    }
}
