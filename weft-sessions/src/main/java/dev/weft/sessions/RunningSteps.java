package dev.weft.sessions;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The sessions that have a step running in this process: a second resume of one of them waits
 * here, or is refused at once, before it touches the database. Across processes, the database's
 * lock does the same. Any thread.
 */
final class RunningSteps {

    private final Set<String> running = new HashSet<>();

    /** Marks {@code id} running; false if another step still held it after {@code waitNanos}. */
    synchronized boolean enter(String id, long waitNanos) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        while (running.contains(id)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        running.add(id);
        return true;
    }

    synchronized void leave(String id) {
        running.remove(id);
        notifyAll();
    }
}
