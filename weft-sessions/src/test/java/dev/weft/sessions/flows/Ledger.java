package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A workflow of {@code steps} steps (the last one returns), each of which writes one row to the table {@code ledger}
 * through the step's transaction: the row commits with the step, exactly once. A quiet ledger
 * ({@link #quiet}) writes nothing and never takes the step's connection; it still answers each
 * step with the count it keeps in its frame, so that a step stored twice or lost shows as an
 * answer that does not match the session's version. Input
 * {@code "boom"} throws; input {@code "commit"} tries to commit the step's transaction; input {@code "hold"} keeps something unserializable across the next
 * {@code ret}, so that the step's state cannot be stored; input {@code "gate"} waits at
 * {@link Gate} first.
 */
public final class Ledger implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final int steps;
    private final boolean writes;

    public Ledger(int steps) {
        this(steps, true);
    }

    private Ledger(int steps, boolean writes) {
        this.steps = steps;
        this.writes = writes;
    }

    /** A ledger of {@code steps} steps that writes no rows. */
    public static Ledger quiet(int steps) {
        return new Ledger(steps, false);
    }

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        String input = first;
        for (int step = 1;; step++) {
            if (writes) {
                write(step, input);
            }
            if ("boom".equals(input)) {
                throw new IllegalStateException("the body refused input boom at step " + step);
            }
            if ("commit".equals(input)) {
                commit();
            }
            if ("gate".equals(input)) {
                Gate.pass();
            }
            if (step == steps) {
                return "done after " + steps;
            }
            if ("hold".equals(input)) {
                Object unserializable = new Object();
                input = self.ret("holding");
                input = unserializable != null ? input : null; // keeps it live across the ret
            } else {
                input = self.ret("after step " + step);
            }
        }
    }

    /** Tries to commit the step's transaction itself, which a step may not do. */
    private static void commit() {
        try {
            StepContext.current().connection().commit();
        } catch (SQLException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }

    /** The step's row in the ledger, written in the step's transaction. */
    /**
     * Writes {@code input} as step {@code step}'s row of the table {@code ledger}, through the
     * running step's transaction: the row commits with the step, or not at all. For every test
     * body that keeps a ledger.
     */
    public static void write(long step, String input) {
        StepContext context = StepContext.current();
        try (PreparedStatement insert = context.connection().prepareStatement(
                "INSERT INTO ledger (session, step, input) VALUES (?, ?, ?)")) {
            insert.setString(1, context.sessionId());
            insert.setLong(2, step);
            insert.setString(3, input);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new UncheckedIOException(new IOException("cannot write the ledger: " + e, e));
        }
    }
}
