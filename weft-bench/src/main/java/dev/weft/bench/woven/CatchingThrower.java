package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/**
 * The second workload of the thrown-exception benchmark: as {@link Thrower}, but {@code middle}
 * catches what {@code inner} throws itself, so that the exception never leaves the frames on the
 * thread. On the woven engine {@code middle} alone is rebuilt when the coroutine resumes, and its
 * twin's handler completes the exception's stack trace with {@code outer} and the body, still
 * saved; on the native engine the catch runs as compiled. The build weaves this package.
 */
public class CatchingThrower extends AsymCoroutine<Boolean, Integer> {

    private int caught;

    public CatchingThrower(Engine engine) {
        super(engine);
    }

    @Override
    protected Integer run(Boolean first) {
        while (true) {
            outer();
        }
    }

    private void outer() {
        middle();
    }

    private void middle() {
        boolean fail = ret(caught);
        try {
            inner(fail);
        } catch (IllegalStateException e) {
            caught++;
        }
    }

    private static void inner(boolean fail) {
        if (fail) {
            throw new IllegalStateException("thrown by inner");
        }
    }
}
