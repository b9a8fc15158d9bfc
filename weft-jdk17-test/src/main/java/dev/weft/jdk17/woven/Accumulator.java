package dev.weft.jdk17.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/** Adds up what it is called with and passes out the running total, kept in a local of its body. */
public final class Accumulator extends AsymCoroutine<Integer, Integer> {

    public Accumulator() {
        super(Engine.WOVEN);
    }

    @Override
    protected Integer run(Integer first) {
        int total = first;
        while (true) {
            total += ret(total);
        }
    }
}
