package dev.weft.sessions;

import static dev.weft.sessions.SessionWaitsContract.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Alarm;
import dev.weft.sessions.flows.Fanout;
import dev.weft.sessions.flows.Flaky;
import dev.weft.sessions.flows.Gate;
import dev.weft.sessions.flows.Mailbox;
import dev.weft.sessions.flows.Questionnaire;
import dev.weft.sessions.flows.Sender;
import dev.weft.sessions.flows.Turnstile;
import dev.weft.sessions.micrometer.SessionsMeters;
import dev.weft.sessions.opentelemetry.SessionsTracing;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Metrics and traces on every store and engine: run as a nested class of
 * {@link SessionStoreContract} ({@code Observations}), on its store. The nodes have no workers:
 * the test runs a worker's steps itself ({@link Sessions#runDue}), on a {@link MutableClock}, so
 * that which step runs when, and how late, is the test's to say. Meters are read from Micrometer's
 * {@link SimpleMeterRegistry}, spans from OpenTelemetry's SDK through its
 * {@link InMemorySpanExporter}.
 */
abstract class SessionObservationsContract {

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private MutableClock clock;
    private SimpleMeterRegistry registry;
    private InMemorySpanExporter exporter;
    private OpenTelemetrySdk openTelemetry;

    @BeforeEach
    void observe() {
        clock = new MutableClock(T0);
        registry = new SimpleMeterRegistry();
        exporter = InMemorySpanExporter.create();
        openTelemetry = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
    }

    @AfterEach
    void stopObserving() {
        openTelemetry.close();
    }

    /** A node without workers on the test's clock. */
    private Sessions.Builder node() {
        return suite().builder().clock(clock);
    }

    private String engine() {
        return suite().engine().name().toLowerCase(Locale.ROOT);
    }

    // ---------------------------------------------------------------- meters

    @Test
    void stepsAreCountedByKindAndOutcomeWithTheirFailuresRetriesAndRefusals() throws Exception {
        Sessions node = node().observe(new SessionsMeters(registry)).build();
        String questions = node.start(new Questionnaire(), null).id();
        node.resume(questions, "Ada");
        assertThrows(SessionConflictException.class, () -> node.resume(questions, 1, "Ada again"));
        String alarm = node.start(new Alarm(), Duration.ofMinutes(5)).id();
        assertThrows(SessionWaitingException.class, () -> node.resume(alarm, "wake up"));
        String flaky = node.start(new Flaky(1, Flaky.INPUT, false), null).id();
        assertThrows(SessionFailedException.class, () -> node.resume(flaky, "x"));
        assertTrue(node.retry(flaky).finished());
        String sealed = suite().builder().sealWith(SessionStoreContract.key(1)).build()
                .start(new Questionnaire(), null).id();
        assertThrows(SessionRefusedException.class, () -> node.resume(sealed, "Ada"));
        String turnstile = node.start(new Turnstile(), "a").id();
        resumeWhileBusy(node, turnstile);
        node.cancel(questions);

        assertEquals(3, steps("start", "suspended"), "questions, flaky, turnstile");
        assertEquals(1, steps("start", "waiting"));
        assertEquals(2, steps("resume", "suspended"), "Ada, and the step that held the turnstile");
        assertEquals(1, steps("resume", "conflict"));
        assertEquals(1, steps("resume", "rejected"), "an input to a sleeping session");
        assertEquals(1, steps("resume", "failed"));
        assertEquals(1, steps("resume", "refused"));
        assertEquals(1, steps("resume", "busy"));
        assertEquals(1, steps("retry", "finished"));
        assertEquals(1, steps("cancel", "cancelled"));
        assertEquals(13, registry.find("weft.sessions.steps").counters().stream().mapToDouble(Counter::count).sum(),
                "no step counted twice, none left out (the sealing node is not observed)");
        assertEquals(1, registry.get("weft.sessions.failures").tags("kind", "resume", "outcome", "failed").counter()
                .count());
        assertEquals(1, registry.find("weft.sessions.failures").counters().size());
        assertEquals(1, registry.get("weft.sessions.retries").tags("kind", "retry").counter().count());
        assertEquals(1, registry.get("weft.sessions.refusals").tags("kind", "resume").counter().count());
        Timer started = registry.get("weft.sessions.step.latency").tags("kind", "start", "outcome", "suspended")
                .timer();
        assertEquals(3, started.count());
        assertTrue(started.totalTime(TimeUnit.NANOSECONDS) > 0);
    }

    /** Resumes {@code id} with {@code "b"} while another thread's step of it holds it at the {@link Gate}: busy. */
    private static void resumeWhileBusy(Sessions node, String id) throws Exception {
        Gate.reset();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<SessionStep<String>> held = other.submit(() -> node.resume(id, "gate"));
            Gate.awaitArrival();
            assertThrows(SessionBusyException.class, () -> node.resume(id, "b"));
            Gate.open();
            assertEquals("2:gate", held.get().output());
        } finally {
            Gate.open();
            other.shutdown();
        }
    }

    @Test
    void workersStepsAreCountedWithHowLateTheyRanAndTheBacklogIsReadFromTheStore() {
        Sessions node = node().observe(new SessionsMeters(registry, Tags.of("node", "n1")))
                .retry(RetryPolicy.attempts(2).backoff(Duration.ofMinutes(1), 1, Duration.ofMinutes(1)))
                .keepFinished(true).build();
        for (int i = 0; i < 3; i++) {
            node.start(new Alarm(), Duration.ofMinutes(5));
        }
        String flaky = node.start(new Flaky(1, Flaky.INPUT, false), null).id();
        assertThrows(SessionRetryingException.class, () -> node.resume(flaky, "x"));
        String mailbox = node.start(new Mailbox(), null).id();
        assertEquals(0, due(), "nothing due yet");
        node.send(mailbox, "a");
        assertEquals(1, due(), "a message for a session that waits for one");
        clock.advance(Duration.ofMinutes(10));
        assertEquals(5, due(), "three sleeps, a retry and a message");

        List<String> ran = new ArrayList<>();
        for (String id = node.runDue(List.of()); id != null; id = node.runDue(List.of())) {
            ran.add(id);
        }
        assertEquals(5, ran.size(), ran.toString());
        assertEquals(0, due());

        assertEquals(4, steps("worker", "finished"), "the sleeps' ends and the retry");
        assertEquals(1, steps("worker", "waiting"), "the mailbox, which took its message and waits for another");
        assertEquals(1, registry.get("weft.sessions.retries").tags("kind", "worker").counter().count());
        assertEquals(1, registry.get("weft.sessions.failures").tags("kind", "resume", "outcome", "retrying")
                .counter().count());
        Timer slept = registry.get("weft.sessions.wait.lateness").tags("wait", "sleep", "node", "n1").timer();
        assertEquals(3, slept.count());
        assertEquals(Duration.ofMinutes(15).toNanos(), (long) slept.totalTime(TimeUnit.NANOSECONDS),
                "each ran 5 minutes after its due time, by the node's clock");
        Timer retried = registry.get("weft.sessions.wait.lateness").tags("wait", "retry").timer();
        assertEquals(1, retried.count());
        assertEquals(Duration.ofMinutes(9).toNanos(), (long) retried.totalTime(TimeUnit.NANOSECONDS));
        assertNull(registry.find("weft.sessions.wait.lateness").tags("wait", "message").timer(),
                "a message taken is no time come due");
    }

    private double steps(String kind, String outcome) {
        Counter counter = registry.find("weft.sessions.steps").tags("kind", kind, "outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private double due() {
        return registry.get("weft.sessions.due").gauge().value();
    }

    // ---------------------------------------------------------------- spans

    @Test
    void eachStepACallerRunsIsASpanUnderTheCallersSpan() {
        Sessions node = node().observe(new SessionsTracing(openTelemetry)).build();
        Span request = openTelemetry.getTracer("test").spanBuilder("request").startSpan();
        String id = within(request, () -> {
            String started = node.start(new Questionnaire(), null).id();
            node.resume(started, 1, "Ada");
            return started;
        });
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertEquals(List.of("weft.session start", "weft.session resume", "request"),
                spans.stream().map(SpanData::getName).toList());
        for (int i = 0; i < 2; i++) {
            SpanData step = spans.get(i);
            assertEquals(request.getSpanContext().getSpanId(), step.getParentSpanId());
            assertEquals(request.getSpanContext().getTraceId(), step.getTraceId());
            assertEquals(id, attribute(step, "weft.session.id"));
            assertEquals(i == 0 ? "start" : "resume", attribute(step, "weft.session.kind"));
            assertEquals("suspended", attribute(step, "weft.session.outcome"));
            assertEquals(i + 1L, step.getAttributes().get(AttributeKey.longKey("weft.session.version")));
            assertEquals(engine(), attribute(step, "weft.session.engine"));
            assertEquals(StatusCode.UNSET, step.getStatus().getStatusCode());
        }
    }

    @Test
    void aFailedStepsSpanIsAnErrorWithWhatTheBodyThrew() {
        Sessions node = node().observe(new SessionsTracing(openTelemetry)).build();
        String id = node.start(new Flaky(1, Flaky.INPUT, false), null).id();
        assertThrows(SessionFailedException.class, () -> node.resume(id, "x"));
        SpanData failed = exporter.getFinishedSpanItems().get(1);
        assertEquals("failed", attribute(failed, "weft.session.outcome"));
        assertEquals(2L, failed.getAttributes().get(AttributeKey.longKey("weft.session.version")));
        assertEquals(StatusCode.ERROR, failed.getStatus().getStatusCode());
        EventData exception = failed.getEvents().get(0);
        assertEquals("exception", exception.getName());
        assertEquals("java.lang.IllegalStateException", exception.getAttributes().get(
                AttributeKey.stringKey("exception.type")));
        assertEquals("attempt 1", exception.getAttributes().get(AttributeKey.stringKey("exception.message")));
    }

    @Test
    void aChildsFirstStepIsASpanUnderItsParentsStep() {
        Sessions node = node().observe(new SessionsTracing(openTelemetry)).build();
        String parent = node.start(new Fanout(List.of("now:a"), false), null).id();
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertEquals(List.of("weft.session child", "weft.session start"), spans.stream().map(SpanData::getName)
                .toList());
        SpanData child = spans.get(0);
        assertEquals(parent + "-0", attribute(child, "weft.session.id"));
        assertEquals("finished", attribute(child, "weft.session.outcome"));
        assertEquals(spans.get(1).getSpanId(), child.getParentSpanId());
        assertEquals("waiting", attribute(spans.get(1), "weft.session.outcome"));
        assertEquals("message", attribute(spans.get(1), "weft.session.wait"), "for its child's outcome");
    }

    @Test
    void aWorkersStepLinksToTheSpanThatSentItsMessage() throws SQLException {
        Sessions node = node().observe(new SessionsTracing(openTelemetry)).build();
        String mailbox = node.start(new Mailbox(), null).id();
        Span request = openTelemetry.getTracer("test").spanBuilder("request").startSpan();
        within(request, () -> {
            node.send(mailbox, "a");
            return null;
        });
        SpanContext sent = request.getSpanContext();
        assertEquals(List.of("00-" + sent.getTraceId() + "-" + sent.getSpanId() + "-" + sent.getTraceFlags().asHex()),
                traces(mailbox), "the sender's W3C traceparent");
        assertEquals(mailbox, node.runDue(List.of()));

        SpanData worker = last("weft.session worker");
        assertFalse(worker.getParentSpanContext().isValid(), "a worker's step begins a trace of its own");
        assertEquals(mailbox, attribute(worker, "weft.session.id"));
        assertEquals("waiting", attribute(worker, "weft.session.outcome"));
        assertEquals("message", attribute(worker, "weft.session.wait"));
        assertEquals("message", attribute(worker, "weft.session.due_wait"));
        assertNull(worker.getAttributes().get(AttributeKey.longKey("weft.session.lateness_ms")));
        assertEquals(1, worker.getLinks().size());
        assertEquals(sent.getTraceId(), worker.getLinks().get(0).getSpanContext().getTraceId());
        assertEquals(sent.getSpanId(), worker.getLinks().get(0).getSpanContext().getSpanId());

        String sender = node.start(new Sender(mailbox, List.of("b"), false), null).id();
        SpanData sending = last("weft.session start");
        assertEquals(sender, attribute(sending, "weft.session.id"));
        assertEquals(mailbox, node.runDue(List.of()));
        SpanData taking = last("weft.session worker");
        assertEquals(1, taking.getLinks().size());
        assertEquals(sending.getSpanId(), taking.getLinks().get(0).getSpanContext().getSpanId(),
                "a message a step sent links to that step");
    }

    @Test
    void aWorkersStepForATimeComeDueSaysHowLate() {
        Sessions node = node().observe(new SessionsTracing(openTelemetry)).keepFinished(true).build();
        String id = node.start(new Alarm(), Duration.ofMinutes(5)).id();
        assertEquals("sleep", attribute(last("weft.session start"), "weft.session.wait"));
        clock.advance(Duration.ofMinutes(7));
        assertEquals(id, node.runDue(List.of()));
        SpanData worker = last("weft.session worker");
        assertEquals("finished", attribute(worker, "weft.session.outcome"));
        assertEquals("sleep", attribute(worker, "weft.session.due_wait"));
        assertEquals(Duration.ofMinutes(2).toMillis(), worker.getAttributes().get(
                AttributeKey.longKey("weft.session.lateness_ms")));
        assertEquals(List.of(), worker.getLinks());
    }

    @Test
    void withoutTracingNoMessageCarriesATraceContext() throws SQLException {
        Sessions plain = node().build();
        Sessions metered = node().observe(new SessionsMeters(registry)).build();
        String mailbox = plain.start(new Mailbox(), null).id();
        within(openTelemetry.getTracer("test").spanBuilder("request").startSpan(), () -> {
            plain.send(mailbox, "a");
            metered.send(mailbox, "b");
            return null;
        });
        List<String> none = new ArrayList<>();
        none.add(null);
        none.add(null);
        assertEquals(none, traces(mailbox));
    }

    @Test
    void metersAndSpansObserveTheSameNodeTogether() {
        Sessions node = node().observe(new SessionsMeters(registry)).observe(new SessionsTracing(openTelemetry))
                .build();
        String id = node.start(new Questionnaire(), null).id();
        node.resume(id, "Ada");
        assertEquals(1, steps("start", "suspended"));
        assertEquals(1, steps("resume", "suspended"));
        assertEquals(List.of("weft.session start", "weft.session resume"), exporter.getFinishedSpanItems().stream()
                .map(SpanData::getName).toList());
    }

    /** What {@code work} returns, run with {@code span} current, which then ends: a request in which a caller steps. */
    private static <T> T within(Span span, Supplier<T> work) {
        Scope scope = span.makeCurrent();
        try {
            return work.get();
        } finally {
            scope.close();
            span.end();
        }
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    /** The last span finished named {@code name}. */
    private SpanData last(String name) {
        List<SpanData> named = exporter.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name))
                .toList();
        assertFalse(named.isEmpty(), "no span " + name);
        return named.get(named.size() - 1);
    }

    /** The trace context stored with each message in session {@code id}'s inbox, in order. */
    private List<String> traces(String id) throws SQLException {
        try (Connection connection = suite().connect(); PreparedStatement select = connection.prepareStatement(
                "SELECT trace_parent FROM weft_messages WHERE session_id = ? ORDER BY seq")) {
            select.setString(1, id);
            List<String> traces = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    traces.add(rows.getString(1));
                }
            }
            return traces;
        }
    }
}
