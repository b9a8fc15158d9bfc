package dev.weft.sessions.flows;

import dev.weft.sessions.StepContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Writes a row to the table {@code ledger} in the running step's transaction: its session, step and a text. */
final class LedgerRows {

    private LedgerRows() {
    }

    /** {@code text}, cut to the column's 100 characters, as the running step's row. */
    static void write(String text) {
        StepContext context = StepContext.current();
        try (PreparedStatement insert = context.connection().prepareStatement(
                "INSERT INTO ledger (session, step, input) VALUES (?, ?, ?)")) {
            insert.setString(1, context.sessionId());
            insert.setLong(2, context.step());
            insert.setString(3, text.length() <= 100 ? text : text.substring(0, 100));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new UncheckedIOException(new IOException("cannot write the ledger: " + e, e));
        }
    }
}
