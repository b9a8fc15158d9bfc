package dev.weft.sessions;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Engine;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.SecretKey;

/**
 * Durable sessions (thesis 5.2 at scale): a session is an {@link AsymCoroutine} suspended at a
 * {@code ret} and stored under an id; each input resumes it, on whichever node gets the input,
 * runs it to its next {@code ret} or its end, and stores it again, in one transaction.
 *
 * <pre>{@code
 * try (SessionStore store = SessionStore.sqlite(Path.of("sessions.db"))) {
 *     Sessions sessions = Sessions.builder(store).build();
 *     SessionStep<String> step = sessions.start(new Interaction(), null);   // "Please enter your name:"
 *     // ... later, in any process using the same store:
 *     step = sessions.resume(step.id(), step.version(), "John Doe");        // "Please enter your country:"
 * }
 * }</pre>
 *
 * <p><b>Bodies.</b> A body's classes must be woven (see the README: serializing coroutines), and
 * what its frames hold must be serializable. Steps run on the engine this node is built with
 * ({@link Builder#engine}): the native one (which needs
 * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}) or the woven one (which needs every
 * method between the body and its {@code ret}s woven). A session's stored frames are the same on
 * both, so a session stored by a node of one engine is resumed by a node of the other. The
 * in-memory coroutine is dropped once a step is stored, not closed: its {@code finally} blocks
 * run when the session really ends.
 *
 * <p><b>Exactly once.</b> A step is one database transaction that holds the session's lock from
 * loading to storing: two resumes of one session, on one node or two, never both run a step; the
 * second waits, or fails with {@link SessionBusyException} (see {@link Builder#waitWhenBusy}). A
 * node that dies mid-step commits nothing: the session stays at its last stored suspension, and
 * any node resumes it. The body's own writes through {@link StepContext#connection()} commit
 * with the step, exactly once. Any other side effect of a step (a mail sent, a call to another
 * service) runs at least once: a step that dies before its commit runs again when the input is
 * resent. To answer a step exactly once when a reply may be lost, pass the version it showed
 * ({@link #resume(String, long, Object)}): a resend of an answer already taken fails with
 * {@link SessionConflictException}, which carries the output of the step that took it. A wait's
 * end (a sleep, a deadline) is consumed exactly once, by the step a worker commits for it; that
 * step's other side effects, as any step's, run at least once.
 *
 * <p><b>Resident sessions.</b> With {@link Builder#keepResident}, a node keeps the coroutines it
 * last stored in memory, and a session's next step on the same thread runs from there: no state
 * read, no row lock, and a commit that stores the new state only over the very version this node
 * stored (otherwise the step's writes roll back and it runs again from the store). The body's
 * database writes stay exactly once; its other side effects may also have run once more, from
 * that older state. With a key ({@link Builder#sealWith}), the commit also finds the row only
 * if every sealed column is as this node stored it: a row changed in the store meanwhile is
 * read and refused as any stored step refuses it, and left as it is.
 *
 * <p><b>Outages.</b> A store that cannot be reached, or a connection lost before a step's
 * {@code COMMIT} was sent, is {@link SessionStoreUnavailableException}: nothing is stored, retry.
 * A connection lost after the {@code COMMIT} was sent is {@link SessionOutcomeUnknownException}:
 * the step may be stored; {@link #status} says whether, and a resend with the version it names
 * cannot be taken twice.
 *
 * <p><b>Builds.</b> Each stored session records the fingerprint of the code its frames belong to
 * ({@link SessionInfo#build()}). A node whose code differs refuses the session with
 * {@link SessionRefusedException} and leaves it as it was, so nodes still on the old build can
 * drain it; {@link #refusal} and {@link #builds()} say which sessions this node can take, and an
 * {@linkplain Builder#upgrade upgrade} moves a session suspended at a named point to new code.
 *
 * <p><b>Waits, messages and workers.</b> A body may sleep, wait for an input until a deadline,
 * or wait for a message ({@link StepContext#sleep}, {@link StepContext#awaitInput},
 * {@link StepContext#awaitMessage()}); the wait is stored with the session, and a message
 * ({@link #send}) in the session's durable inbox. A node built with {@linkplain Builder#workers workers} resumes the sessions whose wait
 * is due, from any node's store, each step in one transaction with its claim; {@link #close()}
 * stops them.
 *
 * <p><b>Finding sessions.</b> {@link #status} says where a session is and what it waits for
 * until when ({@link SessionInfo#waiting()}); {@link #list(SessionQuery)} pages through the
 * sessions that pass filters (status, build, point, kind of wait, due time), each page read by
 * an index, whatever the store's size. With {@link Builder#keepHistory}, {@link #history} says
 * which steps a session took, when, where and with what outcome, each entry committed with its
 * step.
 *
 * <p><b>Metrics and traces.</b> A node built with {@linkplain Builder#observe observers} tells
 * them of each step, after its commit or rollback: Micrometer's meters
 * ({@code dev.weft.sessions.micrometer.SessionsMeters}) and OpenTelemetry's spans
 * ({@code dev.weft.sessions.opentelemetry.SessionsTracing}), each library an optional dependency
 * loaded only by a node that uses it; {@link #countDue()} is the backlog of due sessions.
 *
 * <p>Thread-safe: any thread may start and resume sessions; each step runs on the calling
 * thread, or on a worker when a wait comes due.
 */
public final class Sessions implements AutoCloseable {

    /**
     * Moves a session suspended at a named point of old code to new code: given the values the
     * old code stored at the point ({@link StepContext#suspendingAt}), returns the new code's
     * body, which is called with the input that answers the point, as its first input.
     */
    @FunctionalInterface
    public interface Upgrade {
        /**
         * The new body that carries on from the point.
         *
         * @param values the values stored at the point, by name
         * @return the new body
         */
        AsymRunnable<?, ?> resumeAt(Map<String, Object> values);
    }

    /**
     * How many sessions of one build the store holds, and whether this node can resume them.
     *
     * @param build    the build fingerprint (null for ended sessions)
     * @param sessions how many sessions have it
     * @param refusal  why this node refuses them, or null if it accepts them
     */
    public record BuildSummary(String build, long sessions, String refusal) {
    }

    /**
     * That a node took sessions stored by a build on its changed code
     * ({@link Builder#acceptChangedCode()}): recorded once per build and node, in the transaction
     * of the first step or move that did.
     *
     * @param build   the build the sessions were stored by
     * @param node    the node ({@link Builder#nodeName})
     * @param firstAt when it first did so, by its clock
     */
    public record AcceptedBuild(String build, String node, java.time.Instant firstAt) {
    }

    /** How a {@link Sessions} is set up; {@link Sessions#builder(SessionStore)} makes one. */
    public static final class Builder {
        // the settings, read by Steps when the node is built
        final SessionStore store;
        ClassLoader loader;
        Engine engine;
        Duration busyWait = Duration.ZERO;
        boolean keepFinished;
        int resident;
        final Map<String, Upgrade> upgrades = new HashMap<>();
        final List<SecretKey> keys = new ArrayList<>();
        Clock clock = Clock.systemUTC();
        int workers;
        Duration poll = Duration.ofSeconds(1);
        RetryPolicy retry = RetryPolicy.NONE;
        Duration deadline;
        final List<SessionObserver> observers = new ArrayList<>();
        Duration historyRetention;
        String nodeName;
        boolean acceptChangedCode;

        private Builder(SessionStore store) {
            if (store == null) {
                throw new NullPointerException("store");
            }
            this.store = store;
        }

        /**
         * The class loader of this node's code, which loads the classes of stored frames and
         * values. Default: the thread's context class loader when {@link #build()} is called.
         *
         * @param loader the loader of this node's code
         * @return this builder
         */
        public Builder classLoader(ClassLoader loader) {
            this.loader = loader;
            return this;
        }

        /**
         * The engine this node's steps run on: a session started from a body
         * ({@link Sessions#start(AsymRunnable, Object)}) runs on it, and so does every step of a
         * session read back from the store, whichever engine stored it (the frames are the same on
         * both). A coroutine given to {@link Sessions#start(AsymCoroutine, Object)} runs its first
         * step on its own engine. Default: {@link Engine#defaultEngine()} when {@link #build()} is
         * called (the native engine on JDK 21 and later, unless the program or the
         * {@value Engine#DEFAULT_PROPERTY} property says otherwise).
         *
         * @param engine the engine that runs this node's steps
         * @return this builder
         */
        public Builder engine(Engine engine) {
            if (engine == null) {
                throw new NullPointerException("engine");
            }
            this.engine = engine;
            return this;
        }

        /**
         * How long a resume waits for another step of the same session to end before it throws
         * {@link SessionBusyException}. Default: zero, it throws at once.
         *
         * @param wait how long to wait, zero or more
         * @return this builder
         */
        public Builder waitWhenBusy(Duration wait) {
            if (wait.isNegative()) {
                throw new IllegalArgumentException("a negative wait: " + wait);
            }
            this.busyWait = wait;
            return this;
        }

        /**
         * Whether a finished session's row is kept (status {@link SessionStatus#FINISHED}, with
         * its last output, no frames) until {@link Sessions#remove}. Default: false, it is
         * deleted. Keeping it lets a resend of the last answer get a
         * {@link SessionConflictException} with the final output rather than
         * {@link SessionNotFoundException}.
         *
         * @param keep whether to keep finished sessions
         * @return this builder
         */
        public Builder keepFinished(boolean keep) {
            this.keepFinished = keep;
            return this;
        }

        /**
         * Keeps the suspended coroutines of up to {@code sessions} sessions this node stepped
         * last in memory, so that the next step of one of them, if it comes to the thread that
         * ran the last one, runs without reading its state back: it takes no lock on the row,
         * and its commit stores the new state only if the store still holds the version this
         * node stored (else the step's writes are rolled back and it runs again from the stored
         * state, the usual way). Default: 0, none. The step's own database writes stay exactly
         * once; its other side effects, which run at least once anyway, may then also have run
         * from that older state: keep sessions on one node (sticky routing) when that matters.
         * With a key ({@link #sealWith}), the commit stores the new state only if every sealed
         * column and the seal are still as this node stored them, so each resident session also
         * keeps the bytes of its stored row in memory, and its step sends them with its
         * {@code UPDATE} (still one statement).
         *
         * @param sessions how many sessions to keep in memory, 0 for none
         * @return this builder
         */
        public Builder keepResident(int sessions) {
            if (sessions < 0) {
                throw new IllegalArgumentException("a negative number of resident sessions: " + sessions);
            }
            this.resident = sessions;
            return this;
        }

        /**
         * Registers how to move sessions suspended at {@code point} whose build this node
         * refuses to this node's code. Used when such a session is resumed here.
         *
         * @param point   the name the old code gave the point ({@link StepContext#suspendingAt})
         * @param upgrade makes the new body from the point's values
         * @return this builder
         */
        public Builder upgrade(String point, Upgrade upgrade) {
            if (point == null || upgrade == null) {
                throw new NullPointerException(point == null ? "point" : "upgrade");
            }
            upgrades.put(point, upgrade);
            return this;
        }

        /**
         * Resumes sessions whose frames' code has changed in this node's build, where every
         * suspended frame still fits the new code; by default a node resumes only sessions whose
         * every frame's method has exactly the code it was stored by (or which an
         * {@linkplain #upgrade upgrade} moves). A frame of a changed method fits when its call is
         * found in the new code, the same monitors are held and the operand stack below it is the
         * same there, and every variable live there in the new code was live in the stored frame,
         * under the same name and of the same type (so the classes must be compiled with their
         * variables' names, {@code javac -g}): the rule of
         * {@link dev.weft.CoroutineInputStream#acceptChangedCode()}, by the sites stored once per
         * build with its manifest. The new code then runs from there. A session that does not fit
         * is refused with {@link SessionRefusedException}, naming the frame, the line and the
         * variable ("`total` is live at OrderFlow.run(OrderFlow.java:48) in the new code but not in
         * the saved frame"), and left as it was; its point's {@linkplain #upgrade upgrade}, if
         * there is one, moves it instead. Each time this node stores a session it took from
         * another build this way, it records that build ({@link Sessions#acceptedBuilds()}).
         * {@link SessionsCommand}'s {@code changes} lists, without running a step, which stored
         * sessions this node would resume and which it would refuse.
         *
         * @return this builder
         */
        public Builder acceptChangedCode() {
            this.acceptChangedCode = true;
            return this;
        }

        /**
         * Seals every stored row with {@code key}, and accepts rows sealed with {@code key} or
         * with one of {@code earlier}. A row's seal is an HMAC-SHA256 of every column a node
         * trusts from it (id, status, version, build, point, point values, state, output,
         * failure, creation and update times, and what it waits for until when), so that a column changed in the store, a value
         * moved from another session's row, or an older version of the row put back, is refused
         * with {@link SessionRefusedException} naming the session and the column, before a byte
         * of it is read, and the row is left as it was (never marked failed); {@link Sessions#status},
         * {@link Sessions#list()} and {@link Sessions#lastOutput} refuse such a row the same way.
         * The manifest of the row's build is accepted only if it hashes to that build.
         *
         * <p>To rotate keys, give nodes the new key with the old one as {@code earlier}: each step
         * a node runs seals its session anew with the new key; once no stored session is older
         * than the rotation, drop the old key. A node with a key refuses a row with no seal: one
         * written by a node without a key, or by a Weft version before rows were sealed (which
         * sealed the state alone: such rows are refused, not read with that weaker guarantee;
         * nodes of that version can still drain them). A node without a key refuses a sealed row.
         *
         * @param key     the key that seals what this node writes
         * @param earlier keys whose seals this node still accepts
         * @return this builder
         * @throws IllegalArgumentException if a key cannot be used for HMAC-SHA256
         */
        public Builder sealWith(SecretKey key, SecretKey... earlier) {
            if (key == null) {
                throw new NullPointerException("key");
            }
            List<SecretKey> all = new ArrayList<>();
            all.add(key);
            all.addAll(List.of(earlier));
            new RowSeal(all);
            keys.clear();
            keys.addAll(all);
            return this;
        }

        /**
         * The clock that times the sessions' waits: a wait's due time is stored as this clock's
         * instant, and a worker resumes it once this clock has passed it. A session's creation
         * and update times ({@link SessionInfo#created()}, {@link SessionInfo#updated()}, the
         * order of listings) are this clock's instants too. Default:
         * {@link Clock#systemUTC()}. Nodes that share a store should have clocks that agree: a
         * node whose clock is ahead resumes a wait early, one whose clock is behind resumes it
         * late; a clock that jumps moves when waits are resumed, never whether, nor how many
         * times (each wait is consumed by one step, exactly once).
         *
         * @param clock the nodes' clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            if (clock == null) {
                throw new NullPointerException("clock");
            }
            this.clock = clock;
            return this;
        }

        /**
         * How many workers this node runs: threads that claim the sessions whose wait is due, in
         * this node's store and whichever node stored them, and run their next step. Default: 0,
         * none: steps run only when a caller resumes a session, and waits come due only on nodes
         * with workers. {@link Sessions#close()} stops them.
         *
         * @param workers how many sessions this node steps at once for their waits, 0 or more
         * @return this builder
         */
        public Builder workers(int workers) {
            if (workers < 0) {
                throw new IllegalArgumentException("a negative number of workers: " + workers);
            }
            this.workers = workers;
            return this;
        }

        /**
         * How often an idle worker looks in the store for waits come due that it was not told
         * of: stored by another node, or due earlier by a clock that jumped. A wait stored by
         * this node wakes its workers at once, and a worker sleeps no longer than the next due
         * time it knows of. Default: one second.
         *
         * @param interval the longest an idle worker goes without looking, more than zero
         * @return this builder
         */
        public Builder pollEvery(Duration interval) {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("a poll interval must be more than zero: " + interval);
            }
            this.poll = interval;
            return this;
        }

        /**
         * How this node retries a step whose body throws: the step is rolled back and the
         * session is due again after the policy's backoff, with the same input, run by a worker
         * (of any node); once the attempts are spent it is {@link SessionStatus#FAILED}. The
         * caller of the step that threw gets {@link SessionRetryingException} while retries are
         * left. A session's first step (its start) is not retried: nothing is stored to run it
         * from. Default: {@link RetryPolicy#NONE}, a step that throws fails its session.
         *
         * @param policy how many attempts, how long between them, which exceptions
         * @return this builder
         */
        public Builder retry(RetryPolicy policy) {
            if (policy == null) {
                throw new NullPointerException("policy");
            }
            this.retry = policy;
            return this;
        }

        /**
         * The deadline of each session this node starts without one of its own
         * ({@link Sessions#start(String, AsymRunnable, Object, Duration)}): that long after its
         * start, by this node's clock, a worker of any node cancels it if it has not ended, as
         * {@link Sessions#cancel} does (with its children; its failure says that the deadline
         * passed), and a resume is refused from then on. Children
         * ({@link StepContext#startChild}) have none of their own: they end with their parent.
         * Default: none.
         *
         * @param deadline how long a session may run, more than zero; null for none
         * @return this builder
         */
        public Builder deadline(Duration deadline) {
            if (deadline != null && (deadline.isNegative() || deadline.isZero())) {
                throw new IllegalArgumentException("a deadline must be more than zero: " + deadline);
            }
            this.deadline = deadline;
            return this;
        }

        /**
         * Tells {@code observer} of every step this node runs (a caller's, a worker's, a child's),
         * as it begins and after it commits or rolls back: for metrics and traces, through
         * {@code dev.weft.sessions.micrometer.SessionsMeters} or
         * {@code dev.weft.sessions.opentelemetry.SessionsTracing}, or an observer of one's own.
         * Called again, adds another: each is told of each step, in the order they were added.
         * Default: none; a node without observers checks one field per step and allocates nothing
         * for them.
         *
         * @param observer what is told of the steps
         * @return this builder
         */
        public Builder observe(SessionObserver observer) {
            if (observer == null) {
                throw new NullPointerException("observer");
            }
            observers.add(observer);
            return this;
        }

        /**
         * Keeps a history of the steps this node commits, each for {@code retention} after it
         * began: one entry per step of any kind (a start, a resume, a worker's step for a wait or a
         * message, a retry, a cancel, a child's first step or cancel), written by the step's own
         * transaction, so that it is exactly as durable as the step: a step that rolls back
         * leaves none; a failed run whose failure is stored leaves one, with the failure.
         * {@link Sessions#history} reads a session's entries, and so does
         * {@link SessionsCommand}'s {@code history}. On PostgreSQL an entry goes to the server in
         * the statement that stores the step's row (no round trip of its own); on SQLite, right
         * after it, in the same transaction. Entries older than {@code retention} are deleted by
         * the nodes that keep history, a batch of at most 1,000 at a time after one of their
         * commits, in a short transaction of its own, at most once a minute per node (or once a
         * tenth of the retention, if that is shorter; at once again while a batch was full, by
         * this node's {@linkplain #clock clock}); {@link Sessions#remove} deletes a session's
         * entries with it.
         * Default: off (null): a step neither writes nor reads the history table.
         *
         * @param retention how long entries are kept, more than zero; null for no history
         * @return this builder
         * @throws IllegalArgumentException if {@code retention} is zero, negative, or too long to
         *         count in milliseconds
         */
        public Builder keepHistory(Duration retention) {
            if (retention != null && (retention.isNegative() || retention.isZero())) {
                throw new IllegalArgumentException("a history's retention must be more than zero: " + retention);
            }
            if (retention != null) {
                try {
                    retention.toMillis();
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException("a history's retention too long to count in milliseconds: "
                            + retention, e);
                }
            }
            this.historyRetention = retention;
            return this;
        }

        /**
         * The name this node gives itself in the entries of its step history
         * ({@link #keepHistory}, {@link SessionHistoryEntry#node()}). Default: its host's name
         * and process id, {@code HOST:PID}.
         *
         * @param name 1 to 200 characters
         * @return this builder
         * @throws IllegalArgumentException if the name is empty or longer than 200 characters
         */
        public Builder nodeName(String name) {
            if (name == null) {
                throw new NullPointerException("name");
            }
            if (name.isEmpty() || name.length() > HistoryTable.MAX_NODE) {
                throw new IllegalArgumentException("a node's name has 1 to " + HistoryTable.MAX_NODE
                        + " characters: " + name.length());
            }
            this.nodeName = name;
            return this;
        }

        /**
         * The sessions, on this builder's settings; with {@linkplain #workers workers}, they
         * start.
         *
         * @return the sessions
         */
        public Sessions build() {
            ClassLoader chosen = loader;
            if (chosen == null) {
                chosen = Thread.currentThread().getContextClassLoader();
            }
            if (chosen == null) {
                chosen = ClassLoader.getSystemClassLoader();
            }
            Sessions sessions = new Sessions(this, chosen, engine == null ? Engine.defaultEngine() : engine);
            if (sessions.observations != null) {
                sessions.observations.observing(sessions);
            }
            sessions.steps.startWorkers();
            return sessions;
        }
    }

    private final Engine engine;
    private final Clock clock;
    private final SessionStore store;
    /** Sends this node's messages. */
    private final Messages messages;
    /** Reads the stored sessions for listings. */
    private final SessionListing listing;
    /** Runs the steps. */
    private final Steps steps;
    /** The deadline of a session started without one; null for none. */
    private final Duration deadline;
    /** Tells this node's observers of its steps; null with none. */
    private final StepObservations observations;

    private Sessions(Builder builder, ClassLoader loader, Engine engine) {
        this.engine = engine;
        this.clock = builder.clock;
        this.deadline = builder.deadline;
        this.observations = builder.observers.isEmpty() ? null
                : new StepObservations(List.copyOf(builder.observers), clock, engine);
        StateCodec codec = new StateCodec(loader);
        RowSeal seal = new RowSeal(List.copyOf(builder.keys));
        RowReader rows = new RowReader(seal, new Builds(loader, builder.acceptChangedCode),
                Map.copyOf(builder.upgrades), codec, engine);
        this.messages = new Messages(builder.store, seal, codec, clock, observations);
        this.listing = new SessionListing(builder.store, rows);
        this.steps = new Steps(builder, rows, codec, messages, engine, observations);
        this.store = builder.store;
    }

    /**
     * Sessions in {@code store}, to be set up and {@link Builder#build() built}.
     *
     * @param store where the sessions are kept
     * @return a builder with the default settings
     */
    public static Builder builder(SessionStore store) {
        return new Builder(store);
    }

    // ---------------------------------------------------------------- steps

    /**
     * Starts a session running {@code body} on this node's {@linkplain Builder#engine engine}: runs it to its first
     * {@code ret} with {@code first} as its input, and stores it under a new id.
     *
     * <p>The body is stored with the session's frames, by Java serialization: its class must
     * implement {@link java.io.Serializable}, and so must everything its fields hold (or the
     * fields be {@code transient}). A body that cannot be stored as it is given is refused before
     * it runs; a lambda or method reference is stored as what it captured, which is checked when
     * its first step is stored.
     *
     * @param <I>   the body's input type
     * @param <O>   its output type
     * @param body  the session's code
     * @param first the first input
     * @return the first step: the new id, version 1 and what the body passed to its first {@code ret}
     * @throws SessionFailedException if the body threw (the failure is stored under the new id)
     * @throws SessionException       if its state could not be stored (nothing is stored)
     * @throws SessionStoreUnavailableException if the store cannot be reached, or the connection
     *                                was lost before the start's {@code COMMIT} was sent (nothing
     *                                is stored: try again)
     * @throws SessionOutcomeUnknownException if the connection was lost after the {@code COMMIT}
     *                                was sent: the session may be stored, under the id it carries
     * @throws IllegalArgumentException naming the body's class, if the body is not
     *                                {@code Serializable} or holds something that is not, or if
     *                                this node's engine is the woven one and the body is not woven
     *                                (nothing runs or is stored)
     */
    public <I, O> SessionStep<O> start(AsymRunnable<? super I, ? extends O> body, I first) {
        StorableBodies.check(body);
        return started(newId(), new AsymCoroutine<I, O>(body, engine), first, deadline);
    }

    /**
     * Starts a session from {@code coroutine}, which must be new and belong to this thread: as
     * {@link #start(AsymRunnable, Object)}.
     *
     * @param <I>       the coroutine's input type
     * @param <O>       its output type
     * @param coroutine a new coroutine of this thread
     * @param first     the first input
     * @return the first step
     */
    public <I, O> SessionStep<O> start(AsymCoroutine<I, O> coroutine, I first) {
        return started(newId(), coroutine, first, deadline);
    }

    /**
     * Starts a session under an id the caller chose (at most 64 characters), exactly once: as
     * {@link #start(AsymRunnable, Object)}, but if a session with that id exists already (a
     * resent start whose reply was lost, say), nothing runs.
     *
     * @param <I>   the body's input type
     * @param <O>   its output type
     * @param id    the session's id
     * @param body  the session's code
     * @param first the first input
     * @return the first step
     * @throws SessionConflictException if the store holds a session with that id
     */
    public <I, O> SessionStep<O> start(String id, AsymRunnable<? super I, ? extends O> body, I first) {
        if (id == null) {
            throw new IllegalArgumentException("a session id has 1 to 64 characters: " + id);
        }
        return start(id, body, first, deadline);
    }

    /**
     * Starts a session as {@link #start(String, AsymRunnable, Object)}, with a deadline of its
     * own: {@code deadline} after its start, by this node's clock, a worker of any node cancels
     * it if it has not ended, as {@link #cancel} does (with its children), its failure saying
     * that the deadline passed; from then on a resume or a retry of it is refused and runs
     * nothing. Deadlines need workers: on a store where no node has any, nothing cancels it.
     *
     * @param <I>      the body's input type
     * @param <O>      its output type
     * @param id       the session's id, or null for a new one
     * @param body     the session's code
     * @param first    the first input
     * @param deadline how long it may run, more than zero; null for none (not even this node's
     *                 default, {@link Builder#deadline})
     * @return the first step
     * @throws IllegalArgumentException if the deadline is zero or negative (nothing runs or is
     *                                  stored), or as {@link #start(String, AsymRunnable, Object)}
     */
    public <I, O> SessionStep<O> start(String id, AsymRunnable<? super I, ? extends O> body, I first,
            Duration deadline) {
        String chosen = id == null ? newId() : id;
        if (chosen.isEmpty() || chosen.length() > 64) {
            throw new IllegalArgumentException("a session id has 1 to 64 characters: " + id);
        }
        if (deadline != null) {
            Deadlines.after(clock, deadline, chosen);
        }
        StorableBodies.check(body);
        return started(chosen, new AsymCoroutine<I, O>(body, engine), first, deadline);
    }

    /** The first step of session {@code id}, observed if this node has observers. */
    private <I, O> SessionStep<O> started(String id, AsymCoroutine<I, O> coroutine, I first, Duration deadline) {
        return observations == null ? steps.start(id, coroutine, first, deadline)
                : observations.observe(SessionObserver.StepKind.START, id,
                        () -> steps.start(id, coroutine, first, deadline));
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }

    /**
     * Resumes session {@code id} with {@code input}, whatever step it is at: runs it to its next
     * {@code ret} or its end, and stores it (or deletes it, if it finished).
     *
     * @param <I>   the session's input type
     * @param <O>   its output type
     * @param id    the session
     * @param input the answer to its last step
     * @return the step: its version and the body's next output, or its result if it finished
     * @throws SessionNotFoundException  if there is no such session
     * @throws SessionBusyException      if another step of it is running (see {@link Builder#waitWhenBusy})
     * @throws SessionRefusedException   if this node's code cannot resume it (it is left untouched)
     * @throws SessionFailedException    if its body threw, now or before
     * @throws SessionConflictException  if it has finished (kept with {@link Builder#keepFinished})
     * @throws SessionStoreUnavailableException if the store cannot be reached, or the connection
     *                                   was lost before the step's {@code COMMIT} was sent (it
     *                                   stays as it was: try again)
     * @throws SessionOutcomeUnknownException if the connection was lost after the step's
     *                                   {@code COMMIT} was sent: the step may be stored, and
     *                                   {@link #resume(String, long, Object)} with
     *                                   {@link SessionOutcomeUnknownException#versionBefore()}
     *                                   resends it safely
     * @throws SessionException          if its new state could not be stored (it stays as it was)
     */
    public <I, O> SessionStep<O> resume(String id, I input) {
        return resumed(id, -1, input);
    }

    /**
     * Resumes session {@code id} with {@code input} as the answer to the step that left it at
     * {@code expectedVersion} ({@link SessionStep#version()}), and only then; otherwise as
     * {@link #resume(String, Object)}.
     *
     * @param <I>             the session's input type
     * @param <O>             its output type
     * @param id              the session
     * @param expectedVersion the version the step being answered showed
     * @param input           the answer
     * @return the step
     * @throws SessionConflictException if the session is at another version or has finished:
     *                                  that answer was taken already, or another one was
     * @throws IllegalArgumentException if {@code expectedVersion} is less than 1
     */
    public <I, O> SessionStep<O> resume(String id, long expectedVersion, I input) {
        if (expectedVersion < 1) {
            throw new IllegalArgumentException("session " + id + ": versions start at 1 (the start), not "
                    + expectedVersion);
        }
        return resumed(id, expectedVersion, input);
    }

    /** A step of session {@code id} with a caller's input, observed if this node has observers. */
    private <I, O> SessionStep<O> resumed(String id, long expectedVersion, I input) {
        return observations == null ? steps.step(id, expectedVersion, input)
                : observations.observe(SessionObserver.StepKind.RESUME, id, () -> steps.step(id, expectedVersion,
                        input));
    }

    /**
     * Sends {@code message} to session {@code id}: it is stored in the session's inbox, in a
     * transaction of its own, committed when this returns. It never waits for a step of the
     * session that is running, nor fails because one is. The session takes its messages in the
     * order they were sent, one per step, in steps that wait for one
     * ({@link StepContext#awaitMessage()}), run by a node's workers; each is consumed exactly
     * once, by the step that commits with it. A session's unconsumed messages are deleted when
     * it ends; a failed session keeps them.
     *
     * @param id      the session
     * @param message the message: Serializable, of the type the session's {@code ret} takes
     * @throws SessionNotFoundException if there is no such session (nothing is stored)
     * @throws SessionException         if it has finished (nothing is stored), or the message could
     *                                  not be stored
     * @throws SessionStoreUnavailableException if the store cannot be reached (nothing is stored:
     *                                  try again)
     * @throws IllegalArgumentException if the message is not Serializable, or holds something that
     *                                  is not (nothing is stored)
     */
    public void send(String id, Object message) {
        messages.send(id, message);
        steps.sent(id);
    }

    /**
     * Sends {@code message} to session {@code id} in the caller's own transaction on
     * {@code connection}, a connection to this store's database: the message is stored if and
     * when the caller commits, with the caller's own writes, exactly once. As
     * {@link #send(String, Object)}; the caller commits or rolls back. On PostgreSQL the workers
     * of every node hear of it when the caller commits; on SQLite, within their
     * {@linkplain Builder#pollEvery poll interval}.
     *
     * @param connection the caller's connection, in its transaction
     * @param id         the session
     * @param message    the message
     * @throws SessionNotFoundException if there is no such session
     * @throws SessionException         if it has finished, or the statement failed (the caller's
     *                                  transaction is then the caller's to roll back)
     */
    public void send(Connection connection, String id, Object message) {
        messages.send(connection, id, message);
    }

    /**
     * Runs the failed step of session {@code id} again, from the suspension it started from,
     * with the input it had (or timed out again, if a wait's coming due ran it): as
     * {@link #resume(String, Object)}, for a {@link SessionStatus#FAILED} session. If it throws
     * again, this node's {@linkplain Builder#retry retry policy} applies, from its first attempt.
     *
     * @param <O> the session's output type
     * @param id  the failed session
     * @return the step: the failed step's number and the body's next output, or its result if it
     *         finished
     * @throws SessionNotFoundException  if there is no such session
     * @throws SessionException          if it is not failed, or has no frames or input to run the
     *                                   step with (it failed in its first step, or its input could
     *                                   not be stored): nothing runs
     * @throws SessionFailedException    if the step threw again (stored as failed)
     * @throws SessionRetryingException  if the step threw again and will be retried
     * @throws SessionRefusedException   if this node's code cannot resume it (it is left untouched)
     */
    public <O> SessionStep<O> retry(String id) {
        return observations == null ? steps.retry(id)
                : observations.observe(SessionObserver.StepKind.RETRY, id, () -> steps.retry(id));
    }

    /**
     * Cancels session {@code id}: closes its coroutine in a step of its own, so that its
     * {@code finally} blocks run (thesis 4.2.8's close; a suspension point throws
     * {@link dev.weft.CoroutineExitException} into the body), their writes through
     * {@link StepContext#connection()} committing with the end; the session is then
     * {@link SessionStatus#CANCELLED}, its row kept (without frames) until {@link #remove}, its
     * messages deleted. If a {@code finally} block throws, its writes roll back and what it threw
     * is stored as the session's failure; it is cancelled all the same. A failed session is
     * closed the same way if it kept its frames. Waits for (or refuses, see
     * {@link Builder#waitWhenBusy}) a step of it that is running.
     *
     * @param id the session
     * @throws SessionNotFoundException if there is no such session
     * @throws SessionException         if it has finished or was cancelled already (nothing runs)
     * @throws SessionRefusedException  if this node's code cannot close it (it is left untouched)
     * @throws SessionBusyException     if a step of it is running
     */
    public void cancel(String id) {
        if (observations == null) {
            steps.cancel(id);
            return;
        }
        observations.observe(SessionObserver.StepKind.CANCEL, id, () -> {
            steps.cancel(id);
            return null;
        });
    }

    /**
     * Stops this node's workers, if it has any: they claim no more sessions, and the steps they
     * are running end (commit, or roll back if their body or store fails) before this returns.
     * If the calling thread is interrupted meanwhile, the workers are interrupted too, and a step
     * that then fails rolls back: its session stays due, for another node's workers or this
     * node's after a restart. Starting and resuming sessions still work after it. Idempotent.
     */
    @Override
    public void close() {
        steps.close();
    }

    /** One step a worker would run ({@link Steps#runDue}), run by the caller: tests drive workers' steps so. */
    String runDue(Collection<String> skipped) {
        return steps.runDue(skipped);
    }

    /** The step a worker runs for a session sent a message ({@link Steps#runSent}), run by the caller. */
    boolean runSent(String id) {
        return steps.runSent(id);
    }

    // ---------------------------------------------------------------- reading and removing

    /**
     * How many sessions are due now, by this node's clock, and not yet run: those whose wait's
     * time has passed (a sleep, a deadline for an input or a message, a retry's backoff), whose
     * deadline has passed, or that wait for a message and have one. A worker of any node runs
     * each of them; a number that grows says the workers do not keep up. One count, read from
     * the store without a lock, by the indexes the workers claim by.
     *
     * @return how many sessions are due
     * @throws SessionStoreUnavailableException if the store cannot be reached
     */
    public long countDue() {
        try {
            return store.countDue(clock.millis());
        } catch (java.sql.SQLException e) {
            throw StoreFailures.ofStore(store, "cannot count the due sessions", e);
        }
    }

    /**
     * What the store says about session {@code id}, or empty if there is none.
     *
     * @param id the session
     * @return its status, or empty
     * @throws SessionRefusedException naming the column, if its stored row is not to be trusted
     *         (see {@link Builder#sealWith}); the row is left as it was
     */
    public Optional<SessionInfo> status(String id) {
        return listing.status(id);
    }

    /**
     * The output of session {@code id}'s last step, as stored: what a page shows again when the
     * visitor reloads it. Empty if there is no such session, or the output was null or not
     * serializable.
     *
     * @param id the session
     * @return the output of its last stored step, or empty
     * @throws SessionRefusedException naming the column, if its stored row is not to be trusted
     */
    public Optional<Object> lastOutput(String id) {
        return listing.lastOutput(id);
    }

    /**
     * Every stored session, oldest first (by creation time, then id). For a store of many
     * sessions, page through them with {@link #list(SessionQuery)}.
     *
     * @return the stored sessions
     * @throws SessionRefusedException naming the first session whose row is not to be trusted, and
     *         the column ({@link #refusal(String)} and {@link SessionsCommand} list each row's verdict)
     */
    public List<SessionInfo> list() {
        return listing.all();
    }

    /**
     * A page of the stored sessions that {@code query} finds, oldest first: those that pass its
     * filters after its position, at most its limit; {@link SessionPage#next()} is where the
     * next page starts. Each page is read by an index, whatever the store's size: see
     * {@link SessionQuery}.
     *
     * @param query the filters, page size and position
     * @return the page
     * @throws SessionRefusedException naming the first session of the page whose row is not to be
     *         trusted, and the column (the filters are compared with the rows as stored; the rows
     *         the store returns are then checked as {@link #list()} checks them)
     */
    public SessionPage list(SessionQuery query) {
        return listing.page(query);
    }

    /**
     * Why this node would refuse to resume session {@code id}: its stored row is not to be trusted
     * (a column out of range, or with a key, a seal that does not match: the reason names the
     * column), or its build differs and no upgrade applies, or (for a node that
     * {@linkplain Builder#acceptChangedCode() accepts changed code}) a frame does not fit this
     * node's code: its frames are then read and matched as a resume would, and the reason names
     * the frame; empty if this node can resume it, or if it has ended or does not exist.
     *
     * @param id the session
     * @return why this node refuses it, or empty if it takes it (or there is no such session)
     */
    public Optional<String> refusal(String id) {
        return listing.refusal(id);
    }

    /**
     * Session {@code id}'s stored frames as an operator reads them: each frame's place in the
     * source and its variables' values as text, read as a resume reads them (the seal, the
     * stream's filter and limits, each method's code checked) and never run; see
     * {@link SessionStack}. A row that is not to be trusted, an ended session and frames this
     * node's code cannot read give no frames and say why.
     *
     * @param id the session
     * @return its frames, or empty if there is no such session
     * @throws SessionStoreUnavailableException if the store cannot be reached
     */
    public Optional<SessionStack> stack(String id) {
        return listing.stack(id);
    }

    /** The stored sessions as this node reads them, with its verdicts ({@link SessionsCommand}). */
    SessionListing listing() {
        return listing;
    }

    /**
     * The stored sessions by build, most first, each with this node's verdict: the reason it
     * refuses that build's sessions, or null if it can resume them (an upgrade that applies to a
     * session is not counted here: see {@link #refusal(String)}).
     *
     * @return one summary per build
     */
    public List<BuildSummary> builds() {
        return listing.builds();
    }

    /**
     * What the nodes accepted of other builds' code: each build whose sessions a node took on its
     * changed code ({@link Builder#acceptChangedCode()}), the node, and when it first did.
     *
     * @return the builds accepted, the earliest first
     * @throws SessionStoreUnavailableException if the store cannot be reached
     */
    public List<AcceptedBuild> acceptedBuilds() {
        return steps.acceptedBuilds();
    }

    /**
     * Moves suspended session {@code id}, stored by a build whose code has changed here, onto
     * this node's code without running a step: its frames are read and matched to the new code
     * as a resume would match them ({@link Builder#acceptChangedCode()}), and stored again, as
     * this node's build; its version, point, inputs, waits and messages stay as they were, and
     * the move is recorded ({@link #acceptedBuilds()}). So the sessions of an old build can be
     * moved before the nodes that ran it are stopped, and each refusal is known before a step
     * meets it ({@link SessionsCommand}'s {@code changes --move}). Waits for (or refuses, see
     * {@link Builder#waitWhenBusy}) a step of it that is running.
     *
     * @param id      the session
     * @param version the version it is expected to be at
     * @return true if it was moved; false if its frames are of this node's code already, or only
     *         an {@linkplain Builder#upgrade upgrade} can move it (at its next step)
     * @throws IllegalStateException     if this node does not accept changed code
     * @throws SessionNotFoundException  if there is no such session
     * @throws SessionConflictException  if it is not at {@code version}, or not suspended
     * @throws SessionRefusedException   if its frames do not fit this node's code (it is left untouched)
     * @throws SessionBusyException      if a step of it is running
     */
    public boolean moveToThisBuild(String id, long version) {
        return steps.move(id, version);
    }

    /**
     * Removes session {@code id}, whatever its status, and its step history
     * ({@link Builder#keepHistory}), whichever node wrote it (also when there is no session: one
     * that finished and was deleted leaves its history); waits for (or, see
     * {@link Builder#waitWhenBusy}, refuses during) a step of it that is running.
     *
     * @param id the session
     * @return whether there was such a session
     * @throws SessionBusyException if a step of it is running
     */
    public boolean remove(String id) {
        return steps.remove(id);
    }

    /**
     * The step history of session {@code id} ({@link Builder#keepHistory}), in the order the
     * steps committed: the entries written by nodes that keep history and not yet pruned or
     * removed, whether or not this node keeps history, and whether or not the session still
     * exists (a finished session's entries outlive its row). Not sealed: what an entry holds is
     * shown as the store holds it.
     *
     * @param id the session
     * @return its entries, oldest first; empty if it has none
     * @throws SessionStoreUnavailableException if the store cannot be reached
     */
    public List<SessionHistoryEntry> history(String id) {
        return steps.history(id);
    }
}
