package dev.jobweaver.worker.testing;

import dev.jobweaver.common.event.RunJobEvent;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** A random W3C trace context a test puts on its records, as the scheduler would: a trace id and a parent span. */
public record TestTrace(String traceId, String parentSpanId) {

    /** A trace of its own, so that the spans a test looks for are only those its records caused. */
    public static TestTrace random() {
        return new TestTrace(randomHex(16), randomHex(8));
    }

    /** The {@code traceparent} header of a record sent from the sampled parent span of this trace. */
    public String traceparent() {
        return "00-" + traceId + "-" + parentSpanId + "-01";
    }

    /** The context of this trace's parent span, as a remote caller would hand it on: not sampled. */
    public SpanContext unsampledParent() {
        return SpanContext.create(traceId, parentSpanId, TraceFlags.getDefault(), TraceState.getDefault());
    }

    /** {@code run} with this trace's id, as the scheduler records it in the event. */
    public RunJobEvent on(RunJobEvent run) {
        return new RunJobEvent(run.eventId(), run.jobId(), run.attempt(), run.jobType(), run.payload(), traceId,
                run.createdAt(), run.dispatchedAt(), run.leaseUntil(), run.control());
    }

    /** {@code bytes} random bytes in lower-case hex: a trace id is 16, a span id 8. */
    public static String randomHex(int bytes) {
        byte[] value = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(value);
        return HexFormat.of().formatHex(value);
    }
}
