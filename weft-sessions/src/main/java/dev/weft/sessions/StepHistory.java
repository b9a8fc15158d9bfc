package dev.weft.sessions;

import dev.weft.Engine;
import dev.weft.sessions.SessionStore.Row;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one node writes to the step history ({@link Sessions.Builder#keepHistory}): an entry per
 * step it commits, made from the row the step stores ({@link #entry}), which the store writes with
 * that row ({@link HistoryTable}); and the pruning of entries older than the retention. Off (the
 * default), it makes no entries and prunes nothing: a step then neither reads nor writes the
 * history. Thread-safe: any thread that runs a step.
 */
final class StepHistory {

    /* Implementation notes: pruning. Entries older than the retention are deleted by the nodes
     * that write entries, a batch at a time, each batch a short transaction of its own run by the
     * thread of a step that has just committed (afterCommit), at most once per PRUNE_EVERY of the
     * nodes' clock per node (retention / 10 if that is shorter): a few steps in a hundred
     * thousand pay for a DELETE of a few rows, those written first, read by the table's key
     * (HistoryTable.prune), and no thread or timer is added. A batch that was full leaves more: the node's next commit prunes again at
     * once, so a backlog (a store opened after a long pause, a retention made shorter) drains at
     * PRUNE_BATCH entries per step, never holding SQLite's write lock longer than one batch. Each
     * node prunes every node's entries (the table is shared); two nodes pruning at once delete
     * different rows or the same, harmlessly. A pruning that fails is logged and tried again at
     * the next interval: the step it followed committed all the same. */

    /** The longest time between two prunings by one node. */
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);
    /** The most entries one pruning deletes, in one transaction. */
    static final int PRUNE_BATCH = 1_000;

    private static final System.Logger LOG = System.getLogger(StepHistory.class.getName());

    /** When a step began: the nodes' clock for its entry, and the nanosecond timer for its duration. */
    record Started(long at, long nanos) {
    }

    private final SessionStore store;
    private final Clock clock;
    /** The node's name in its entries; null when off. */
    private final String node;
    /** How long entries are kept, in milliseconds; 0 when off. */
    private final long retentionMillis;
    private final long pruneEveryMillis;
    /** When, by the nodes' clock, this node prunes next; {@link Long#MAX_VALUE} while a pruning runs. */
    private final AtomicLong nextPrune = new AtomicLong(Long.MIN_VALUE);

    /**
     * The history of {@code store}'s steps on the node named {@code node}, its entries kept for
     * {@code retention}; off if {@code retention} is null.
     */
    StepHistory(SessionStore store, Clock clock, String node, Duration retention) {
        this.store = store;
        this.clock = clock;
        this.node = retention == null ? null : node != null ? node : defaultNode();
        this.retentionMillis = retention == null ? 0 : retention.toMillis();
        this.pruneEveryMillis = Math.max(1, Math.min(PRUNE_EVERY.toMillis(), retentionMillis / 10));
    }

    /**
     * This process's name as a node, when none is given: its host's name and process id,
     * {@code HOST:PID} ({@code localhost} if the host's name cannot be had), cut to
     * {@value HistoryTable#MAX_NODE} characters.
     */
    static String defaultNode() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "localhost";
        }
        String name = host + ":" + ProcessHandle.current().pid();
        return name.length() <= HistoryTable.MAX_NODE ? name : name.substring(name.length() - HistoryTable.MAX_NODE);
    }

    /** When a step begins now: its start, for {@link #entry}; null when the history is off. */
    Started begin() {
        return node == null ? null : new Started(clock.millis(), System.nanoTime());
    }

    /**
     * The entry of session {@code id}'s step {@code started}, once it stored {@code next} (null:
     * it finished, and its row is deleted) at {@code version}, having run on {@code engine} (null:
     * no code ran); null when the history is off. The step's duration ends now, before its row is
     * written and committed. A failed session's retry wait is not shown: it waits for nothing
     * until {@link Sessions#retry}.
     */
    HistoryTable.Entry entry(Started started, String id, long version, Row next, Engine engine) {
        if (started == null) {
            return null;
        }
        long micros = (System.nanoTime() - started.nanos()) / 1_000;
        String ran = engine == null ? null : engine.name();
        if (next == null) {
            return new HistoryTable.Entry(id, version, started.at(), node, micros, ran, SessionStatus.FINISHED.name(),
                    null, null, null);
        }
        boolean waits = next.status() == SessionStatus.SUSPENDED;
        return new HistoryTable.Entry(id, version, started.at(), node, micros, ran, next.statusName(),
                waits ? next.waitKind() : null, waits ? next.dueAt() : null, next.failure());
    }

    /** After a commit on this node: prunes a batch of entries older than the retention, if due. */
    void afterCommit() {
        if (node == null) {
            return;
        }
        long now = clock.millis();
        long due = nextPrune.get();
        if (now < due || !nextPrune.compareAndSet(due, Long.MAX_VALUE)) {
            return;
        }
        long next = now + pruneEveryMillis;
        try {
            if (store.pruneHistory(now - retentionMillis, PRUNE_BATCH) == PRUNE_BATCH) {
                next = now;
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "cannot prune the step history of " + store + "; trying again in "
                    + pruneEveryMillis + " ms: " + e);
        } finally {
            nextPrune.set(next);
        }
    }
}
