package dev.weft.sessions;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Engine;
import dev.weft.sessions.SessionStore.Row;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;

/**
 * Child sessions, for {@link Sessions} and {@link StepContext}: a child started in its parent's
 * step ({@link #start}), its outcome put in its parent's inbox by the step that ends it
 * ({@link #stepEnded}, {@link #deliver}), and a session cancelled with its children
 * ({@link #cancel}).
 *
 * <p>A child's row names its parent in column {@code parent_id}, set when it is inserted and never
 * changed, sealed with the row (WRS4, {@link RowSeal}). Its first step runs inside its parent's
 * step, on the parent's connection, in a savepoint of its own ({@link StepContext}): it commits
 * with the parent's step, or not at all.
 *
 * <p>A cancel closes a session and all its descendants in one transaction, children before
 * parents: a node that dies mid-way commits none of it, and a later cancel does all of it. Each
 * descendant is locked in that transaction (PostgreSQL: waiting for a step of it that is
 * running, up to {@link Sessions.Builder#waitWhenBusy} or {@link #CHILD_WAIT} if that is zero: a
 * child's step never waits for its parent's lock, as it reads the parent's row {@code FOR KEY
 * SHARE} to give it its outcome, so the wait ends when that step does); one that this node refuses (its row not to
 * be trusted, or its build not this node's) refuses the whole cancel, which then changes nothing.
 * A descendant's outcome is not delivered to a parent cancelled with it (that parent's inbox is
 * deleted as it ends), nor to a parent that cancelled it itself ({@link StepContext#cancelChild}).
 *
 * <p>Each child's first step and each descendant's cancel is a step of its own in the step
 * history ({@link StepHistory}), written in the transaction that stores it.
 *
 * <p>Stateless but for its settings; any thread.
 */
final class Children {

    private final SessionStore store;
    private final RowReader rows;
    private final StateCodec codec;
    private final Clock clock;
    private final Messages messages;
    private final Engine engine;
    private final boolean keepFinished;
    private final Duration busyWait;
    /** The least a cancel waits for a step of a descendant that is running. */
    static final Duration CHILD_WAIT = Duration.ofSeconds(10);

    /** Tells this node's workers that a message is on its way (its parent may be due). */
    private final Runnable wake;
    /** Tells this node's observers of its children's first steps; null with none. */
    private final StepObservations observations;
    /** The entries of the steps this node commits. */
    private final StepHistory history;

    Children(SessionStore store, RowReader rows, StateCodec codec, Clock clock, Messages messages, Engine engine,
            boolean keepFinished, Duration busyWait, Runnable wake, StepObservations observations, StepHistory history) {
        this.store = store;
        this.rows = rows;
        this.codec = codec;
        this.clock = clock;
        this.messages = messages;
        this.engine = engine;
        this.keepFinished = keepFinished;
        this.busyWait = busyWait;
        this.wake = wake;
        this.observations = observations;
        this.history = history;
    }

    /** {@link StepRun#run} on this node's store, codec and clock, with this node's children. */
    <I, O> StepRun<O> run(Connection connection, String id, long step, int attempt, AsymCoroutine<I, O> coroutine,
            I input, boolean timedOut) throws SQLException {
        return StepRun.run(connection, store, codec, clock, id, step, attempt, coroutine, input, timedOut, this);
    }

    // ---------------------------------------------------------------- starting

    /** Sends {@code message} to session {@code id} in a step's transaction ({@link StepContext#send}). */
    void send(Connection connection, String id, Object message) {
        messages.send(connection, id, message);
    }

    /** {@link StepContext#startChild}: child {@code id} of {@code parent}'s session, started in its transaction. */
    String start(Connection connection, StepContext parent, String id, AsymRunnable<?, ?> body, Object first) {
        String parentId = parent.sessionId();
        if (id == null || id.isEmpty() || id.length() > 64) {
            throw new IllegalArgumentException("session " + parentId + ": a child's id has 1 to 64 characters: " + id
                    + "; no child was started");
        }
        if (id.equals(parentId)) {
            throw new IllegalArgumentException("session " + parentId + ": a child cannot have its parent's id; no"
                    + " child was started");
        }
        if (body == null) {
            throw new NullPointerException("session " + parentId + ": the body of child " + id);
        }
        StorableBodies.check(body);
        parent.connection(); // a savepoint: if the parent's step throws, its child never existed
        try {
            @SuppressWarnings("unchecked")
            AsymCoroutine<Object, Object> coroutine = new AsymCoroutine<>((AsymRunnable<Object, Object>) body, engine);
            FirstStep<Object> started = observations == null ? firstStep(connection, id, coroutine, first, parentId,
                    null) : observations.child(id, () -> firstStep(connection, id, coroutine, first, parentId, null));
            Row row = started.row();
            if (row == null || row.status() != SessionStatus.SUSPENDED) {
                deliver(connection, parentId, outcome(id, row == null ? SessionStatus.FINISHED : row.status(),
                        started.result()), true);
            }
            return id;
        } catch (SQLException e) {
            if (store.isBusy(e)) {
                throw new SessionBusyException(id, store.busyReason());
            }
            throw StoreFailures.of(store, id, "as a child of session " + parentId + ", its first step ran but could"
                    + " not be stored in its parent's transaction", e);
        }
    }

    /** What a new session's first step left: the run, and the row stored (sealed), or null if it finished and is not kept. */
    record FirstStep<O>(StepRun<O> result, Row row) {
    }

    /**
     * The first step of new session {@code id}, in this transaction (a caller's start, or a
     * parent's step): its id held ({@link SessionStore#lockNew}), checked free, its body run, and
     * its row, naming {@code parentId} and {@code deadlineAt} (either may be null), inserted, with
     * its entry in the history.
     *
     * @throws SessionBusyException     if another transaction is starting a session with this id
     * @throws SessionConflictException if a session with this id exists (nothing ran)
     */
    <I, O> FirstStep<O> firstStep(Connection connection, String id, AsymCoroutine<I, O> coroutine, I first,
            String parentId, Long deadlineAt) throws SQLException {
        StepHistory.Started started = history.begin();
        if (!store.lockNew(connection, id, busyWait)) {
            throw new SessionBusyException(id, "another node is starting a session with this id");
        }
        Row existing = store.lock(connection, id, busyWait);
        if (existing != null) {
            throw rows.conflict(existing, 0);
        }
        long now = clock.millis();
        StepRun<O> result = run(connection, id, 1, 1, coroutine, first, false);
        Row unsealed = result.row(id, 1, now, now, keepFinished);
        Row row = rows.sealed(unsealed == null ? null : unsealed.withFamily(parentId, deadlineAt));
        HistoryTable.Entry step = history.entry(started, id, 1, row, result.engine);
        if (row != null) {
            store.insert(connection, row, step);
        } else if (step != null) {
            store.record(connection, step);
        }
        return new FirstStep<>(result, row);
    }

    // ---------------------------------------------------------------- outcomes

    /**
     * After a step of {@code stored}'s session left {@code next} (null: finished and deleted): if
     * that ended a child (finished, or failed with no retry left), its outcome to its parent, in
     * this transaction.
     */
    void stepEnded(Connection connection, Row stored, Row next, StepRun<?> result) throws SQLException {
        if (stored.parentId() == null || next != null && next.status() == SessionStatus.SUSPENDED) {
            return;
        }
        deliver(connection, stored.parentId(), outcome(stored.id(), next == null ? SessionStatus.FINISHED
                : next.status(), result), false);
    }

    private static ChildOutcome outcome(String id, SessionStatus status, StepRun<?> result) {
        Object output = status == SessionStatus.FINISHED && StateCodec.value(result.output) != null ? result.output
                : null;
        return new ChildOutcome(id, status, output, status == SessionStatus.FAILED ? result.failure : null);
    }

    /**
     * Puts {@code outcome} in the inbox of session {@code parentId}, in this transaction: at once
     * if the parent's step is the one running here ({@code parentHere}: its row may not be
     * stored yet), else if the parent has not ended (an outcome for a parent that has is dropped).
     */
    private void deliver(Connection connection, String parentId, ChildOutcome outcome, boolean parentHere)
            throws SQLException {
        if (!parentHere) {
            String status = store.inbox().statusForSend(connection, parentId);
            if (status == null || SessionStatus.FINISHED.name().equals(status)
                    || SessionStatus.CANCELLED.name().equals(status)) {
                return;
            }
        }
        messages.deliver(connection, parentId, outcome);
        wake.run();
    }

    // ---------------------------------------------------------------- cancelling

    /**
     * A session's cancel, for the caller to store: its new row, sealed, and its entry in the
     * history (null when it is off).
     */
    record Cancelled(Row row, HistoryTable.Entry step) {
    }

    /**
     * Closes the session of {@code row} (locked in this transaction and trusted, not ended) and,
     * first, every descendant of it that has not ended, storing theirs; deletes its messages;
     * with {@code tellParent}, puts its outcome in its parent's inbox. Returns its new row
     * ({@link SessionStatus#CANCELLED} with {@code why} (null: a plain cancel) and what its
     * {@code finally} blocks threw, if they did, as its failure) and the entry of its step,
     * {@code started} (null when the history is off).
     */
    Cancelled cancel(Connection connection, Row row, String why, boolean tellParent, StepHistory.Started started)
            throws SQLException {
        String id = row.id();
        for (String childId : store.children(connection, id)) {
            StepHistory.Started childStarted = history.begin();
            Row child = lockChild(connection, childId, id);
            if (child != null && !ended(child)) {
                store(connection, child, cancel(connection, child, null, false, childStarted));
            }
        }
        long step = row.version() + 1;
        StepRun.Closing closing = row.state() == null ? StepRun.Closing.NOTHING
                : StepRun.close(connection, store, clock, id, step, rows.restoreStored(row, "close"));
        String failure = why == null ? closing.failure() : closing.failure() == null ? why
                : why + "; as it was closed, its finally blocks threw: " + closing.failure();
        Row next = rows.sealed(new Row(id, SessionStatus.CANCELLED, step, null, null, null, null, null, null, failure,
                row.created(), clock.millis()).carrying(row));
        messages.ended(connection, id);
        if (tellParent && row.parentId() != null) {
            deliver(connection, row.parentId(), new ChildOutcome(id, SessionStatus.CANCELLED, null, failure), false);
        }
        return new Cancelled(next, history.entry(started, id, step, next, closing.engine()));
    }

    /** Stores {@code cancelled} over {@code stored}, a descendant's row, in this transaction. */
    private void store(Connection connection, Row stored, Cancelled cancelled) throws SQLException {
        store.update(connection, cancelled.row(), SessionStore.Over.of(stored), cancelled.step());
    }

    /** {@link StepContext#cancelChild}: child {@code id} of {@code parent}'s session, cancelled in its transaction. */
    boolean cancelChild(Connection connection, StepContext parent, String id) {
        parent.connection(); // a savepoint: if the parent's step throws, the child was never cancelled
        try {
            StepHistory.Started started = history.begin();
            Row child = store.lock(connection, id, childWait());
            if (child == null) {
                throw new SessionNotFoundException(id);
            }
            refuseDistrusted(child, null);
            if (!parent.sessionId().equals(child.parentId())) {
                throw new IllegalArgumentException("session " + parent.sessionId() + ": session " + id + " is not a"
                        + " child of it (its parent is " + child.parentId() + "); a body cancels only its own"
                        + " children; nothing was cancelled");
            }
            if (ended(child)) {
                return false;
            }
            store(connection, child, cancel(connection, child, null, false, started));
            return true;
        } catch (SQLException e) {
            if (store.isBusy(e)) {
                throw new SessionBusyException(id, store.busyReason());
            }
            throw StoreFailures.of(store, id, "as a child of session " + parent.sessionId() + ", it could not be"
                    + " cancelled in its parent's transaction", e);
        }
    }

    /** Child {@code id} of session {@code parentId}, locked for this transaction and trusted; null if it is gone. */
    private Row lockChild(Connection connection, String id, String parentId) throws SQLException {
        Row child;
        try {
            child = store.lock(connection, id, childWait());
        } catch (SQLException e) {
            if (store.isBusy(e)) {
                throw new SessionBusyException(id, store.busyReason() + " (a child of session " + parentId
                        + ", which is cancelled with it: nothing was cancelled)");
            }
            throw e;
        }
        if (child != null) {
            refuseDistrusted(child, parentId);
        }
        return child;
    }

    private void refuseDistrusted(Row row, String parentId) {
        String distrust = rows.distrust(row);
        if (distrust != null) {
            throw new SessionRefusedException(row.id(), row.build(), distrust + (parentId == null ? ""
                    : " (a child of session " + parentId + ", which is cancelled with it: nothing was cancelled)"),
                    null);
        }
    }

    private Duration childWait() {
        return busyWait.compareTo(CHILD_WAIT) < 0 ? CHILD_WAIT : busyWait;
    }

    private static boolean ended(Row row) {
        return row.status() == SessionStatus.FINISHED || row.status() == SessionStatus.CANCELLED;
    }
}
