package dev.weft.sessions;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A node's workers ({@link Sessions.Builder#workers}): threads that resume the sessions whose
 * wait is due, from the store itself, with no coordinator. Each step is
 * {@link Steps#runDue}: one transaction that claims the session whose wait has been due
 * longest (PostgreSQL: {@code FOR UPDATE SKIP LOCKED}, so that the workers of many nodes claim
 * different sessions; SQLite: under the database's one write lock), runs its step and stores it,
 * or rolls back whole, leaving the session due for any worker. Workers are woken by the waits
 * this node stores, on PostgreSQL by every node's ({@code LISTEN/NOTIFY}), and poll as a
 * fallback. Thread-safe.
 */
final class SessionRunner {

    /* Implementation notes: a worker loops on
     *   1. the earliest due time in the store (one read, no lock),
     *   2. if it has passed, a claim and its step (Sessions.runDue), then 1 again at once;
     *   3. else a wait until that time, a wake-up, or the poll interval, whichever comes first.
     * A wake-up is this node storing a session that waits (due()): the workers look at the store
     * again, so a wait stored here is seen at once; one stored by another node is seen within the
     * poll interval, which also bounds how long a clock that jumps goes unnoticed. When due
     * sessions exist but none can be claimed (other transactions hold them), a worker waits
     * BUSY_PAUSE_MILLIS, not the poll interval: they are likely to be free soon. On PostgreSQL, a
     * listener thread wakes the workers when any node commits a step that stored a wait
     * (LISTEN/NOTIFY), so the poll is only the fallback for a lost notification or listener. A session whose
     * step cannot run here (refused by this node's build or key, state not storable) is skipped
     * until the next poll, so that it does not hold the workers, and logged each time. */

    /** How long the listener waits for a notification before it looks whether the node is stopping. */
    private static final int LISTEN_SLICE_MILLIS = 100;

    /** How long a worker waits when due sessions are all held by other transactions. */
    private static final long BUSY_PAUSE_MILLIS = 20;

    private static final System.Logger LOG = System.getLogger(SessionRunner.class.getName());

    private final Steps steps;
    private final SessionStore store;
    private final int workers;
    private final long pollMillis;
    private final Clock clock;
    private final List<Thread> threads = new ArrayList<>();
    /** Sessions whose step failed here, passed over until the next poll; shared by the workers. */
    private final Set<String> skipped = ConcurrentHashMap.newKeySet();
    /** Guards {@link #wakeups} and {@link #stopping}; the workers wait on it. */
    private final Object lock = new Object();
    /** Counts wake-ups, so that a worker that was told of a wait while it looked does not wait. */
    private long wakeups;
    private boolean stopping;
    /** When {@link #skipped} was last cleared, by {@link System#nanoTime()}: real time, whatever the clock says. */
    private volatile long skippedSince;

    SessionRunner(Steps steps, SessionStore store, int workers, Duration poll, Clock clock) {
        this.steps = steps;
        this.store = store;
        this.workers = workers;
        this.pollMillis = Math.max(1, poll.toMillis());
        this.clock = clock;
    }

    /** Starts the workers; called once. */
    void start() {
        skippedSince = System.nanoTime();
        for (int i = 1; i <= workers; i++) {
            Thread thread = new Thread(this::work, "weft-sessions-worker-" + i + " (" + store + ")");
            thread.setDaemon(true);
            threads.add(thread);
        }
        if (store.notifies()) {
            Thread listener = new Thread(this::listen, "weft-sessions-listener (" + store + ")");
            listener.setDaemon(true);
            threads.add(listener);
        }
        threads.forEach(Thread::start);
    }

    /**
     * The listener's loop, until {@link #close()}: wakes the workers whenever a node's step that
     * stored a wait commits (PostgreSQL's {@code LISTEN}; see {@link SessionStore#notifyDue}).
     * A listener that loses its connection opens another after the poll interval; the workers
     * poll meanwhile.
     */
    private void listen() {
        while (!stopping()) {
            Connection listening = null;
            try {
                listening = store.listen();
                wake(); // what committed before LISTEN sent no notification here: the workers look once more
                while (!stopping()) {
                    if (store.awaitNotification(listening, LISTEN_SLICE_MILLIS)) {
                        wake();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                LOG.log(Level.WARNING, "the workers of " + store + " hear of other nodes' waits by polling only,"
                        + " until the listener connects again: " + e);
                pause(wakeups(), pollMillis);
            } finally {
                if (listening != null) {
                    store.stopListening(listening);
                }
            }
        }
    }

    /**
     * A session now waits until {@code dueAt}: the workers look at the store again, unless it is
     * due after their next poll anyway. Any thread.
     */
    void due(long dueAt) {
        if (dueAt - clock.millis() < pollMillis) {
            wake();
        }
    }

    /** Makes the workers look at the store again. Any thread. */
    private void wake() {
        synchronized (lock) {
            wakeups++;
            lock.notifyAll();
        }
    }

    /**
     * Stops the workers: they claim no more, and this waits for the steps they run to end. If the
     * calling thread is interrupted, interrupts them and returns once they have ended.
     */
    void close() {
        synchronized (lock) {
            stopping = true;
            lock.notifyAll();
        }
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                    threads.forEach(Thread::interrupt);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private long wakeups() {
        synchronized (lock) {
            return wakeups;
        }
    }

    private boolean stopping() {
        synchronized (lock) {
            return stopping;
        }
    }

    /** One worker's loop, until {@link #close()}. */
    private void work() {
        while (!stopping()) {
            long seen = wakeups();
            long pause;
            try {
                pause = step();
            } catch (SessionStoreUnavailableException | SessionOutcomeUnknownException e) {
                LOG.log(Level.WARNING, "a worker of " + store + " could not look for due sessions: " + e.getMessage());
                pause = pollMillis;
            } catch (RuntimeException | Error e) {
                LOG.log(Level.ERROR, "a worker of " + store + " failed", e);
                pause = pollMillis;
            }
            if (pause > 0) {
                pause(seen, pause);
            }
        }
    }

    /**
     * Runs the step of one due session, if one is due: how long to wait before looking again (0:
     * at once).
     */
    private long step() {
        if (System.nanoTime() - skippedSince >= TimeUnit.MILLISECONDS.toNanos(pollMillis)) {
            skipped.clear();
            skippedSince = System.nanoTime();
        }
        long now = clock.millis();
        List<String> passedOver = List.copyOf(skipped);
        Long next;
        try {
            next = store.nextDue(passedOver);
        } catch (java.sql.SQLException e) {
            throw StoreFailures.ofStore(store, "cannot read when the next session is due", e);
        }
        if (next == null || next > now) {
            return next == null ? pollMillis : Math.min(pollMillis, next - now);
        }
        if (stopping()) {
            return 0;
        }
        try {
            return steps.runDue(passedOver) != null ? 0 : BUSY_PAUSE_MILLIS;
        } catch (SessionFailedException | SessionRetryingException e) {
            LOG.log(Level.WARNING, e.getMessage());
            return 0;
        } catch (SessionBusyException e) {
            return BUSY_PAUSE_MILLIS;
        } catch (SessionStoreUnavailableException | SessionOutcomeUnknownException e) {
            throw e;
        } catch (SessionException e) {
            if (e.sessionId() != null) {
                skipped.add(e.sessionId());
            }
            LOG.log(Level.WARNING, "a worker passes over a due session until its next poll: " + e.getMessage());
            return 0;
        }
    }

    /** Waits {@code millis}, or less if woken since {@code seen} or stopped. */
    private void pause(long seen, long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (lock) {
            while (!stopping && wakeups == seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    return; // close() interrupts to abandon: the loop sees stopping
                }
            }
        }
    }
}
