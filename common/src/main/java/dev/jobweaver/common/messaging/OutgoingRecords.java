package dev.jobweaver.common.messaging;

import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * The keyed records the services send: each names its key (and its topic, where a producer serves several), carries
 * its {@link Headers#EVENT_ID} header, and the trace context the connector writes as {@code traceparent}.
 */
public final class OutgoingRecords {

    private OutgoingRecords() {
    }

    /** As {@link #keyed(String, UUID, UUID, Object, Context)}, for the topic the channel is configured with. */
    public static <T> Message<T> keyed(UUID key, UUID eventId, T payload, Context trace) {
        return keyed(null, key, eventId, payload, trace);
    }

    /**
     * A record of {@code payload} (null: a tombstone) for {@code topic} (null: the channel's own) under {@code key},
     * whose eventId header is {@code eventId}, in the trace of {@code trace} (null: the connector's current one).
     */
    public static <T> Message<T> keyed(String topic, UUID key, UUID eventId, T payload, Context trace) {
        return keyed(topic, -1, key, eventId, payload, trace);
    }

    /**
     * As {@link #keyed(String, UUID, UUID, Object, Context)}, on partition {@code partition} of {@code topic} rather
     * than the one its key hashes to; a negative partition leaves the choice to the key.
     */
    public static <T> Message<T> keyed(String topic, int partition, UUID key, UUID eventId, T payload,
                                       Context trace) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, eventId.toString().getBytes(StandardCharsets.UTF_8));
        var builder = OutgoingKafkaRecordMetadata.<String>builder()
                .withTopic(topic)
                .withKey(key.toString())
                .withHeaders(headers);
        if (partition >= 0) {
            builder.withPartition(partition);
        }
        OutgoingKafkaRecordMetadata<String> kafka = builder.build();
        Metadata metadata = trace == null
                ? Metadata.of(kafka)
                : Metadata.of(kafka, TracingMetadata.withCurrent(trace));
        return Message.of(payload, metadata);
    }
}
