package dev.jobweaver.common.messaging;

/** Kafka record header names shared by every topic. */
public final class Headers {

    /** A UUID naming the event; for {@code run-job} it is derived from (jobId, attempt), see {@link EventIds}. */
    public static final String EVENT_ID = "eventId";
    /** W3C trace context, written and read by OpenTelemetry's Kafka instrumentation. */
    public static final String TRACEPARENT = "traceparent";

    private Headers() {
    }
}
