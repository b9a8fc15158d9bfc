package dev.weft.sessions.opentelemetry;

import dev.weft.sessions.SessionFailedException;
import dev.weft.sessions.SessionObserver;
import dev.weft.sessions.SessionRetryingException;
import dev.weft.sessions.Sessions;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;

import java.util.Locale;

/**
 * A span per step of a node's sessions, through the OpenTelemetry a JVM team already runs: bound
 * with {@link Sessions.Builder#observe}. Needs {@code io.opentelemetry:opentelemetry-api} at run
 * time (an optional dependency of weft-sessions: a node without this observer never loads it).
 *
 * <pre>{@code
 * Sessions sessions = Sessions.builder(store).workers(4).observe(new SessionsTracing(openTelemetry)).build();
 * }</pre>
 *
 * <p>Each step is a span named {@code weft.session <kind>} ({@code weft.session start},
 * {@code weft.session resume}, {@code weft.session worker}, {@code weft.session retry},
 * {@code weft.session cancel}, {@code weft.session child}) with attributes
 * {@code weft.session.id}, {@code weft.session.kind}, {@code weft.session.outcome},
 * {@code weft.session.version}, {@code weft.session.engine}, and where they apply
 * {@code weft.session.wait} (what the session waits for after the step),
 * {@code weft.session.due_wait} (what a worker's step ran for) and
 * {@code weft.session.lateness_ms}; its status is ERROR when the step throws, with what the body
 * threw recorded as an exception for a failed step, else what the step threw.
 *
 * <p>A step run by a caller is a child of the span current on the caller's thread; a worker's
 * step begins a trace of its own. The step's span is current while its body runs, so that the
 * body's own spans are its children. A message sent in a span ({@link Sessions#send},
 * {@link dev.weft.sessions.StepContext#send}, a child's outcome to its parent) is stored with
 * that span's W3C {@code traceparent}; the worker's step that takes it has a link to that span:
 * the request that resumed it, through its message. Thread-safe.
 */
public final class SessionsTracing implements SessionObserver {

    /** The name of this instrumentation, as OpenTelemetry's tracers are named. */
    public static final String INSTRUMENTATION = "dev.weft.sessions";

    static final AttributeKey<String> ID = AttributeKey.stringKey("weft.session.id");
    static final AttributeKey<String> KIND = AttributeKey.stringKey("weft.session.kind");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("weft.session.outcome");
    static final AttributeKey<Long> VERSION = AttributeKey.longKey("weft.session.version");
    static final AttributeKey<String> ENGINE = AttributeKey.stringKey("weft.session.engine");
    static final AttributeKey<String> WAIT = AttributeKey.stringKey("weft.session.wait");
    static final AttributeKey<String> DUE_WAIT = AttributeKey.stringKey("weft.session.due_wait");
    static final AttributeKey<Long> LATENESS = AttributeKey.longKey("weft.session.lateness_ms");

    /** The one header a message's trace context is stored as. */
    private static final String TRACEPARENT = "traceparent";

    /** Reads a stored {@code traceparent} as the one header of a carrier. */
    private static final TextMapGetter<String> STORED = (traceparent, key) -> TRACEPARENT.equals(key) ? traceparent
            : null;

    private final Tracer tracer;

    /**
     * Spans from {@code openTelemetry}'s tracer {@value #INSTRUMENTATION}.
     *
     * @param openTelemetry the OpenTelemetry the spans are sent through
     */
    public SessionsTracing(OpenTelemetry openTelemetry) {
        if (openTelemetry == null) {
            throw new NullPointerException("openTelemetry");
        }
        this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
    }

    /** A step's span, and the scope that makes it current on the step's thread. */
    private static final class Begun {
        final Span span;
        final Scope scope;

        Begun(Span span, Scope scope) {
            this.span = span;
            this.scope = scope;
        }
    }

    @Override
    public Object stepBegun(StepKind kind, String sessionId) {
        String name = name(kind);
        Span span = tracer.spanBuilder("weft.session " + name)
                .setParent(Context.current())
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(KIND, name)
                .setAttribute(ID, sessionId)
                .startSpan();
        return new Begun(span, span.makeCurrent());
    }

    @Override
    public void stepEnded(Object begun, Step step) {
        if (!(begun instanceof Begun started)) {
            return; // its stepBegun failed: there is no span
        }
        started.scope.close();
        Span span = started.span;
        span.setAttribute(OUTCOME, name(step.outcome()));
        span.setAttribute(VERSION, step.version());
        span.setAttribute(ENGINE, name(step.engine()));
        if (step.waiting() != null) {
            span.setAttribute(WAIT, name(step.waiting()));
        }
        if (step.dueWait() != null) {
            span.setAttribute(DUE_WAIT, name(step.dueWait()));
        }
        if (step.lateness() != null) {
            span.setAttribute(LATENESS, step.lateness().toMillis());
        }
        SpanContext sender = sender(step.trace());
        if (sender != null) {
            span.addLink(sender);
        }
        if (step.thrown() != null) {
            span.setStatus(StatusCode.ERROR, name(step.outcome()));
            span.recordException(bodyFailure(step.thrown()));
        }
        span.end();
    }

    /** What the body threw, for a step that failed or is to be retried; else what the step threw. */
    private static Throwable bodyFailure(Throwable thrown) {
        boolean bodyThrew = thrown instanceof SessionFailedException || thrown instanceof SessionRetryingException;
        return bodyThrew && thrown.getCause() != null ? thrown.getCause() : thrown;
    }

    /** The span a message was sent in, from its stored {@code traceparent}; null if none or not valid. */
    private static SpanContext sender(String traceparent) {
        if (traceparent == null) {
            return null;
        }
        Context sent = W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, STORED);
        SpanContext context = Span.fromContext(sent).getSpanContext();
        return context.isValid() ? context : null;
    }

    /** The W3C {@code traceparent} of the span current on this thread; null if none. */
    @Override
    public String messageTrace() {
        if (!Span.current().getSpanContext().isValid()) {
            return null;
        }
        String[] traceparent = new String[1];
        W3CTraceContextPropagator.getInstance().inject(Context.current(), traceparent, (carrier, key, value) -> {
            if (TRACEPARENT.equals(key)) {
                carrier[0] = value;
            }
        });
        return traceparent[0];
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
