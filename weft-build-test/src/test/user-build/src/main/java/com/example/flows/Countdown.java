package com.example.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import java.io.Serializable;

/** Counts down from a number, one value per call: a named body, so the weaver sees its class. */
public final class Countdown implements AsymRunnable<Void, Integer>, Serializable {

    private static final long serialVersionUID = 1L;

    private final int from;

    public Countdown(int from) {
        this.from = from;
    }

    @Override
    public Integer run(AsymCoroutine<? extends Void, ? super Integer> self, Void ignored) {
        int i = from;
        for (; i > 1; i--) {
            self.ret(i);
        }
        return i; // iterating ends with what run returns: the last number
    }
}
