package dev.weft.sessions.flows;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Where a test holds a step in the middle: {@link #pass()} blocks until the test opens the gate. */
public final class Gate {

    private static volatile CountDownLatch arrived = new CountDownLatch(1);
    private static volatile CountDownLatch open = new CountDownLatch(1);

    private Gate() {
    }

    /** Closes the gate for the next step that passes it. */
    public static void reset() {
        arrived = new CountDownLatch(1);
        open = new CountDownLatch(1);
    }

    /** Called by a step: says it arrived and waits, at most a minute, for the gate to open. */
    public static void pass() {
        arrived.countDown();
        try {
            if (!open.await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted at the gate", e);
        }
    }

    /** Waits until a step is at the gate. */
    public static void awaitArrival() throws InterruptedException {
        if (!arrived.await(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("no step arrived at the gate");
        }
    }

    public static void open() {
        open.countDown();
    }
}
