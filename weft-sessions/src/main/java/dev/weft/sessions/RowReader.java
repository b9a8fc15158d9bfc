package dev.weft.sessions;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.sessions.SessionStore.Row;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a node makes of a stored row, before and after it trusts it: why not (the column that is
 * out of range or differs from its seal), what the store says about the session, why this node's
 * code refuses it, and the coroutine that runs its next step. Also seals the rows this node
 * writes. Stateless but for its settings; any thread.
 */
final class RowReader {

    /** What {@link SessionsCommand}'s {@code changes} says a suspended session's next step would do here. */
    static final String SAME_CODE = "resumes: same code";
    static final String CHANGED_CODE = "resumes: changed code, every frame fits";
    static final String BY_UPGRADE = "resumes: upgrade at point ";
    static final String REFUSED = "refused: ";

    private final RowSeal rowSeal;
    private final Builds builds;
    private final Map<String, Sessions.Upgrade> upgrades;
    private final StateCodec codec;
    private final Engine engine;

    RowReader(RowSeal rowSeal, Builds builds, Map<String, Sessions.Upgrade> upgrades, StateCodec codec,
            Engine engine) {
        this.rowSeal = rowSeal;
        this.builds = builds;
        this.upgrades = upgrades;
        this.codec = codec;
        this.engine = engine;
    }

    /** The conflict of a step that expected {@code expectedVersion} with {@code row}, its output if the row is trusted. */
    SessionConflictException conflict(Row row, long expectedVersion) {
        return new SessionConflictException(row.id(), expectedVersion, row.version(), row.status(),
                distrust(row) == null ? readQuietly(row.output()) : null);
    }

    /** The stored session as a coroutine ready to run its next step, or why not. */
    <I, O> AsymCoroutine<I, O> restore(Row row, long expectedVersion) {
        String id = row.id();
        String distrust = distrust(row);
        if (distrust != null) {
            throw new SessionRefusedException(id, row.build(), distrust, null);
        }
        if (row.status() == SessionStatus.FAILED) {
            throw new SessionFailedException(id, row.version(), row.failure(), null);
        }
        if (row.status() == SessionStatus.FINISHED || row.status() == SessionStatus.CANCELLED
                || expectedVersion >= 0 && expectedVersion != row.version()) {
            throw conflict(row, expectedVersion);
        }
        return coroutineOf(row);
    }

    /**
     * The frames of {@code row}, trusted, as a coroutine: those of a failed session, to run its
     * failed step again ({@link Sessions#retry}) or to close it ({@link Sessions#cancel}).
     *
     * @throws SessionException if it has no frames (failed in its first step, or stored before
     *         failed sessions kept theirs), naming what is to be done
     */
    <I, O> AsymCoroutine<I, O> restoreStored(Row row, String what) {
        String distrust = distrust(row);
        if (distrust != null) {
            throw new SessionRefusedException(row.id(), row.build(), distrust, null);
        }
        if (row.state() == null) {
            throw new SessionException(row.id(), "it has no frames to " + what + ": it failed in its first step, or"
                    + " was stored before failed sessions kept their frames", null);
        }
        return coroutineOf(row);
    }

    /** The coroutine of a trusted row's frames, on this node's code, or an upgrade's; or why not. */
    private <I, O> AsymCoroutine<I, O> coroutineOf(Row row) {
        String id = row.id();
        Builds.Verdict verdict = builds.verdict(row.build(), row.manifest());
        if (verdict.refusal() != null) {
            return upgrade(row, verdict.refusal());
        }
        if (row.state() == null) {
            throw new SessionRefusedException(id, row.build(), "column state is NULL: no frames are stored", null);
        }
        try {
            return codec.read(row.state(), new AsymCoroutine<>(engine), verdict.formerSites());
        } catch (IOException | RuntimeException e) {
            if (doesNotFit(e, verdict)) {
                return upgrade(row, unreadable(e, verdict));
            }
            throw new SessionRefusedException(id, row.build(), unreadable(e, verdict), e);
        }
    }

    /** Whether {@code e}, thrown reading frames under {@code verdict}, says a frame does not fit this node's changed code. */
    private static boolean doesNotFit(Throwable e, Builds.Verdict verdict) {
        return e instanceof InvalidObjectException && verdict.formerSites() != null;
    }

    /**
     * Why frames read under {@code verdict} cannot be restored here, {@code e} thrown: a frame
     * that does not fit this node's changed code, or else the state itself.
     */
    private static String unreadable(Throwable e, Builds.Verdict verdict) {
        return doesNotFit(e, verdict) ? "its frames do not fit this node's changed code: " + e.getMessage()
                : "its state cannot be restored here: " + e;
    }

    /** Whether this node accepts frames of changed code where they fit ({@link Sessions.Builder#acceptChangedCode}). */
    boolean acceptsChangedCode() {
        return builds.acceptsChangedCode();
    }

    /**
     * Whether this node takes {@code row}'s frames on changed code: its build's methods are
     * here, some with other code, and this node {@linkplain Sessions.Builder#acceptChangedCode
     * accepts changed code}. Whether each frame fits is known only once they are read.
     */
    boolean onChangedCode(Row row) {
        return builds.acceptsChangedCode() && row.build() != null
                && builds.verdict(row.build(), row.manifest()).formerSites() != null;
    }

    /**
     * How this node would resume suspended {@code row}: as it was stored ({@link #SAME_CODE}), on
     * changed code ({@link #CHANGED_CODE}), by its point's upgrade ({@link #BY_UPGRADE} and the
     * point), or {@code refused: } and why, naming the frame that does not fit; its frames read and
     * matched as a resume would, nothing run. What {@link SessionsCommand}'s {@code changes} lists.
     */
    String resumeVerdict(Row row) {
        String distrust = distrust(row);
        return distrust != null ? REFUSED + distrust : resumeVerdictOfTrusted(row);
    }

    /** {@link #resumeVerdict} of {@code row}, which {@link #distrust} has passed. */
    private String resumeVerdictOfTrusted(Row row) {
        Builds.Verdict verdict = builds.verdict(row.build(), row.manifest());
        String refusal = verdict.refusal();
        if (refusal == null && row.state() == null) {
            refusal = "column state is NULL: no frames are stored";
        }
        if (refusal == null) {
            try {
                codec.frames(row.state(), new AsymCoroutine<>(Engine.WOVEN), verdict.formerSites());
                return verdict.formerSites() == null ? SAME_CODE : CHANGED_CODE;
            } catch (IOException | RuntimeException | LinkageError e) {
                refusal = unreadable(e, verdict);
            }
        }
        return row.point() != null && upgrades.containsKey(row.point()) ? BY_UPGRADE + "'" + row.point() + "'"
                : REFUSED + refusal;
    }

    /**
     * Why the stored {@code row} cannot be trusted as it is, naming the column; null if it can:
     * its id, status and version are of a session, and with a key its seal matches every sealed
     * column, or without one it has no seal.
     */
    String distrust(Row row) {
        if (row.id() == null) {
            return "column id is NULL";
        }
        if (row.id().length() > SessionCursor.MAX_ID) {
            return "column id holds " + row.id().length() + " characters, more than a session's "
                    + SessionCursor.MAX_ID;
        }
        if (row.status() == null) {
            return "column status holds " + (row.statusName() == null ? "NULL" : "'" + abbreviated(row.statusName())
                    + "'") + ", not one of " + java.util.Arrays.toString(SessionStatus.values());
        }
        if (row.version() < 1 || row.version() == Long.MAX_VALUE) {
            return "column version holds " + row.version() + ", not the number of a step";
        }
        String sealed = rowSeal.sealing() ? rowSeal.mismatch(row) : row.seal() == null ? null
                : "column seal is set: the row was sealed with a key, and this node has none";
        if (sealed == null && row.status() == SessionStatus.FAILED && row.failure() == null) {
            return "column failure is NULL, but column status says FAILED";
        }
        if (sealed == null && row.attempts() != null && row.attempts() < 1) {
            return "column attempts holds " + row.attempts() + ", not a number of attempts";
        }
        return sealed != null ? sealed : SessionWait.distrust(row);
    }

    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "... (" + text.length() + " characters)";
    }

    /** {@code row} sealed under this node's key, if it has one; null for null. */
    Row sealed(Row row) {
        return row == null || !rowSeal.sealing() ? row : row.withSeal(rowSeal.seal(row));
    }

    /** What the store says about {@code row}, once it is trusted. */
    SessionInfo info(Row row) {
        String distrust = distrust(row);
        if (distrust != null) {
            throw new SessionRefusedException(row.id(), row.build(), distrust, null);
        }
        return infoOfTrusted(row);
    }

    /** What the store says about {@code row}, which {@link #distrust} has passed. */
    static SessionInfo infoOfTrusted(Row row) {
        SessionWait wait = SessionWait.of(row);
        return new SessionInfo(row.id(), row.status(), row.version(), row.build(), row.point(), row.failure(),
                java.time.Instant.ofEpochMilli(row.created()), java.time.Instant.ofEpochMilli(row.updated()),
                wait == null || row.status() != SessionStatus.SUSPENDED ? null : wait.waiting(), row.parentId(),
                row.deadlineAt() == null ? null : java.time.Instant.ofEpochMilli(row.deadlineAt()));
    }

    @SuppressWarnings("unchecked")
    <I, O> AsymCoroutine<I, O> upgrade(Row row, String refusal) {
        Sessions.Upgrade upgrade = row.point() == null ? null : upgrades.get(row.point());
        if (upgrade == null) {
            throw new SessionRefusedException(row.id(), row.build(), refusal + (row.point() == null
                    ? "; it is suspended at no named point, so no upgrade applies"
                    : "; no upgrade is registered for its point '" + row.point() + "'"), null);
        }
        Map<String, Object> values;
        try {
            values = codec.readPointValues(row.pointValues());
        } catch (IOException e) {
            throw new SessionRefusedException(row.id(), row.build(), refusal + "; the values at its point '"
                    + row.point() + "' cannot be read here: " + e, e);
        }
        AsymRunnable<I, O> body = (AsymRunnable<I, O>) upgrade.resumeAt(values);
        return new AsymCoroutine<>(body, engine);
    }

    /**
     * The input of {@code row}'s failed step, stored for its retry.
     *
     * @throws SessionRefusedException if it cannot be read here
     */
    Object retryInput(Row row) {
        try {
            return codec.readValue(row.retryInput());
        } catch (IOException | RuntimeException e) {
            throw new SessionRefusedException(row.id(), row.build(), "column retry_input, the input its failed step"
                    + " is to run again with, cannot be read here: " + e, e);
        }
    }

    /** The stored value {@code bytes}, or null if it cannot be read here. */
    Object readQuietly(byte[] bytes) {
        try {
            return codec.readValue(bytes);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The frames of {@code row} as an operator reads them: read as a resume reads them, never
     * run, each slot's value as {@link ValueText} shows it; none, and why, if the row is not
     * trusted, has no frames, or they cannot be read by this node's code.
     */
    SessionStack stack(Row row) {
        String distrust = distrust(row);
        if (distrust != null) {
            return new SessionStack(row.id(), row.version(), List.of(), distrust);
        }
        if (row.state() == null) {
            String why = switch (row.status()) {
                case FAILED -> "it failed in its first step";
                case CANCELLED -> "it was cancelled";
                case FINISHED -> "it has finished";
                case SUSPENDED -> "column state is NULL";
            };
            return new SessionStack(row.id(), row.version(), List.of(), why + ", so no frames are stored");
        }
        // never run, it only stands for the session: on the woven engine, which needs no access to
        // the JDK's internals, so that a command or a console without --add-exports reads stacks
        AsymCoroutine<Object, Object> standIn = new AsymCoroutine<>(Engine.WOVEN);
        CoroutineFrame[] frames;
        try {
            frames = codec.frames(row.state(), standIn, builds.verdict(row.build(), row.manifest()).formerSites());
        } catch (IOException | RuntimeException | LinkageError e) {
            return new SessionStack(row.id(), row.version(), List.of(), "its frames cannot be read here: "
                    + e.getMessage());
        }
        List<SessionStack.Frame> shown = new ArrayList<>(frames.length);
        for (int f = frames.length - 1; f >= 0; f--) {
            shown.add(frameOf(frames[f], standIn));
        }
        return new SessionStack(row.id(), row.version(), shown, null);
    }

    private static SessionStack.Frame frameOf(CoroutineFrame frame, AsymCoroutine<?, ?> session) {
        List<SessionStack.Variable> variables = new ArrayList<>();
        for (int slot = 0; slot < frame.localCount + frame.expressionCount; slot++) {
            String type = frame.slotType(slot);
            if (type == null && frame.objectValues[slot] == null) {
                continue; // dead, or the second half of a long or double
            }
            variables.add(new SessionStack.Variable(slot, frame.slotName(slot), type,
                    ValueText.of(frame.slotValue(slot), session), slot >= frame.localCount));
        }
        return new SessionStack.Frame(frame.toStackTraceElement(), frame.bci, variables);
    }

    /** {@code row} as {@link SessionListing#listing} gives it, its seal checked once. */
    SessionListing.Listing listing(Row row) {
        String distrust = distrust(row);
        return distrust != null ? new SessionListing.Listing(row.id(), null, distrust)
                : new SessionListing.Listing(row.id(), infoOfTrusted(row), refusalOfTrusted(row));
    }

    /**
     * Why this node would refuse to resume {@code row}; null if it would resume it. A session
     * this node would take on changed code has its frames read and matched, as a resume would.
     */
    String refusal(Row row) {
        String distrust = distrust(row);
        if (distrust != null) {
            return distrust;
        }
        if (row.status() == SessionStatus.SUSPENDED && onChangedCode(row)) {
            String verdict = resumeVerdictOfTrusted(row);
            return verdict.startsWith(REFUSED) ? verdict.substring(REFUSED.length()) : null;
        }
        return refusalOfTrusted(row);
    }

    /** Why this node would refuse to resume {@code row}, which {@link #distrust} has passed: its build; null if it takes it. */
    String refusalOfTrusted(Row row) {
        if (row.status() != SessionStatus.SUSPENDED) {
            return null;
        }
        String refusal = builds.refusal(row.build(), row.manifest());
        if (refusal == null || row.point() != null && upgrades.containsKey(row.point())) {
            return null;
        }
        return refusal;
    }

    /** Why this node refuses sessions of {@code build}, whose manifest the store holds; null if it takes them. */
    String buildRefusal(String build, String manifest) {
        return builds.refusal(build, manifest);
    }
}
