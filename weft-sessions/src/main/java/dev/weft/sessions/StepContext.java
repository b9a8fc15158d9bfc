package dev.weft.sessions;

import dev.weft.AsymRunnable;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The step a session's body is running in, for the body's own code: the session's id, the
 * step's number, the step's database transaction, and where to name the point the body is about
 * to suspend at. Reach it with {@link #current()} from anywhere in the body's call chain.
 *
 * <pre>{@code
 * String answer(AsymCoroutine<? extends String, ? super String> self, String question) {
 *     StepContext step = StepContext.current();
 *     try (var insert = step.connection().prepareStatement("INSERT INTO asked VALUES (?, ?)")) {
 *         insert.setString(1, step.sessionId());   // commits exactly once, with the new state
 *         insert.setString(2, question);
 *         insert.executeUpdate();
 *     }
 *     step.suspendingAt("question", Map.of("question", question));
 *     return self.ret(question);
 * }
 * }</pre>
 *
 * <p><b>Waits.</b> A body waits for a time, or for an input until a deadline, by saying so and
 * then suspending: the wait applies to the {@code ret} that ends this step, and is stored with
 * the session in the same transaction. A worker of any node ({@link Sessions.Builder#workers})
 * resumes the session when the time comes, with {@code null} as the input, and
 * {@link #timedOut()} is then true in the step it runs:
 *
 * <pre>{@code
 * for (int round = 1;; round++) {                        // a recurring job
 *     report(round);
 *     StepContext.current().sleep(Duration.ofHours(1));
 *     self.ret("round " + round + " done");              // a worker resumes it in an hour
 * }
 *
 * StepContext.current().awaitInput(Duration.ofDays(2));
 * String answer = self.ret("Do you confirm?");           // an input within two days, or null
 * if (StepContext.current().timedOut()) { ... }          // the deadline came first
 *
 * StepContext.current().awaitMessage(Duration.ofMinutes(5));
 * Order order = self.ret(null);                           // a worker resumes it with a message
 * }</pre>
 *
 * <p><b>Messages.</b> Any code may {@linkplain Sessions#send send} a session a message, whatever
 * the session is doing: it waits in the session's durable inbox, in the order sent, until a step
 * of the session that waits for one ({@link #awaitMessage()}) takes it; that step consumes it
 * exactly once, as it commits.
 *
 * <p><b>Children.</b> A body may start other sessions, its children ({@link #startChild}), in
 * its step's transaction, and wait for what they end with: each child that ends (finishes,
 * fails with no retry left, or is cancelled) puts a {@link ChildOutcome} in its parent's inbox
 * in the transaction of the step that ends it, which the parent takes as any message
 * ({@link #awaitChildren()}):
 *
 * <pre>{@code
 * Set<String> running = new HashSet<>();                 // fan-out
 * for (String part : parts) {
 *     running.add(StepContext.current().startChild(new Render(), part));
 * }
 * List<Object> results = new ArrayList<>();
 * while (!running.isEmpty()) {                           // fan-in: all of them
 *     StepContext.current().awaitChildren();
 *     ChildOutcome done = (ChildOutcome) self.ret(null);
 *     running.remove(done.childId());
 *     results.add(done.output());
 * }
 * }</pre>
 *
 * For the first of them, take one outcome and cancel the others ({@link #cancelChild}); for one
 * child, start it and wait once.
 *
 * <p>Confined to the thread running the step; valid until the body suspends or returns (do not
 * keep it in a field or a local across a {@code ret}: it would be serialized with the frames).
 */
public final class StepContext {

    private static final ThreadLocal<StepContext> CURRENT = new ThreadLocal<>();

    private final String sessionId;
    private final long step;
    /** The guarded view of {@link #raw}, made when the body first asks for it. */
    private Connection connection;
    private final Connection raw;
    private final SessionStore store;
    /** Whether the body took the connection, and so a savepoint marks where its writes begin. */
    private boolean savepoint;
    private String point;
    private byte[] pointValues;
    /** The nodes' clock, which times waits. */
    private final Clock clock;
    /** Whether a worker runs this step because the session's wait came due. */
    private final boolean timedOut;
    /** What the session waits for after this step's {@code ret}; null for a plain input. */
    private SessionWait wait;
    /** Starts and cancels this session's children; null while the session is being closed. */
    private final Children children;
    /** How many steps this one runs inside, in this transaction: a child's first step runs in its parent's. */
    private int depth;
    /** Which run of this step this is under the retry policy: 1 for its first. */
    private final int attempt;

    StepContext(String sessionId, long step, int attempt, Connection connection, SessionStore store, Clock clock,
            boolean timedOut, Children children) {
        this.sessionId = sessionId;
        this.step = step;
        this.attempt = attempt;
        this.raw = connection;
        this.store = store;
        this.clock = clock;
        this.timedOut = timedOut;
        this.children = children;
    }

    /** The name of this step's savepoint: one per level of steps nested in one transaction. */
    private String savepointName() {
        return depth == 0 ? "weft_step" : "weft_step_" + depth;
    }

    /** The step's connection, refusing what would end or split the step's transaction. */
    private static Connection guarded(Connection connection, String sessionId) {
        return (Connection) Proxy.newProxyInstance(StepContext.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "commit", "rollback", "close", "setAutoCommit", "abort", "releaseSavepoint" ->
                            throw new IllegalStateException("session " + sessionId + ": a step cannot " + method.getName()
                                    + " its transaction; it commits with the session's new state");
                        default -> {
                            try {
                                return method.invoke(connection, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        }
                    }
                });
    }

    /**
     * The step running on this thread.
     *
     * @return the running step's context
     * @throws IllegalStateException if no session step is running on this thread
     */
    public static StepContext current() {
        StepContext context = CURRENT.get();
        if (context == null) {
            throw new IllegalStateException("no session step is running on thread " + Thread.currentThread().getName()
                    + ": StepContext.current() is for code that a session's body runs");
        }
        return context;
    }

    /**
     * The session's id.
     *
     * @return the id
     */
    public String sessionId() {
        return sessionId;
    }

    /**
     * This step's number, 1 for the start: the session's version once this step is stored.
     *
     * @return the step's number
     */
    public long step() {
        return step;
    }

    /**
     * Which run of this step this is, under the node's {@linkplain Sessions.Builder#retry retry
     * policy}: 1 for its first run; {@code n + 1} when a worker runs it again after {@code n}
     * runs of it failed (each failure is counted as it is stored, with the step's writes rolled
     * back). A run that ends with nothing stored (its node died, its store could not be reached)
     * is not counted: the step runs again as the same attempt. {@link Sessions#retry} starts the
     * count again, at 1. A body that should fail differently at later attempts (or give up
     * early) can tell them apart by it, as its own writes from a failed run do not survive.
     *
     * @return the attempt, 1 or more
     */
    public int attempt() {
        return attempt;
    }

    /**
     * The step's transaction. What the body writes through it commits together with the
     * session's new state, or not at all (if the body throws, its writes are rolled back and the
     * failure is stored; if the node dies, nothing of the step remains). Do not commit, roll
     * back or close it: those throw {@link IllegalStateException}.
     *
     * @return the step's connection
     */
    public Connection connection() {
        if (!savepoint) {
            try {
                store.savepoint(raw, savepointName());
            } catch (SQLException e) {
                throw new IllegalStateException("session " + sessionId + ": cannot mark where step " + step
                        + "'s own writes begin: " + e, e);
            }
            savepoint = true;
            connection = guarded(raw, sessionId);
        }
        return connection;
    }

    /**
     * Sends {@code message} to session {@code id} in this step's transaction: it is stored if and
     * when this step commits, with the session's new state, exactly once; if the body throws (or
     * the node dies) before that, it was never sent. The receiving session takes it as any
     * message ({@link #awaitMessage()}); on PostgreSQL the workers of every node hear of it when
     * this step commits, on SQLite within their {@linkplain Sessions.Builder#pollEvery poll
     * interval}. A session may send to itself: it takes the message in a later step.
     *
     * @param id      the receiving session
     * @param message the message: Serializable, of the type the receiver's {@code ret} takes
     * @throws SessionNotFoundException if there is no such session (nothing is sent)
     * @throws SessionException         if it has finished, or the statement failed
     * @throws IllegalArgumentException if the message is not Serializable, or holds something
     *                                  that is not (nothing is sent)
     * @throws IllegalStateException    if this session is being closed ({@link Sessions#cancel}):
     *                                  its {@code finally} blocks send nothing
     */
    public void send(String id, Object message) {
        children().send(connection(), id, message);
    }

    /**
     * Starts a child of this session: a session running {@code body}, run to its first
     * {@code ret} with {@code first} as its input now, in this step's transaction and on its
     * connection, under a new id. It is stored if and when this step commits, exactly once; if
     * this step throws or rolls back, it never existed. The child's row names this session as its
     * parent ({@link SessionInfo#parent()}). When it ends (finishes, fails with no retry left, or
     * is cancelled), the step that ends it puts a {@link ChildOutcome} in this session's inbox,
     * in the same transaction (at once, if its first step ends it), whether or not finished
     * sessions are kept; this session takes it in a step that waits for a message
     * ({@link #awaitChildren()}). An outcome for a parent that has ended is dropped. Cancelling
     * this session cancels its children first ({@link Sessions#cancel}).
     *
     * @param body  the child's code: Serializable, as {@link Sessions#start(AsymRunnable, Object)} needs
     * @param first the child's first input
     * @return the child's id
     * @throws IllegalArgumentException if the body cannot be stored (nothing runs)
     * @throws IllegalStateException    if the session is being closed ({@link Sessions#cancel})
     * @throws SessionException         if the child's first step could not be stored in this
     *                                  transaction (the step's store statements failed)
     */
    public String startChild(AsymRunnable<?, ?> body, Object first) {
        return startChild(java.util.UUID.randomUUID().toString(), body, first);
    }

    /**
     * Starts a child of this session under an id of this body's choosing (1 to 64 characters),
     * as {@link #startChild(AsymRunnable, Object)}: a step that runs again (after a retry, say)
     * and starts the same id finds it started, and is told so.
     *
     * @param id    the child's id
     * @param body  the child's code
     * @param first the child's first input
     * @return the child's id
     * @throws SessionConflictException if a session with that id exists (nothing runs)
     * @throws IllegalArgumentException if the id is empty, too long or this session's own, or the
     *                                  body cannot be stored (nothing runs)
     */
    public String startChild(String id, AsymRunnable<?, ?> body, Object first) {
        return children().start(raw, this, id, body, first);
    }

    /**
     * Cancels child {@code id} of this session in this step's transaction, as
     * {@link Sessions#cancel} would (its children first, its {@code finally} blocks run, their
     * writes join this step's); no outcome of it comes to this session's inbox, as this session
     * knows. For "the first of them": take one outcome, then cancel the rest. A child that has
     * ended already is left as it is (its outcome is in the inbox, or was taken).
     *
     * @param id the child
     * @return whether it was cancelled now; false if it had ended already
     * @throws SessionNotFoundException if there is no such session
     * @throws IllegalArgumentException if it is not a child of this session
     * @throws SessionRefusedException  if this node cannot close it (or one of its children)
     * @throws SessionBusyException     if a step of it is running and did not end in time
     */
    public boolean cancelChild(String id) {
        return children().cancelChild(raw, this, id);
    }

    private Children children() {
        if (children == null) {
            throw new IllegalStateException("session " + sessionId + " is being closed: its finally blocks cannot"
                    + " start or cancel children (its children are cancelled with it), nor send messages");
        }
        return children;
    }

    /**
     * Makes the session wait for the outcome of a child once this step suspends: the same wait
     * as {@link #awaitMessage()}, under the name that says what it is for. The input of the
     * {@code ret} is then the oldest message of the inbox, a {@link ChildOutcome} or any other
     * message sent to this session.
     */
    public void awaitChildren() {
        awaitMessage();
    }

    /** Whether the body took the step's connection: only then may the transaction hold writes of its own. */
    boolean tookConnection() {
        return savepoint;
    }

    /** Undoes the body's own writes, if it made any. */
    void rollBackWrites() throws SQLException {
        if (savepoint) {
            store.rollbackToSavepoint(raw, savepointName());
        }
    }

    /**
     * Names the point the body suspends at next, with values an {@linkplain Sessions.Builder#upgrade
     * upgrade} to new code may need there. They are stored beside the frames, by Java
     * serialization, as they are at this call; they must be plain JDK values (strings, numbers,
     * dates, lists and maps of them: classes of the JDK's own modules, all the way down), so that
     * a node with other code can read them. The last call in a step counts; a step that makes
     * none leaves the session at no named point. A refused call changes nothing: the point named
     * before it in this step, if any, stands.
     *
     * @param name   the point's name, as upgrades know it
     * @param values plain JDK values by name
     * @throws IllegalArgumentException if a value is not serializable or holds an object of a
     *                                  class outside the JDK (the message names the session, the
     *                                  point, the value and the class)
     */
    public void suspendingAt(String name, Map<String, ?> values) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("session " + sessionId + ": a point needs a name");
        }
        if (values == null) {
            throw new NullPointerException("session " + sessionId + ": the values of point " + name);
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            PlainValues.check(value, () -> "session " + sessionId + ": value '" + key + "' of point '" + name + "'");
            copy.put(key, value);
        });
        byte[] written = StateCodec.value(copy);
        if (written == null) {
            throw new IllegalArgumentException("session " + sessionId + ": the values of point '" + name
                    + "' cannot be serialized");
        }
        this.point = name;
        this.pointValues = written;
    }

    String point() {
        return point;
    }

    /**
     * Makes the session sleep for {@code duration} once this step suspends: no input resumes it,
     * and a worker does when the time has passed (at once for a zero duration), with
     * {@code null} as the input of its {@code ret}. The time is the node's clock
     * ({@link Sessions.Builder#clock}) now plus {@code duration}; the last wait named in a step
     * counts, and a step that finishes the body ignores it.
     *
     * @param duration how long to sleep, zero or more
     * @throws IllegalArgumentException if {@code duration} is negative, or too long to be a time
     */
    public void sleep(Duration duration) {
        wait = new SessionWait(SessionWait.Kind.SLEEP, after(duration, "sleep"));
    }

    /**
     * Makes the session sleep until {@code time} once this step suspends, as {@link #sleep}: a
     * time already past wakes it as soon as a worker sees it.
     *
     * @param time when a worker resumes it
     */
    public void sleepUntil(Instant time) {
        wait = new SessionWait(SessionWait.Kind.SLEEP, millis(time, "sleep"));
    }

    /**
     * Makes the session wait at most {@code timeout} for its next input once this step suspends:
     * an input before the deadline resumes it as usual; from the deadline on, an input is refused
     * with {@link SessionWaitingException} and a worker resumes it with {@code null}, its
     * {@link #timedOut()} true.
     *
     * @param timeout how long an input is awaited, zero or more
     * @throws IllegalArgumentException if {@code timeout} is negative, or too long to be a time
     */
    public void awaitInput(Duration timeout) {
        wait = new SessionWait(SessionWait.Kind.INPUT, after(timeout, "input's timeout"));
    }

    /**
     * Makes the session wait for its next input until {@code deadline} once this step suspends,
     * as {@link #awaitInput(Duration)}.
     *
     * @param deadline when a worker resumes it as timed out
     */
    public void awaitInputUntil(Instant deadline) {
        wait = new SessionWait(SessionWait.Kind.INPUT, millis(deadline, "input's deadline"));
    }

    /**
     * Makes the session wait for a message once this step suspends: a worker resumes it with the
     * oldest message in its inbox ({@link Sessions#send}) as the input of its {@code ret}, at
     * once if one is there already, and that step consumes the message (it is gone once the
     * step commits, and still there if the step rolls back). A caller's input is refused with
     * {@link SessionWaitingException}. Messages must be of the type the body's {@code ret}
     * takes.
     */
    public void awaitMessage() {
        wait = new SessionWait(SessionWait.Kind.MESSAGE, SessionWait.NEVER);
    }

    /**
     * Makes the session wait at most {@code timeout} for a message once this step suspends, as
     * {@link #awaitMessage()}: if none has come by then, a worker resumes it with {@code null},
     * its {@link #timedOut()} true.
     *
     * @param timeout how long a message is awaited, zero or more
     * @throws IllegalArgumentException if {@code timeout} is negative, or too long to be a time
     */
    public void awaitMessage(Duration timeout) {
        wait = new SessionWait(SessionWait.Kind.MESSAGE, after(timeout, "message's timeout"));
    }

    /**
     * Makes the session wait for a message until {@code deadline} once this step suspends, as
     * {@link #awaitMessage(Duration)}.
     *
     * @param deadline when a worker resumes it as timed out, if no message came
     */
    public void awaitMessageUntil(Instant deadline) {
        wait = new SessionWait(SessionWait.Kind.MESSAGE, millis(deadline, "message's deadline"));
    }

    /**
     * Whether this step runs because the time the session waited for came: its sleep ended, or
     * its deadline for an input or a message passed with none. The input of the {@code ret} it
     * returns from is then {@code null}.
     *
     * @return true if a worker resumed the session when its wait came due
     */
    public boolean timedOut() {
        return timedOut;
    }

    /** What the session waits for after this step, or null for a plain input. */
    SessionWait waitingFor() {
        return wait;
    }

    private long after(Duration duration, String what) {
        if (duration == null) {
            throw new NullPointerException("session " + sessionId + ": the " + what);
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("session " + sessionId + ": a negative " + what + ", " + duration
                    + ": give zero or more (or a time, which may be past)");
        }
        Instant due;
        try {
            due = clock.instant().plus(duration);
        } catch (java.time.DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException("session " + sessionId + ": a " + what + " of " + duration
                    + " ends beyond what a due time can hold", e);
        }
        return millis(due, what);
    }

    private long millis(Instant time, String what) {
        if (time == null) {
            throw new NullPointerException("session " + sessionId + ": the time of the " + what);
        }
        long millis;
        try {
            millis = time.toEpochMilli();
        } catch (ArithmeticException e) {
            millis = SessionWait.NEVER;
        }
        if (millis == SessionWait.NEVER) {
            throw new IllegalArgumentException("session " + sessionId + ": the " + what + " ends at " + time
                    + ", beyond what a due time can hold");
        }
        return millis;
    }

    /** The values of {@link #point()}, serialized when it was named; null if none was. */
    byte[] pointValues() {
        return pointValues;
    }

    /** Makes this the current step; returns the one it replaces, for {@link #restore}. */
    StepContext enter() {
        StepContext previous = CURRENT.get();
        depth = previous == null ? 0 : previous.depth + 1;
        CURRENT.set(this);
        return previous;
    }

    /** Makes {@code previous} the current step again. */
    static void restore(StepContext previous) {
        CURRENT.set(previous);
    }
}
