package dev.weft.jdk17.woven;

import dev.weft.AsymCoroutine;

/**
 * The squares 1, 4, 9... as a generator on the default engine, each passed out from a helper
 * method, so that the coroutine is suspended two woven frames below its body.
 */
public final class Squares extends AsymCoroutine<Void, Integer> {

    @Override
    protected Integer run(Void ignored) {
        for (int i = 1; ; i++) {
            emit(i * i);
        }
    }

    private void emit(int square) {
        ret(square);
    }
}
