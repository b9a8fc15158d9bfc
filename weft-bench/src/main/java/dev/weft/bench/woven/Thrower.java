package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/**
 * The workload of the thrown-exception benchmark: {@code run} loops on {@code outer}, which
 * calls {@code middle} in a {@code try}; {@code middle} rets, and once resumed calls
 * {@code inner}, which throws when the input asks, so that the exception leaves {@code middle}
 * into {@code outer}'s {@code catch}. On the woven engine {@code middle} alone is rebuilt when
 * the coroutine resumes: the exception goes from a rebuilt frame into a saved one, as it would
 * wherever a coroutine's code throws after a suspension. {@link #direct} is the same code run
 * by the thread itself, with no coroutine. The build weaves this package (see the pom).
 */
public class Thrower extends AsymCoroutine<Boolean, Integer> {

    private int caught;

    public Thrower(Engine engine) {
        super(engine);
    }

    @Override
    protected Integer run(Boolean first) {
        while (true) {
            outer();
        }
    }

    private void outer() {
        try {
            middle();
        } catch (IllegalStateException e) {
            caught++;
        }
    }

    private void middle() {
        inner(ret(caught));
    }

    private static void inner(boolean fail) {
        if (fail) {
            throw new IllegalStateException("thrown by inner");
        }
    }

    /** Outside any coroutine: {@code outer}'s {@code try}, a call, and {@code inner} throwing; how many were caught. */
    public static int direct(Thrower on) {
        try {
            inner(true);
        } catch (IllegalStateException e) {
            on.caught++;
        }
        return on.caught;
    }
}
