package dev.weft.sessions;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A node's workers ({@link Sessions.Builder#workers}): threads that resume the sessions whose
 * wait is due, from the store itself, with no coordinator. Each step is
 * {@link Steps#runDue}: one transaction that claims the session whose wait has been due
 * longest (PostgreSQL: {@code FOR NO KEY UPDATE SKIP LOCKED}, so that the workers of many nodes
 * claim different sessions; SQLite: under the database's one write lock), runs its step and
 * stores it, or rolls back whole, leaving the session due for any worker; or
 * {@link Steps#runSent}, the same for a session just sent a message, claimed by its id. Workers
 * are woken by the waits and messages this node stores, on PostgreSQL by every node's
 * ({@code LISTEN/NOTIFY}), and poll as a fallback. Thread-safe.
 */
final class SessionRunner {

    /* Implementation notes: a worker loops on
     *   1. the earliest due time in the store (one read, no lock),
     *   2. if it has passed, a claim and its step (Steps.runDue), then a claim again at once, and
     *      so on while claims find sessions; once one finds none, 1 again;
     *   3. else a wait until that time, a wake-up, or the poll interval, whichever comes first;
     *      after a wake-up, or a wait until a due time, a claim first, then 1 if it finds none.
     * The wait of 3 is measured from the clock as read after the read of 1 (which takes a round
     * trip or more: measured from before it, the wait would end that much after the due time),
     * to the nanosecond the clock gives, on a Condition (Object.wait rounds up to a millisecond).
     * A claim that finds nothing costs a transaction where the read of 1 costs none, so on
     * PostgreSQL a worker claims first only when a session is likely due: right after a step (a
     * backlog drains at a claim a step), when woken, and when a due time it waited for has come;
     * after a poll that nobody woke it from, it reads first. On SQLite a worker always reads
     * first: a claim takes the database's one write lock, which every other writer (a caller's
     * own transaction that sends a message, say) would then wait for, or be refused.
     * Before 2, a session sent a message, by this node (sent()) or another (the notification's
     * payload, its id), is claimed by its id (Steps.runSent: one statement, which reads its row
     * too, if no other transaction holds it, and on PostgreSQL takes its oldest message), at most
     * HINTED_IN_A_ROW in a row between claims in due order: on PostgreSQL a message's step is then
     * as many round trips as a caller's resume, and a claim in due order, also one statement that
     * takes the message, first tries deadlines and due times (each kind's query runs only if those
     * before it found none). An id kept
     * for a session that another worker has stepped since costs a claim that finds it not due
     * (two round trips, the claim and its rollback); a worker that claims a session in due order
     * drops one id kept for it, as the message it was kept for is likely the one it took.
     * A wake-up is this node storing a session that waits (due()): the workers look at the store
     * again, so a wait stored here is seen at once; one stored by another node is seen within the
     * poll interval, which also bounds how long a clock that jumps goes unnoticed. When due
     * sessions exist but none can be claimed (other transactions hold them), a worker waits
     * BUSY_PAUSE_MILLIS, not the poll interval: they are likely to be free soon; or until the
     * next due time after now, if that is sooner (busy()), so that a step that holds one for long
     * does not make the next one late. On PostgreSQL, a
     * listener thread wakes the workers when any node commits a step that stored a wait
     * (LISTEN/NOTIFY), so the poll is only the fallback for a lost notification or listener. A session whose
     * step cannot run here (refused by this node's build or key, state not storable) is skipped
     * until the next poll, so that it does not hold the workers, and logged each time. */

    /** How long the listener waits for a notification before it looks whether the node is stopping. */
    private static final int LISTEN_SLICE_MILLIS = 100;

    /** How long a worker waits when due sessions are all held by other transactions. */
    private static final long BUSY_PAUSE_MILLIS = 20;

    /** The most sessions sent a message that the workers keep to claim first; past it they are found in due order. */
    private static final int MAX_HINTS = 10_000;

    /**
     * How many sessions sent a message a worker claims by id in a row before it claims in due
     * order once, so that deadlines and due times are not passed over while messages keep coming.
     */
    private static final int HINTED_IN_A_ROW = 8;

    /** How many kept ids a worker tries at most for one claim: the rest may have been stepped already. */
    private static final int HINTS_TRIED = 16;

    private static final System.Logger LOG = System.getLogger(SessionRunner.class.getName());

    private final Steps steps;
    private final SessionStore store;
    /** Whether a worker claims before it reads that a session is due, when one likely is: on PostgreSQL, not on SQLite. */
    private final boolean claimsFirst;
    private final int workers;
    private final long pollMillis;
    private final Clock clock;
    private final List<Thread> threads = new ArrayList<>();
    /** Sessions whose step failed here, passed over until the next poll; shared by the workers. */
    private final Set<String> skipped = ConcurrentHashMap.newKeySet();
    /** Guards {@link #wakeups} and {@link #stopping}; the workers wait on {@link #changed}. */
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Signalled when {@link #wakeups} or {@link #stopping} change. A condition, not the lock's
     * monitor: {@code Object.wait} rounds a timeout up to the next whole millisecond, and a worker
     * waiting for a due time would wake up to a millisecond late.
     */
    private final Condition changed = lock.newCondition();
    /** Counts wake-ups, so that a worker that was told of a wait while it looked does not wait. */
    private long wakeups;
    private boolean stopping;
    /** When {@link #skipped} was last cleared, by {@link System#nanoTime()}: real time, whatever the clock says. */
    private volatile long skippedSince;
    /** Sessions sent a message since, which the workers claim by id before they claim in due order ({@link #sent}). */
    private final Queue<String> hints = new ConcurrentLinkedQueue<>();
    /** How many ids {@link #hints} holds, about: it is bounded by {@link #MAX_HINTS}. */
    private final AtomicInteger hintCount = new AtomicInteger();

    SessionRunner(Steps steps, SessionStore store, int workers, Duration poll, Clock clock) {
        this.steps = steps;
        this.store = store;
        this.claimsFirst = store.notifies();
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
                    List<String> sent = store.awaitNotifications(listening, LISTEN_SLICE_MILLIS);
                    if (sent != null) {
                        sent.forEach(this::hint);
                        wake();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                LOG.log(Level.WARNING, "the workers of " + store + " hear of other nodes' waits by polling only,"
                        + " until the listener connects again: " + e);
                pause(wakeups(), TimeUnit.MILLISECONDS.toNanos(pollMillis));
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

    /**
     * Session {@code id} has been sent a message (by this node, or by another as its
     * notification says): the workers claim it first, then look at the store again. Any thread.
     */
    void sent(String id) {
        hint(id);
        wake();
    }

    /** Keeps {@code id} for the workers to claim first, unless {@value #MAX_HINTS} are kept already. */
    private void hint(String id) {
        if (hintCount.incrementAndGet() <= MAX_HINTS) {
            hints.add(id);
        } else {
            hintCount.decrementAndGet();
        }
    }

    /** The next session sent a message, but those in {@code passedOver}; null if none is kept. */
    private String nextHint(List<String> passedOver) {
        for (String id = hints.poll(); id != null; id = hints.poll()) {
            hintCount.decrementAndGet();
            if (!passedOver.contains(id)) {
                return id;
            }
        }
        return null;
    }

    /** Makes the workers look at the store again. Any thread. */
    private void wake() {
        lock.lock();
        try {
            wakeups++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the workers: they claim no more, and this waits for the steps they run to end. If the
     * calling thread is interrupted, interrupts them and returns once they have ended.
     */
    void close() {
        lock.lock();
        try {
            stopping = true;
            changed.signalAll();
        } finally {
            lock.unlock();
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
        lock.lock();
        try {
            return wakeups;
        } finally {
            lock.unlock();
        }
    }

    private boolean stopping() {
        lock.lock();
        try {
            return stopping;
        } finally {
            lock.unlock();
        }
    }

    /** What a worker does next: claim at once ({@code nanos} 0), or wait that long, for a due time if {@code untilDue}. */
    private record Next(long nanos, boolean untilDue) {
        static final Next AT_ONCE = new Next(0, true);

        /** A wait of {@code millis}, for a due time if {@code untilDue}. */
        static Next millis(long millis, boolean untilDue) {
            return new Next(TimeUnit.MILLISECONDS.toNanos(millis), untilDue);
        }
    }

    /** One worker's loop, until {@link #close()}. */
    private void work() {
        boolean likelyDue = true;
        int hintedInARow = 0;
        while (!stopping()) {
            long seen = wakeups();
            Next next;
            try {
                List<String> passedOver = passedOver();
                if (hintedInARow < HINTED_IN_A_ROW && claimHinted(passedOver) != Claim.NONE) {
                    hintedInARow++;
                    next = Next.AT_ONCE;
                } else {
                    hintedInARow = 0;
                    next = step(likelyDue, passedOver);
                }
            } catch (SessionStoreUnavailableException | SessionOutcomeUnknownException e) {
                LOG.log(Level.WARNING, "a worker of " + store + " could not look for due sessions: " + e.getMessage());
                next = Next.millis(pollMillis, false);
            } catch (RuntimeException | Error e) {
                LOG.log(Level.ERROR, "a worker of " + store + " failed", e);
                next = Next.millis(pollMillis, false);
            }
            likelyDue = next.nanos() == 0 || pause(seen, next.nanos()) || next.untilDue();
        }
    }

    /** The sessions passed over until the next poll: none once a poll interval has passed since they were last cleared. */
    private List<String> passedOver() {
        if (System.nanoTime() - skippedSince >= TimeUnit.MILLISECONDS.toNanos(pollMillis)) {
            skipped.clear();
            skippedSince = System.nanoTime();
        }
        return List.copyOf(skipped);
    }

    /**
     * Runs the step of the session due longest, but those in {@code passedOver}, if one is due:
     * claiming first if {@code likelyDue} and {@link #claimsFirst}, else after reading that one
     * is. Returns what to do next. (A worker claims the sessions sent a message before this,
     * {@value #HINTED_IN_A_ROW} in a row at most: {@link #claimHinted}.)
     */
    private Next step(boolean likelyDue, List<String> passedOver) {
        boolean claimFirst = likelyDue && claimsFirst;
        if (claimFirst && claimInDueOrder(passedOver) != Claim.NONE || !hints.isEmpty()) {
            return Next.AT_ONCE; // a step ran, or sessions were sent messages meanwhile
        }
        Long due;
        try {
            due = store.nextDue(passedOver);
        } catch (java.sql.SQLException e) {
            throw StoreFailures.ofStore(store, "cannot read when the next session is due", e);
        }
        Next until = due == null ? Next.millis(pollMillis, false) : until(due); // the clock read after the read
        if (until != Next.AT_ONCE) {
            return until;
        }
        if (claimFirst) {
            return busy(passedOver); // due, and the claim just made found it held
        }
        return claimInDueOrder(passedOver) == Claim.NONE ? busy(passedOver) : Next.AT_ONCE;
    }

    /**
     * What to do when sessions are due but none could be claimed (other transactions hold
     * them): wait {@value #BUSY_PAUSE_MILLIS} ms for them to be free, or until the next session
     * comes due, if that is sooner (a worker that holds one may still be running its step then).
     */
    private Next busy(List<String> passedOver) {
        Next busy = Next.millis(BUSY_PAUSE_MILLIS, true);
        Long later;
        try {
            later = store.nextDueAfter(passedOver, clock.millis());
        } catch (java.sql.SQLException e) {
            throw StoreFailures.ofStore(store, "cannot read when the next session is due", e);
        }
        Next until = later == null ? busy : until(later);
        return until.nanos() < busy.nanos() ? until : busy;
    }

    /**
     * What to do for a session due at {@code dueAt}, by the clock now: claim at once if it has
     * come, else wait until it to the nanosecond (the clock's instant, as fine as it reads), or
     * the poll interval if that ends first.
     */
    private Next until(long dueAt) {
        java.time.Instant now = clock.instant();
        long nowMillis = now.toEpochMilli();
        if (dueAt <= nowMillis) {
            return Next.AT_ONCE; // Long.MIN_VALUE, a message, included
        }
        long millis = dueAt - nowMillis;
        if (millis < 0 || millis > pollMillis) {
            return Next.millis(pollMillis, false); // (below 0: beyond what a long holds)
        }
        return new Next(TimeUnit.MILLISECONDS.toNanos(millis) - now.getNano() % 1_000_000, true);
    }

    /** What a claim came to. */
    private enum Claim {
        /** A session's step ran (stored, failed or retrying). */
        STEPPED,
        /** None was due and free (or this node held the one that was). */
        NONE,
        /** One was claimed and passed over until the next poll, or the node is stopping: look again at once. */
        PASSED_OVER
    }

    /**
     * Claims the next session sent a message that is free, due and not in {@code passedOver}, of
     * the first {@value #HINTS_TRIED} kept, and runs its step.
     */
    private Claim claimHinted(List<String> passedOver) {
        for (int tried = 0; tried < HINTS_TRIED; tried++) {
            String id = nextHint(passedOver);
            if (id == null) {
                return Claim.NONE;
            }
            Claim claim = attempt(() -> steps.runSent(id) ? Claim.STEPPED : Claim.NONE);
            if (claim != Claim.NONE) {
                return claim;
            }
        }
        return Claim.NONE;
    }

    /**
     * Claims the session due longest, but those in {@code passedOver}, and runs its step; drops
     * one id kept for that session, if any: the message it was kept for is likely the one this
     * step took (each message sent keeps one), and a claim by that id would find none to take.
     */
    private Claim claimInDueOrder(List<String> passedOver) {
        return attempt(() -> {
            String claimed = steps.runDue(passedOver);
            if (claimed == null) {
                return Claim.NONE;
            }
            if (hints.remove(claimed)) {
                hintCount.decrementAndGet();
            }
            return Claim.STEPPED;
        });
    }

    /** Runs {@code claim}, a claim and its step, and tells what it came to, a step's failure included. */
    private Claim attempt(java.util.function.Supplier<Claim> claim) {
        if (stopping()) {
            return Claim.PASSED_OVER;
        }
        try {
            return claim.get();
        } catch (SessionFailedException | SessionRetryingException e) {
            LOG.log(Level.WARNING, e.getMessage());
            return Claim.STEPPED;
        } catch (SessionBusyException e) {
            return Claim.NONE;
        } catch (SessionStoreUnavailableException | SessionOutcomeUnknownException e) {
            throw e;
        } catch (SessionException e) {
            if (e.sessionId() != null) {
                skipped.add(e.sessionId());
            }
            LOG.log(Level.WARNING, "a worker passes over a due session until its next poll: " + e.getMessage());
            return Claim.PASSED_OVER;
        }
    }

    /** Waits {@code nanos}, or less if woken since {@code seen} or stopped: whether it was woken. */
    private boolean pause(long seen, long nanos) {
        long left = nanos;
        lock.lock();
        try {
            while (!stopping && wakeups == seen) {
                if (left <= 0) {
                    return false;
                }
                try {
                    left = changed.awaitNanos(left);
                } catch (InterruptedException e) {
                    return false; // close() interrupts to abandon: the loop sees stopping
                }
            }
            return wakeups != seen;
        } finally {
            lock.unlock();
        }
    }
}
