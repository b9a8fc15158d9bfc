package dev.weft.sessions.micrometer;

import dev.weft.sessions.SessionException;
import dev.weft.sessions.SessionInfo;
import dev.weft.sessions.SessionObserver;
import dev.weft.sessions.Sessions;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * A node's steps as Micrometer meters, in the registry a JVM team already runs: bound with
 * {@link Sessions.Builder#observe}. Needs {@code io.micrometer:micrometer-core} at run time (an
 * optional dependency of weft-sessions: a node without this observer never loads it).
 *
 * <pre>{@code
 * Sessions sessions = Sessions.builder(store).workers(4).observe(new SessionsMeters(registry)).build();
 * }</pre>
 *
 * <table>
 * <caption>The meters</caption>
 * <tr><th>Name</th><th>Type</th><th>Tags</th><th>What</th></tr>
 * <tr><td>{@code weft.sessions.steps}</td><td>counter</td><td>{@code kind}, {@code outcome}</td>
 *     <td>steps, by who ran them ({@code start}, {@code resume}, {@code worker}, {@code retry},
 *     {@code cancel}, {@code child}) and what they left ({@code suspended}, {@code waiting},
 *     {@code retrying}, {@code finished}, {@code failed}, {@code cancelled}, {@code skipped},
 *     {@code refused}, {@code conflict}, {@code busy}, {@code rejected}, {@code error}: see
 *     {@link SessionObserver.Outcome})</td></tr>
 * <tr><td>{@code weft.sessions.step.latency}</td><td>timer</td><td>{@code kind}, {@code outcome}</td>
 *     <td>how long each step took, to after its commit or rollback (see
 *     {@link SessionObserver.Step#duration()})</td></tr>
 * <tr><td>{@code weft.sessions.failures}</td><td>counter</td><td>{@code kind}, {@code outcome}</td>
 *     <td>steps whose body threw: stored {@code failed}, or {@code retrying}</td></tr>
 * <tr><td>{@code weft.sessions.retries}</td><td>counter</td><td>{@code kind}</td>
 *     <td>failed steps run again, by a worker or {@link Sessions#retry}</td></tr>
 * <tr><td>{@code weft.sessions.refusals}</td><td>counter</td><td>{@code kind}</td>
 *     <td>steps this node refused: a row or a message not to be trusted, a build not its own</td></tr>
 * <tr><td>{@code weft.sessions.due}</td><td>gauge</td><td></td>
 *     <td>sessions due and not yet run ({@link Sessions#countDue()}): read from the store when
 *     the gauge is read, never on a step; NaN if the store cannot be read</td></tr>
 * <tr><td>{@code weft.sessions.wait.lateness}</td><td>timer</td><td>{@code wait}</td>
 *     <td>for a worker's step that ran because a time came due, how long after that time it
 *     began, by the node's clock; by kind of wait ({@code sleep}, {@code input}, {@code message},
 *     {@code retry}, {@code retry_timeout})</td></tr>
 * </table>
 *
 * <p>Each meter also has the tags given to the constructor: give each node its own (a
 * {@code node} tag, say) when several share a registry. One instance observes one node.
 * Thread-safe: the meters are registered on their first use, by any thread.
 */
public final class SessionsMeters implements SessionObserver {

    private static final StepKind[] KINDS = StepKind.values();
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final SessionInfo.WaitKind[] WAITS = SessionInfo.WaitKind.values();

    private final MeterRegistry registry;
    private final Tags tags;
    /** By kind and outcome ({@link #index}), each registered on first use. */
    private final AtomicReferenceArray<Counter> steps = new AtomicReferenceArray<>(KINDS.length * OUTCOMES.length);
    private final AtomicReferenceArray<Timer> latencies = new AtomicReferenceArray<>(KINDS.length * OUTCOMES.length);
    private final AtomicReferenceArray<Counter> failures = new AtomicReferenceArray<>(KINDS.length * OUTCOMES.length);
    /** By kind. */
    private final AtomicReferenceArray<Counter> retries = new AtomicReferenceArray<>(KINDS.length);
    private final AtomicReferenceArray<Counter> refusals = new AtomicReferenceArray<>(KINDS.length);
    /** By kind of wait. */
    private final AtomicReferenceArray<Timer> lateness = new AtomicReferenceArray<>(WAITS.length);
    // each registers the meter at an index of its array, on first use
    private final IntFunction<Counter> newStepCounter;
    private final IntFunction<Timer> newLatencyTimer;
    private final IntFunction<Counter> newFailureCounter;
    private final IntFunction<Counter> newRetryCounter;
    private final IntFunction<Counter> newRefusalCounter;
    private final IntFunction<Timer> newLatenessTimer;

    /**
     * Meters in {@code registry}, with no tags of their own.
     *
     * @param registry where the meters are registered
     */
    public SessionsMeters(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * Meters in {@code registry}, each with {@code tags} as well as its own.
     *
     * @param registry where the meters are registered
     * @param tags     the tags every meter has (a node's name, say)
     */
    public SessionsMeters(MeterRegistry registry, Iterable<Tag> tags) {
        if (registry == null) {
            throw new NullPointerException("registry");
        }
        this.registry = registry;
        this.tags = Tags.of(tags);
        newStepCounter = i -> Counter.builder("weft.sessions.steps").tags(this.tags).tags(kindAndOutcome(i))
                .description("Steps of sessions, by who ran them and what they left").register(registry);
        newLatencyTimer = i -> Timer.builder("weft.sessions.step.latency").tags(this.tags).tags(kindAndOutcome(i))
                .description("How long steps took, to after their commit or rollback")
                .register(registry);
        newFailureCounter = i -> Counter.builder("weft.sessions.failures").tags(this.tags).tags(kindAndOutcome(i))
                .description("Steps whose body threw").register(registry);
        newRetryCounter = i -> Counter.builder("weft.sessions.retries").tags(this.tags).tag("kind", name(KINDS[i]))
                .description("Failed steps run again").register(registry);
        newRefusalCounter = i -> Counter.builder("weft.sessions.refusals").tags(this.tags).tag("kind",
                name(KINDS[i])).description("Steps this node refused").register(registry);
        newLatenessTimer = i -> Timer.builder("weft.sessions.wait.lateness").tags(this.tags).tag("wait",
                name(WAITS[i])).description("How long after their due time workers began the steps of waits")
                .register(registry);
    }

    /** Registers the gauge of the node's due sessions. */
    @Override
    public void observing(Sessions sessions) {
        Gauge.builder("weft.sessions.due", sessions, SessionsMeters::countDue)
                .tags(tags)
                .description("Sessions due and not yet run")
                .baseUnit("sessions")
                .register(registry);
    }

    private static double countDue(Sessions sessions) {
        try {
            return sessions.countDue();
        } catch (SessionException e) {
            return Double.NaN;
        }
    }

    @Override
    public void stepEnded(Object begun, Step step) {
        int kind = step.kind().ordinal();
        int both = kind * OUTCOMES.length + step.outcome().ordinal();
        meter(steps, both, newStepCounter).increment();
        meter(latencies, both, newLatencyTimer).record(step.duration());
        Outcome outcome = step.outcome();
        if (outcome == Outcome.FAILED || outcome == Outcome.RETRYING) {
            meter(failures, both, newFailureCounter).increment();
        }
        if (outcome.stored() && (step.kind() == StepKind.RETRY || isRetry(step.dueWait()))) {
            meter(retries, kind, newRetryCounter).increment();
        }
        if (outcome == Outcome.REFUSED) {
            meter(refusals, kind, newRefusalCounter).increment();
        }
        if (step.lateness() != null && step.dueWait() != null) {
            meter(lateness, step.dueWait().ordinal(), newLatenessTimer).record(step.lateness());
        }
    }

    private static boolean isRetry(SessionInfo.WaitKind wait) {
        return wait == SessionInfo.WaitKind.RETRY || wait == SessionInfo.WaitKind.RETRY_TIMEOUT;
    }

    /** The tags of kind and outcome at {@code index} of the arrays by both. */
    private static Tags kindAndOutcome(int index) {
        return Tags.of("kind", name(KINDS[index / OUTCOMES.length]), "outcome",
                name(OUTCOMES[index % OUTCOMES.length]));
    }

    /** The meter at {@code index} of {@code meters}, registered by {@code register} on first use. */
    private static <M> M meter(AtomicReferenceArray<M> meters, int index, IntFunction<M> register) {
        M meter = meters.get(index);
        if (meter == null) {
            meter = register.apply(index);
            meters.set(index, meter); // another thread may have set it too: the registry has one meter per id
        }
        return meter;
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
