package dev.weft.sessions;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
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

    StepContext(String sessionId, long step, Connection connection, SessionStore store) {
        this.sessionId = sessionId;
        this.step = step;
        this.raw = connection;
        this.store = store;
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
                store.savepoint(raw);
            } catch (SQLException e) {
                throw new IllegalStateException("session " + sessionId + ": cannot mark where step " + step
                        + "'s own writes begin: " + e, e);
            }
            savepoint = true;
            connection = guarded(raw, sessionId);
        }
        return connection;
    }

    /** Whether the body took the step's connection: only then may the transaction hold writes of its own. */
    boolean tookConnection() {
        return savepoint;
    }

    /** Undoes the body's own writes, if it made any. */
    void rollBackWrites() throws SQLException {
        if (savepoint) {
            store.rollbackToSavepoint(raw);
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

    /** The values of {@link #point()}, serialized when it was named; null if none was. */
    byte[] pointValues() {
        return pointValues;
    }

    /** Makes this the current step; returns the one it replaces, for {@link #restore}. */
    StepContext enter() {
        StepContext previous = CURRENT.get();
        CURRENT.set(this);
        return previous;
    }

    /** Makes {@code previous} the current step again. */
    static void restore(StepContext previous) {
        CURRENT.set(previous);
    }
}
