package dev.weft.examples.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/**
 * The Fibonacci numbers as a generator, passed out from a helper method (so the coroutine is
 * suspended two woven frames deep), on either engine. The build weaves this package.
 */
public final class Fibonacci extends AsymCoroutine<Void, Long> {

    public Fibonacci(Engine engine) {
        super(engine);
    }

    @Override
    protected Long run(Void ignored) {
        long previous = 0;
        long current = 1;
        while (true) {
            emit(previous);
            long next = previous + current;
            previous = current;
            current = next;
        }
    }

    private void emit(long value) {
        ret(value);
    }
}
