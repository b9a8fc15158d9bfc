package dev.weft.sessions;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import dev.weft.sessions.SessionStore.Row;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * The steps of one node's sessions ({@link Sessions}' work behind its façade): each step is one
 * transaction that holds the session's lock from loading to storing, and this node's mark for
 * the session ({@link RunningSteps}) for as long; starts, callers' resumes, workers' steps
 * ({@link SessionRunner}), retries, cancels and removals. A step that fails before its commit
 * leaves the stored session as it was. With a step history ({@link StepHistory}), each step
 * that commits writes its entry with its row, in its transaction: a step rolled back leaves none.
 * Owns the node's workers, its resident coroutines and its children's steps. Thread-safe: any
 * thread runs steps, each of a session one at a time.
 */
final class Steps implements AutoCloseable {

    /* Implementation notes: a step is
     *   1. this process's mark for the session (RunningSteps: busy or wait),
     *   2. a transaction that locks the row (PostgreSQL: FOR UPDATE; SQLite: the write lock),
     *   3. the checks (RowReader): status, expected version, build (cached per manifest), and the
     *      wait (SessionWait): a caller's input is refused by a sleep or a passed deadline,
     *   4. the body run to its next ret inside a savepoint (a throwing body leaves no writes),
     *   5. the new row (or a deletion) written and committed, then the mark released; on PostgreSQL
     *      a new row over the locked one and the COMMIT go in one round trip when the body took no
     *      connection (SessionStore.updateAndCommit), so that a step is two round trips, as the
     *      floor's UPDATE and COMMIT are: BEGIN with SELECT ... FOR UPDATE, then UPDATE with COMMIT
     *      (a resident step's conditional UPDATE goes with its COMMIT too, one round trip, when
     *      the body took no connection: SessionStore.updateAtAndCommit).
     * Whatever fails before the commit rolls everything back: the stored session is as it was.
     * A resident step (ResidentSessions) skips 2 and 3: it runs the coroutine it kept, and its
     * write in 5 is conditional on the stored version (SessionStore.updateAt), and with a key on
     * every sealed column and the seal as this node stored them (SessionStore.Version); when that
     * finds another row, the step is rolled back and run as a stored step, whose check in 3
     * refuses a row changed in the store. A COMMIT whose reply is lost with the connection is
     * reported as in doubt, never as not stored (StoreFailures). A worker's step (runDue, for
     * SessionRunner) is 2 to 5 with no input, its transaction begun by the claim of the session
     * whose wait has been due longest (SessionStore.claimDue), its check in 3 that the wait is
     * due; a step that stores a wait notifies the other nodes' workers as it commits
     * (SessionStore.notifyDue). Sessions that wait are never kept resident. Observers
     * (StepObservations) write nothing: the row a step locked and the row it committed are
     * noted as they go by, and the observers are told of its end after the commit or the
     * rollback (of a worker's step's beginning, once its claim has locked a session). With a
     * step history, the entry of a step is made in 5, from the row it stores, and written by the
     * statement that writes that row (PostgreSQL: one statement, a data-modifying WITH, so the
     * round trips stay as they are; SQLite: an INSERT right after), only if that statement found
     * its row. */

    private final SessionStore store;
    private final Duration busyWait;
    private final boolean keepFinished;
    /** Checks, seals and restores this node's rows. */
    private final RowReader rows;
    private final RunningSteps running = new RunningSteps();
    private final ResidentSessions resident;
    private final Clock clock;
    /** Sends and takes the sessions' messages. */
    private final Messages messages;
    /** What a step that throws leaves. */
    private final Retries retries;
    /** Starts, ends and cancels child sessions. */
    private final Children children;
    /** This node's workers; null with none. */
    private final SessionRunner runner;
    /** Tells this node's observers of its steps, after their commits; null with none. */
    private final StepObservations observations;
    /** The entries of the steps this node commits, if it keeps them. */
    private final StepHistory history;
    /** Writes the frames of the sessions this node moves to its code ({@link #move}). */
    private final StateCodec codec;
    /** This node's name where it records what it accepted of other builds' code. */
    private final String node;

    Steps(Sessions.Builder settings, RowReader rows, StateCodec codec, Messages messages, Engine engine,
            StepObservations observations) {
        this.store = settings.store;
        this.busyWait = settings.busyWait;
        this.keepFinished = settings.keepFinished;
        this.rows = rows;
        this.resident = new ResidentSessions(settings.resident);
        this.clock = settings.clock;
        this.messages = messages;
        this.retries = new Retries(settings.retry, clock);
        this.observations = observations;
        this.history = new StepHistory(store, clock, settings.nodeName, settings.historyRetention);
        this.codec = codec;
        this.node = settings.nodeName != null ? settings.nodeName : StepHistory.defaultNode();
        this.children = new Children(store, rows, codec, clock, messages, engine, keepFinished, busyWait, this::wake,
                observations, history);
        this.runner = settings.workers == 0 ? null : new SessionRunner(this, store, settings.workers, settings.poll,
                clock);
    }

    /** Starts this node's workers, if it has any; called once, when the node is built. */
    void startWorkers() {
        if (runner != null) {
            runner.start();
        }
    }

    /** Stops this node's workers, if it has any (see {@link Sessions#close()}). */
    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
    }

    /** The first step of a new session: as {@link Sessions#start(String, dev.weft.AsymRunnable, Object, Duration)}. */
    <I, O> SessionStep<O> start(String id, AsymCoroutine<I, O> coroutine, I first, Duration deadline) {
        enter(id);
        try {
            Connection connection = begin(id);
            boolean healthy = true;
            boolean committed = false;
            SQLException duplicate;
            try {
                Long deadlineAt = deadline == null ? null : Deadlines.after(clock, deadline, id);
                Children.FirstStep<O> started = children.firstStep(connection, id, coroutine, first, null, deadlineAt);
                store.commit(connection);
                committed = true;
                stored(started.row(), coroutine);
                return started.result().reply(id, 1);
            } catch (SQLException e) {
                if (store.isBusy(e)) {
                    throw new SessionBusyException(id, store.busyReason());
                }
                if (!store.isDuplicate(e)) {
                    healthy = false;
                    throw StoreFailures.ofStep(store, id, 0, e, "its first step ran but could not be stored; nothing"
                            + " is stored");
                }
                duplicate = e;
            } finally {
                finish(connection, committed, healthy);
            }
            // another start with this id committed first: nothing of this one is stored
            Row existing = existing(id);
            if (existing != null) {
                throw rows.conflict(existing, 0);
            }
            throw storage(id, "its first step ran but could not be stored; nothing is stored", duplicate);
        } finally {
            running.leave(id);
        }
    }

    /** The stored row of {@code id}, read without a lock, or null. */
    private Row existing(String id) {
        Connection connection = begin(id);
        boolean healthy = true;
        try {
            return store.lock(connection, id, busyWait);
        } catch (SQLException e) {
            healthy = false;
            throw storage(id, "cannot read it from " + store, e);
        } finally {
            finish(connection, false, healthy);
        }
    }

    /** One step of session {@code id}; {@code expectedVersion} -1 for any. */
    <I, O> SessionStep<O> step(String id, long expectedVersion, I input) {
        enter(id);
        try {
            ResidentSessions.Entry entry = resident.take(id);
            if (entry != null && (expectedVersion < 0 || expectedVersion == entry.stored().version())) {
                SessionStep<O> done = residentStep(id, entry, input);
                if (done != null) {
                    return done;
                }
            }
            return storedStep(id, expectedVersion, input);
        } finally {
            running.leave(id);
        }
    }

    /** A step of a session read from the store under its row lock. */
    private <I, O> SessionStep<O> storedStep(String id, long expectedVersion, I input) {
        return inStepTransaction(id, (connection, commit) -> lockedStep(connection, commit, lock(connection, id),
                expectedVersion, input, null));
    }

    /**
     * The step of {@code row}'s session, locked in {@code connection}'s transaction, which it
     * commits: with a caller's {@code input}, which a session that waits for a time, a message or
     * a retry refuses ({@code worker} null); or run by a worker for the session's wait, the
     * session claimed by {@code worker}: the retry of its failed step once due, with that step's
     * input; or with its oldest message if it waits for one and has one (taken by the claim, if
     * it took it); else as timed out if the wait is due (else null, nothing run).
     */
    @SuppressWarnings("unchecked")
    private <I, O> SessionStep<O> lockedStep(Connection connection, Commit commit, Row row, long expectedVersion,
            I input, SessionStore.Claimed worker) throws SQLException {
        boolean byWorker = worker != null;
        String id = row.id();
        long now = clock.millis();
        if (Deadlines.passed(row, now)) {
            refuseDistrusted(row);
            if (!byWorker) {
                throw Deadlines.refusal(row);
            }
            Children.Cancelled cancelled = children.cancel(connection, row, Deadlines.reason(row), true,
                    commit.started);
            commit.storing(row.version(), cancelled, SessionStore.Over.of(row));
            return null;
        }
        AsymCoroutine<I, O> coroutine = rows.restore(row, expectedVersion);
        SessionWait wait = SessionWait.of(row);
        if (!byWorker) {
            if (wait != null) {
                wait.admitInput(id, now);
            }
            return runAndStore(connection, commit, row, row.version(), coroutine, input, false, 0);
        }
        if (wait == null) {
            return null;
        }
        if (wait.kind().retry()) {
            if (!wait.due(now)) {
                return null;
            }
            boolean timedOut = wait.kind() == SessionWait.Kind.RETRY_TIMEOUT;
            return runAndStore(connection, commit, row, row.version(), coroutine,
                    timedOut ? null : (I) rows.retryInput(row), timedOut, row.attempts() == null ? 0 : row.attempts());
        }
        Object message = wait.kind() != SessionWait.Kind.MESSAGE ? null
                : worker.took() ? messages.taken(row, worker.message()) : messages.take(connection, row);
        if (message == null && !wait.due(now)) {
            return null;
        }
        return runAndStore(connection, commit, row, row.version(), coroutine, (I) message, message == null, 0);
    }

    /**
     * Runs step {@code versionBefore + 1} of {@code stored}'s session with {@code input}, and
     * stores and commits what it leaves: its next suspension, its end, or after a throw a retry
     * to come or its failure ({@link Retries}), {@code attemptsBefore} runs of it having failed.
     */
    private <I, O> SessionStep<O> runAndStore(Connection connection, Commit commit, Row stored, long versionBefore,
            AsymCoroutine<I, O> coroutine, I input, boolean timedOut, int attemptsBefore) throws SQLException {
        String id = stored.id();
        long step = versionBefore + 1;
        boolean onChangedCode = tookOnChangedCode(stored, coroutine);
        StepRun<O> result = run(connection, id, step, attemptsBefore + 1, coroutine, input, timedOut);
        Row unsealed = result.failure != null
                ? retries.afterFailure(stored, versionBefore, result, input, timedOut, attemptsBefore)
                : result.row(id, step, stored.created(), clock.millis(), keepFinished);
        Row next = rows.sealed(unsealed == null ? null : unsealed.carrying(stored));
        if (onChangedCode) {
            store.recordAccepted(connection, stored.build(), node, clock.millis());
        }
        children.stepEnded(connection, stored, next, result);
        HistoryTable.Entry entry = history.entry(commit.started, id, next == null ? step : next.version(), next,
                result.engine);
        if (next == null) {
            store.delete(connection, id, entry);
            messages.ended(connection, id);
            commit.run(step);
        } else {
            endingInbox(connection, next);
            commit.storing(versionBefore, next, SessionStore.Over.of(stored), result.bodyWrote, entry);
        }
        stored(next, coroutine);
        if (result.failure != null) {
            throw retries.reply(next, result);
        }
        return result.reply(id, step);
    }

    /**
     * Whether {@code coroutine}, before its step runs, holds {@code stored}'s frames taken on this
     * node's changed code: restored (an upgrade's new body is not yet started) from a build whose
     * code changed here.
     */
    private boolean tookOnChangedCode(Row stored, AsymCoroutine<?, ?> coroutine) {
        return rows.onChangedCode(stored) && coroutine.getState() == CoroutineBase.State.SUSPENDED;
    }

    /** Session {@code id}'s frames moved to this node's code without a step: as {@link Sessions#moveToThisBuild}. */
    boolean move(String id, long expectedVersion) {
        if (!rows.acceptsChangedCode()) {
            throw new IllegalStateException("cannot move session " + id + " to this node's code: this node does not"
                    + " accept changed code (Sessions.Builder.acceptChangedCode())");
        }
        return onLockedRow(id, (connection, commit, row) -> {
            if (row.status() != SessionStatus.SUSPENDED || row.version() != expectedVersion) {
                throw rows.conflict(row, expectedVersion);
            }
            if (!rows.onChangedCode(row)) {
                return false;
            }
            AsymCoroutine<Object, Object> coroutine = rows.restore(row, expectedVersion);
            if (coroutine.getState() != CoroutineBase.State.SUSPENDED) {
                return false; // an upgrade's new body: it runs at the session's next step
            }
            StateCodec.Written written;
            try {
                written = codec.write(coroutine);
            } catch (IOException e) {
                throw new SessionRefusedException(id, row.build(), "its frames, matched to this node's code,"
                        + " cannot be written again: " + e, e);
            }
            long now = clock.millis();
            Row moved = rows.sealed(row.withFrames(written, now));
            store.recordAccepted(connection, row.build(), node, now);
            store.update(connection, moved, SessionStore.Over.of(row), null);
            commit.run(row.version() + 1);
            return true;
        });
    }

    /** What {@link #onLockedRow} runs: on the session's row, locked and trusted, in its transaction. */
    private interface LockedRowWork<T> {
        T run(Connection connection, Commit commit, Row row) throws SQLException;
    }

    /**
     * Runs {@code work} on session {@code id}'s row, in a step's transaction that holds the
     * row's lock, the row trusted ({@link #refuseDistrusted}); no other step of it runs on this
     * node meanwhile, and its resident coroutine, if any, is dropped.
     */
    private <T> T onLockedRow(String id, LockedRowWork<T> work) {
        enter(id);
        try {
            resident.drop(id);
            return inStepTransaction(id, (connection, commit) -> {
                Row row = lock(connection, id);
                refuseDistrusted(row);
                return work.run(connection, commit, row);
            });
        } finally {
            running.leave(id);
        }
    }

    /** What the nodes accepted of other builds' code: as {@link Sessions#acceptedBuilds}. */
    List<Sessions.AcceptedBuild> acceptedBuilds() {
        try {
            return store.acceptedBuilds();
        } catch (SQLException e) {
            throw StoreFailures.ofStore(store, "cannot read the builds accepted on changed code", e);
        }
    }

    /** The failed step of session {@code id} run again: as {@link Sessions#retry}. */
    <O> SessionStep<O> retry(String id) {
        return onLockedRow(id, (connection, commit, row) -> {
            if (Deadlines.passed(row, clock.millis())) {
                throw Deadlines.refusal(row);
            }
            if (row.status() != SessionStatus.FAILED) {
                throw new SessionException(id, "it is " + row.status() + ", not FAILED: it has no failed step"
                        + " to run again; nothing ran", null);
            }
            AsymCoroutine<Object, O> coroutine = rows.restoreStored(row, "run again");
            SessionWait wait = SessionWait.of(row);
            if (wait == null || !wait.kind().retry()) {
                throw new SessionException(id, "the input of its failed step could not be stored, so the step"
                        + " cannot run again; nothing ran", null);
            }
            boolean timedOut = wait.kind() == SessionWait.Kind.RETRY_TIMEOUT;
            Object input = timedOut ? null : rows.retryInput(row);
            return runAndStore(connection, commit, row, row.version() - 1, coroutine, input, timedOut, 0);
        });
    }

    /** Session {@code id} closed in a step of its own: as {@link Sessions#cancel}. */
    void cancel(String id) {
        onLockedRow(id, (connection, commit, row) -> {
            if (row.status() == SessionStatus.FINISHED || row.status() == SessionStatus.CANCELLED) {
                throw new SessionException(id, "it has " + (row.status() == SessionStatus.FINISHED ? "finished"
                        : "been cancelled already") + ": there is nothing to cancel", null);
            }
            commit.storing(row.version(), children.cancel(connection, row, null, true, commit.started),
                    SessionStore.Over.of(row));
            return null;
        });
    }

    /** Session {@code id} removed: as {@link Sessions#remove}. */
    boolean remove(String id) {
        enter(id);
        try {
            resident.drop(id);
            Connection connection = begin(id);
            boolean healthy = true;
            boolean committed = false;
            try {
                Row row = store.lock(connection, id, busyWait);
                if (row != null) {
                    store.delete(connection, id, null);
                    messages.ended(connection, id);
                }
                store.deleteHistory(connection, id);
                store.commit(connection);
                committed = true;
                return row != null;
            } catch (SQLException e) {
                if (store.isBusy(e)) {
                    throw new SessionBusyException(id, store.busyReason());
                }
                healthy = false;
                throw storage(id, "cannot remove it from " + store, e);
            } finally {
                finish(connection, committed, healthy);
            }
        } finally {
            running.leave(id);
        }
    }

    /** Session {@code id}'s step history: as {@link Sessions#history}. */
    List<SessionHistoryEntry> history(String id) {
        try {
            return store.history(id).stream().map(SessionHistoryEntry::of).toList();
        } catch (SQLException e) {
            throw storage(id, "cannot read its history from " + store, e);
        }
    }

    private void refuseDistrusted(Row row) {
        String distrust = rows.distrust(row);
        if (distrust != null) {
            throw new SessionRefusedException(row.id(), row.build(), distrust, null);
        }
    }

    /**
     * For {@link SessionRunner}'s workers: claims the session whose wait has been due longest,
     * but those in {@code skipped}, and runs its step, timed out, in the claim's transaction;
     * observed from its claim on.
     *
     * @return the id of the session claimed, or null if none was due
     * @throws SessionException naming the session claimed, if its step could not run or be stored
     *         (it stays as it was), or its body failed (stored as failed)
     */
    String runDue(Collection<String> skipped) {
        return observedWorkerStep(connection -> store.claimDue(connection, clock.millis(), skipped)).claimed;
    }

    /**
     * A worker's step of session {@code id}, which was sent a message: as {@link #runDue}, but
     * of that session only, if it waits for a message and no other transaction holds it. Whether
     * a step of it was committed.
     */
    boolean runSent(String id) {
        return observedWorkerStep(connection -> store.claimMessaged(connection, id)).committed;
    }

    /** Claims a session's row in a transaction of a worker's step ({@link SessionStore#claimDue} and kin). */
    private interface Claimer {
        /** The session claimed, its row read, or null if none. */
        SessionStore.Claimed in(Connection connection) throws SQLException;
    }

    /** What a worker's step came to: the id of the session claimed, or null; whether its step was committed. */
    private record WorkerStep(String claimed, boolean committed) {
    }

    /** {@link #workerStep}, observed from its claim on if this node has observers. */
    private WorkerStep observedWorkerStep(Claimer claim) {
        return observations == null ? workerStep(claim) : observations.worker(() -> workerStep(claim));
    }

    /**
     * A worker's step, in a transaction of its own: the session {@code claim} claims, if any, run
     * for its wait ({@link #lockedStep}).
     */
    private WorkerStep workerStep(Claimer claim) {
        Connection connection;
        try {
            connection = store.begin();
        } catch (SQLException e) {
            throw StoreFailures.ofStore(store, "cannot begin a transaction to claim a due session", e);
        }
        Commit commit = new Commit(connection);
        boolean healthy = true;
        String id = null;
        try {
            SessionStore.Claimed claimed = claim.in(connection);
            if (claimed == null) {
                return new WorkerStep(null, false);
            }
            if (observations != null) {
                observations.locked(claimed.row());
            }
            id = claimed.row().id();
            enter(id, 0);
            try {
                lockedStep(connection, commit, claimed.row(), -1, null, claimed);
            } finally {
                running.leave(id);
            }
            return new WorkerStep(id, commit.done);
        } catch (SQLException e) {
            healthy = false;
            throw id == null ? StoreFailures.ofStore(store, "cannot claim a due session", e)
                    : StoreFailures.ofStep(store, id, commit.versionBefore, e, "its step for its due wait could not"
                            + " be stored; the session stays at its last stored version");
        } finally {
            finish(connection, commit.done, healthy);
        }
    }

    /**
     * A step of a resident session, run without reading it from the store: null if the store
     * no longer holds the version this node stored, in which case nothing of the step is
     * committed.
     */
    @SuppressWarnings("unchecked")
    private <I, O> SessionStep<O> residentStep(String id, ResidentSessions.Entry entry, I input) {
        AsymCoroutine<I, O> coroutine = (AsymCoroutine<I, O>) entry.coroutine();
        SessionStore.Version stored = entry.stored();
        return inStepTransaction(id, (connection, commit) -> {
            long step = stored.version() + 1;
            StepRun<O> result = run(connection, id, step, 1, coroutine, input, false);
            if (result.failure != null) {
                return null; // rolled back: run from the store, whose row a failure or a retry is made from
            }
            Row next = rows.sealed(result.row(id, step, stored.created(), clock.millis(), keepFinished));
            HistoryTable.Entry historyEntry = history.entry(commit.started, id, step, next, result.engine);
            boolean current;
            if (next == null) {
                current = store.deleteAt(connection, id, stored, historyEntry);
                if (current) {
                    messages.ended(connection, id);
                    commit.run(step);
                }
            } else {
                endingInbox(connection, next);
                current = commit.storingAt(next, new SessionStore.Over(entry.build(), SessionStatus.SUSPENDED), stored,
                        result.bodyWrote, historyEntry);
            }
            if (!current) {
                return null;
            }
            stored(next, coroutine);
            return result.reply(id, step);
        });
    }

    /** What a step does in its transaction, which it commits through {@code commit} or not at all. */
    @FunctionalInterface
    private interface StepTransaction<T> {
        T run(Connection connection, Commit commit) throws SQLException;
    }

    /** Commits one step's transaction, and remembers that it did, and from which version. */
    private final class Commit {
        private final Connection connection;
        boolean done;
        /** The version of the session the step that commits started from, once it commits. */
        long versionBefore = -1;
        /** When the step began, for its entry in the history; null when the history is off. */
        final StepHistory.Started started = history.begin();

        Commit(Connection connection) {
            this.connection = connection;
        }

        /** Commits step {@code step}. */
        void run(long step) throws SQLException {
            versionBefore = step - 1;
            store.commit(connection);
            done = true;
        }

        /**
         * Stores {@code row} over version {@code previous}, which holds {@code over}, with
         * {@code entry} in the history unless null, and commits, if the store holds that version
         * (see {@link SessionStore#updateAtAndCommit}): whether it did.
         */
        boolean storingAt(Row row, SessionStore.Over over, SessionStore.Version previous, boolean bodyWrote,
                HistoryTable.Entry entry) throws SQLException {
            versionBefore = row.version() - 1;
            done = store.updateAtAndCommit(connection, row, over, previous, bodyWrote, entry);
            return done;
        }

        /**
         * Stores {@code row} over the locked row, at {@code before}, which holds {@code over},
         * with {@code entry} in the history unless null, and commits (see
         * {@link SessionStore#updateAndCommit}).
         */
        void storing(long before, Row row, SessionStore.Over over, boolean bodyWrote, HistoryTable.Entry entry)
                throws SQLException {
            versionBefore = before;
            store.updateAndCommit(connection, row, over, bodyWrote, entry);
            done = true;
            if (observations != null) {
                observations.stored(row);
            }
        }

        /** Stores a cancel over the locked row, at {@code before}, which holds {@code over}, and commits. */
        void storing(long before, Children.Cancelled cancelled, SessionStore.Over over) throws SQLException {
            storing(before, cancelled.row(), over, true, cancelled.step());
        }
    }

    /** Runs {@code work} in a transaction of session {@code id}; what it does not commit is rolled back. */
    private <T> T inStepTransaction(String id, StepTransaction<T> work) {
        Connection connection = begin(id);
        Commit commit = new Commit(connection);
        boolean healthy = true;
        try {
            return work.run(connection, commit);
        } catch (SQLException e) {
            healthy = false;
            throw StoreFailures.ofStep(store, id, commit.versionBefore, e, "its step could not be stored; the session"
                    + " stays at its last stored version");
        } finally {
            finish(connection, commit.done, healthy);
        }
    }

    /** Before a step stores {@code next}: the session's messages deleted if it finished (kept finished). */
    private void endingInbox(Connection connection, Row next) throws SQLException {
        if (next.status() == SessionStatus.FINISHED) {
            messages.ended(connection, next.id());
        }
    }

    /**
     * After a commit: keeps the coroutine resident if {@code stored} is the row of a suspended
     * session that awaits a plain input (and has no parent nor deadline, whose columns a resident
     * step does not carry); tells this node's workers of a wait (of a message: at
     * once, as its inbox may hold one already), and of a deadline.
     */
    private void stored(Row stored, AsymCoroutine<?, ?> coroutine) {
        if (observations != null) {
            observations.stored(stored);
        }
        if (stored == null || stored.status() != SessionStatus.SUSPENDED) {
            return;
        }
        if (stored.waitKind() == null && stored.parentId() == null && stored.deadlineAt() == null) {
            resident.put(stored.id(), SessionStore.Version.of(stored), stored.build(), coroutine);
            return;
        }
        if (runner != null && stored.waitKind() != null) {
            runner.due(stored.dueAt() == null || SessionWait.Kind.MESSAGE.name().equals(stored.waitKind())
                    ? clock.millis() : stored.dueAt());
        }
        if (runner != null && stored.deadlineAt() != null) {
            runner.due(stored.deadlineAt());
        }
    }

    private void enter(String id) {
        enter(id, busyWait.toNanos());
    }

    private void enter(String id, long waitNanos) {
        boolean entered;
        try {
            entered = running.enter(id, waitNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SessionBusyException(id, "interrupted while waiting for it on this node");
        }
        if (!entered) {
            throw new SessionBusyException(id, "on this node");
        }
    }

    private Connection begin(String id) {
        try {
            return store.begin();
        } catch (SQLException e) {
            if (store.isBusy(e)) {
                throw new SessionBusyException(id, store.busyReason());
            }
            throw storage(id, "cannot begin a transaction in " + store, e);
        }
    }

    private Row lock(Connection connection, String id) throws SQLException {
        Row row;
        try {
            row = store.lock(connection, id, busyWait);
        } catch (SQLException e) {
            if (store.isBusy(e)) {
                throw new SessionBusyException(id, store.busyReason());
            }
            throw e;
        }
        if (row == null) {
            throw new SessionNotFoundException(id);
        }
        if (observations != null) {
            observations.locked(row);
        }
        return row;
    }

    /**
     * Commits nothing more: rolls back what is not committed, and gives the connection back; after
     * a commit, prunes the history if that is due.
     */
    private void finish(Connection connection, boolean committed, boolean healthy) {
        boolean keep = healthy;
        if (!committed) {
            keep = store.rollbackQuietly(connection) && keep;
        }
        store.release(connection, keep);
        if (committed) {
            history.afterCommit();
        }
    }

    /** {@link StepRun#run} on this node's store, codec and clock, with its children; {@code attempt} 1 for a first. */
    private <I, O> StepRun<O> run(Connection connection, String id, long step, int attempt,
            AsymCoroutine<I, O> coroutine, I input, boolean timedOut) throws SQLException {
        return children.run(connection, id, step, attempt, coroutine, input, timedOut);
    }

    /** Tells this node's workers, if it has any, that session {@code id} was sent a message, which is stored. */
    void sent(String id) {
        if (runner != null) {
            runner.sent(id);
        }
    }

    /** Tells this node's workers, if it has any, that a session may be due now (a message sent to it). */
    void wake() {
        if (runner != null) {
            runner.due(clock.millis());
        }
    }

    private SessionException storage(String id, String what, SQLException e) {
        return StoreFailures.of(store, id, what, e);
    }
}
