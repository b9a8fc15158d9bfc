package dev.weft.bench;

import java.util.function.IntToLongFunction;

/**
 * Ordinary call-heavy code, for {@link WovenOverheadBenchmark}: naive recursive Fibonacci (a call
 * that cannot be inlined away at every level) and a loop of small virtual calls. It never
 * suspends. The benchmark runs this class as compiled and a woven copy of it side by side.
 */
public class CallHeavyWork implements IntToLongFunction {

    private final Step[] steps = {new Step(1), new Step(2), new Step(3)};

    @Override
    public long applyAsLong(int n) {
        long sum = fibonacci(n);
        for (int i = 0; i < 1_000; i++) {
            sum += steps[i % steps.length].apply(i);
        }
        return sum;
    }

    private static long fibonacci(int n) {
        return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
    }

    /** A small virtual call. */
    static final class Step {
        private final int weight;

        Step(int weight) {
            this.weight = weight;
        }

        long apply(int i) {
            return (long) i * weight;
        }
    }
}
