package dev.jobweaver.scheduler.observability;

import dev.jobweaver.common.messaging.Headers;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Spans of the scheduler's work on a job, continuing the job's trace.
 *
 * <p>The parent is the Kafka consumer span of the incoming record when there is one (its traceparent header came
 * from the API or the worker), otherwise the traceparent stored at ingestion, rebuilt as a remote parent: dispatch
 * and lease expiry happen long after any record, on a timer, and still belong to the job's trace.
 */
@ApplicationScoped
public class JobTracing {

    private static final AttributeKey<String> JOB_ID = AttributeKey.stringKey("jobweaver.job.id");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("jobweaver.job.attempt");

    @Inject Tracer tracer;

    /** Starts span {@code name} of job {@code jobId} under {@code parent}. */
    public Span start(String name, Context parent, UUID jobId, int attempt) {
        return tracer.spanBuilder(name)
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(JOB_ID, String.valueOf(jobId))
                .setAttribute(ATTEMPT, (long) attempt)
                .startSpan();
    }

    /** Ends {@code span} when {@code work} ends, marking it as an error if {@code work} failed. */
    public static <T> Uni<T> endWith(Span span, Uni<T> work) {
        return work.onItemOrFailure().invoke((item, failure) -> end(span, failure))
                .onCancellation().invoke(() -> span.end());
    }

    /** Ends {@code span}, recording {@code failure} if there is one. */
    public static void end(Span span, Throwable failure) {
        if (failure != null) {
            span.recordException(failure);
            span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
        }
        span.end();
    }

    /**
     * The trace context of an incoming record: the connector's consumer span when there is one, else the record's
     * own {@code traceparent} header (records of a batch carry no consumer span); null if neither exists.
     */
    public static Context incoming(Message<?> message) {
        Context context = TracingMetadata.fromMessage(message).map(TracingMetadata::getCurrentContext).orElse(null);
        if (context != null && Span.fromContext(context).getSpanContext().isValid()) {
            return context;
        }
        return message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(meta -> meta.getHeaders().lastHeader(Headers.TRACEPARENT))
                .map(header -> fromTraceparent(new String(header.value(), StandardCharsets.UTF_8)))
                .filter(parent -> Span.fromContext(parent).getSpanContext().isValid())
                .orElse(null);
    }

    /**
     * The parent of a span about a job that a record asked for: the record's context when it is in the job's trace
     * ({@code traceId}), else the traceparent stored at ingestion, so the span joins the job's trace whatever trace
     * the record came in; the record's context (or the root) for a job not stored.
     */
    public static Context forJob(Context incoming, String traceId, String traceparent) {
        if (incoming != null && traceId != null
                && traceId.equals(Span.fromContext(incoming).getSpanContext().getTraceId())) {
            return incoming;
        }
        if (traceparent != null) {
            return fromTraceparent(traceparent);
        }
        return incoming != null ? incoming : Context.root();
    }

    /** A context whose parent is the span described by W3C {@code traceparent}; the root context if unreadable. */
    public static Context fromTraceparent(String traceparent) {
        if (traceparent == null) {
            return Context.root();
        }
        String[] parts = traceparent.split("-");
        if (parts.length != 4 || parts[1].length() != 32 || parts[2].length() != 16 || parts[3].length() != 2) {
            return Context.root();
        }
        SpanContext remote = SpanContext.createFromRemoteParent(parts[1], parts[2],
                TraceFlags.fromHex(parts[3], 0), TraceState.getDefault());
        return remote.isValid() ? Context.root().with(Span.wrap(remote)) : Context.root();
    }

    /** W3C traceparent of {@code span}; null if the span is not recorded (tracing off). */
    public static String traceparent(Span span) {
        SpanContext sc = span.getSpanContext();
        if (!sc.isValid()) {
            return null;
        }
        return "00-" + sc.getTraceId() + "-" + sc.getSpanId() + "-" + sc.getTraceFlags().asHex();
    }

    /** The trace id of {@code span}, or null if it has none. */
    public static String traceId(Span span) {
        SpanContext sc = span.getSpanContext();
        return sc.isValid() ? sc.getTraceId() : null;
    }
}
