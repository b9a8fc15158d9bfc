package dev.weft.sessions;

import dev.weft.Engine;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One committed step of a session, as its step history holds it ({@link Sessions.Builder#keepHistory},
 * {@link Sessions#history}): which version it left the session at, when and where it ran, for how
 * long, and what it left: the session's status, what it waits for next, and the failure it
 * stored, if any. The entries are not sealed: each field is as the store holds it, and a text
 * that names no status or engine is shown as null. Immutable; any thread.
 *
 * <p>What the steps leave, in the status and wait vocabulary of {@link SessionInfo}:
 * <pre>
 * SUSPENDED, waiting null        // ran to its next ret; waits for a plain input
 * SUSPENDED, waiting SLEEP/...   // ran to its next ret; waits for a time, an input until a deadline, a message
 * SUSPENDED, waiting RETRY, failure set  // its body threw; a worker runs the step again (nothing else stored)
 * FINISHED                       // its body returned (the session's row may be deleted)
 * FAILED, failure set            // its body threw, no retry left
 * CANCELLED                      // closed by a cancel or a passed deadline; failure: the deadline,
 *                                //   or what its finally blocks threw
 * </pre>
 *
 * @param sessionId the session
 * @param version   the session's version once the step was stored: one more than before, or the
 *                  same for a run that failed and is to be retried (only its failure was stored)
 * @param started   when the step began (its transaction's start), by the clock of the node that
 *                  ran it ({@link Sessions.Builder#clock})
 * @param duration  how long it ran, from its start to its row written, its commit aside (measured
 *                  by that node's {@link System#nanoTime()})
 * @param node      the node that ran it ({@link Sessions.Builder#nodeName})
 * @param engine    the engine its body ran on; null if no code ran (a cancel of a session with no
 *                  frames) or the stored name is none
 * @param status    the session's status after it; null if the stored name is none
 * @param waiting   what the session waits for after it, and until when; null for a plain input,
 *                  or a session not {@link SessionStatus#SUSPENDED}
 * @param failure   the failure it stored (a stack trace, or why it was cancelled); null for none
 */
public record SessionHistoryEntry(String sessionId, long version, Instant started, Duration duration, String node,
        Engine engine, SessionStatus status, SessionInfo.Waiting waiting, String failure) {

    /** The entry {@code stored} holds, read leniently: a name that is none is null, as is a wait it cannot show. */
    static SessionHistoryEntry of(HistoryTable.Entry stored) {
        return new SessionHistoryEntry(stored.sessionId(), stored.version(), Instant.ofEpochMilli(stored.startedAt()),
                Duration.of(Math.max(0, stored.durationMicros()), ChronoUnit.MICROS), stored.node(),
                named(Engine.class, stored.engine()), named(SessionStatus.class, stored.status()), waiting(stored),
                stored.failure());
    }

    private static SessionInfo.Waiting waiting(HistoryTable.Entry stored) {
        SessionInfo.WaitKind kind = named(SessionInfo.WaitKind.class, stored.waitKind());
        if (kind == null || stored.dueAt() == null && kind != SessionInfo.WaitKind.MESSAGE) {
            return null;
        }
        return new SessionInfo.Waiting(kind, stored.dueAt() == null ? null : Instant.ofEpochMilli(stored.dueAt()));
    }

    /** The constant of {@code type} named {@code name}, or null if it names none. */
    private static <E extends Enum<E>> E named(Class<E> type, String name) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(name)) {
                return constant;
            }
        }
        return null;
    }
}
