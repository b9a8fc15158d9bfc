package dev.weft.sessions;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import dev.weft.sessions.SessionStore.Row;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;

/**
 * One step of a session's body, run in the step's transaction ({@link #run}): the body's output
 * on the way out, and what to store. Confined to the thread running the step.
 */
final class StepRun<O> {
    final O output;
    final boolean finished;
    final String failure;
    final Throwable thrown;
    final Builds.Manifest manifest;
    final byte[] state;
    final String point;
    final byte[] pointValues;
    /** Whether the body took the step's connection (and so may have written through it). */
    final boolean bodyWrote;
    /** The engine the step ran on. */
    final Engine engine;
    /** What the suspended session waits for; null for a plain input. */
    SessionWait wait;

    StepRun(O output, boolean finished, String failure, Throwable thrown, Builds.Manifest manifest,
            byte[] state, String point, byte[] pointValues, boolean bodyWrote, Engine engine) {
        this.output = output;
        this.finished = finished;
        this.failure = failure;
        this.thrown = thrown;
        this.manifest = manifest;
        this.state = state;
        this.point = point;
        this.pointValues = pointValues;
        this.bodyWrote = bodyWrote;
        this.engine = engine;
    }

    /** The row to store after step {@code step}, not yet sealed; null to delete it. */
    Row row(String id, long step, long created, long now, boolean keepFinished) {
        if (failure != null) {
            return new Row(id, SessionStatus.FAILED, step, null, null, null, null, null, null, failure, created,
                    now);
        }
        if (finished) {
            return keepFinished ? new Row(id, SessionStatus.FINISHED, step, null, null, null, null, null,
                    StateCodec.value(output), null, created, now) : null;
        }
        return new Row(id, SessionStatus.SUSPENDED, step, manifest.build(), manifest.text(), point,
                pointValues, state, StateCodec.value(output), null, created, now).withWait(wait);
    }

    /** What the step returns to its caller, once stored. */
    SessionStep<O> reply(String id, long step) {
        if (failure != null) {
            throw new SessionFailedException(id, step, failure, thrown);
        }
        return new SessionStep<>(id, step, finished, output);
    }


    /**
     * Runs one step of {@code coroutine} in {@code connection}'s transaction; the body's own
     * writes, if it takes the connection, begin at a savepoint; it starts and cancels children
     * through {@code children}; {@code attempt} is the run's number ({@link StepContext#attempt}).
     */
    static <I, O> StepRun<O> run(Connection connection, SessionStore store, StateCodec codec, Clock clock, String id,
            long step, int attempt, AsymCoroutine<I, O> coroutine, I input, boolean timedOut, Children children)
            throws SQLException {
        StepContext context = new StepContext(id, step, attempt, connection, store, clock, timedOut, children);
        StepContext previous = context.enter();
        Engine engine = coroutine.engine();
        O output;
        try {
            output = coroutine.call(input);
        } catch (RuntimeException | Error e) {
            StepContext.restore(previous);
            context.rollBackWrites();
            return new StepRun<>(null, true, stackTrace(e), e, null, null, null, null, context.tookConnection(),
                    engine);
        }
        StepContext.restore(previous);
        if (coroutine.isFinished()) {
            return new StepRun<>(output, true, null, null, null, null, null, null, context.tookConnection(), engine);
        }
        StateCodec.Written written;
        try {
            written = codec.write(coroutine);
        } catch (IOException | RuntimeException e) {
            throw new SessionException(id, "step " + step + " ran but its state cannot be stored, so it is not"
                    + " (the session stays at its last stored version): " + e, e);
        }
        StepRun<O> result = new StepRun<>(output, false, null, null, written.manifest(), written.state(),
                context.point(), context.pointValues(), context.tookConnection(), engine);
        result.wait = context.waitingFor();
        if (result.wait != null) {
            store.notifyDue(connection);
        }
        return result;
    }

    /**
     * What closing a session's coroutine left: what its {@code finally} blocks threw (its stack
     * trace, their writes rolled back), or null; whether they took the step's connection; the
     * engine they ran on (null if no code ran).
     */
    record Closing(String failure, boolean bodyWrote, Engine engine) {
        /** A session with no frames to close. */
        static final Closing NOTHING = new Closing(null, false, null);
    }

    /**
     * Closes {@code coroutine}, the frames of session {@code id}, as step {@code step}: its
     * {@code finally} blocks run with the step's context, so that their writes through
     * {@link StepContext#connection()} join the step's transaction.
     */
    static Closing close(Connection connection, SessionStore store, Clock clock, String id, long step,
            AsymCoroutine<?, ?> coroutine) throws SQLException {
        StepContext context = new StepContext(id, step, 1, connection, store, clock, false, null);
        StepContext previous = context.enter();
        Engine engine = coroutine.engine();
        try {
            coroutine.close();
            return new Closing(null, context.tookConnection(), engine);
        } catch (RuntimeException | Error e) {
            context.rollBackWrites();
            return new Closing(stackTrace(e), context.tookConnection(), engine);
        } finally {
            StepContext.restore(previous);
        }
    }

    private static String stackTrace(Throwable e) {
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
