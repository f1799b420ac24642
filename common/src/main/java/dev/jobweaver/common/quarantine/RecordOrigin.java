package dev.jobweaver.common.quarantine;

import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.time.Instant;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Where a consumed record came from, and its raw key, headers and value: what a quarantined copy carries, so an
 * operator can see the record exactly as it was and produce it again once the cause is fixed.
 *
 * @param value the record's value as it was on the topic; null for a record without one
 */
public record RecordOrigin(String topic, int partition, long offset, Instant timestamp, String key, Headers headers,
                           byte[] value) {

    /** The origin of a consumed message whose payload is the record's raw value. */
    public static RecordOrigin of(Message<byte[]> message) {
        return of(message, message.getPayload());
    }

    /** The origin of a consumed message, with {@code value} the record's raw value. */
    public static RecordOrigin of(Message<?> message, byte[] value) {
        IncomingKafkaRecordMetadata<?, ?> meta = message.getMetadata(IncomingKafkaRecordMetadata.class).orElse(null);
        if (meta == null) {
            return new RecordOrigin("unknown", -1, -1, null, null, new RecordHeaders(), value);
        }
        Object key = meta.getKey();
        return new RecordOrigin(meta.getTopic(), meta.getPartition(), meta.getOffset(), meta.getTimestamp(),
                key == null ? null : key.toString(), meta.getHeaders() == null ? new RecordHeaders() : meta.getHeaders(),
                value);
    }

    /** {@code topic-partition@offset}, for log lines. */
    public String position() {
        return topic + "-" + partition + "@" + offset;
    }
}
