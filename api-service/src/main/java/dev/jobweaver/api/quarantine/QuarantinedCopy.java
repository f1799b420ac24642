package dev.jobweaver.api.quarantine;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * One record of {@code jobweaver-quarantine} as it is stored: where it came from and why (its
 * {@link QuarantineHeaders}), and its raw key, value and headers.
 *
 * <p>Reading never fails: a record without the quarantine headers (or with ones that do not parse) is taken as its own
 * origin, its position on {@code jobweaver-quarantine}, from service {@value #UNKNOWN}; a missing reason reads
 * {@value #UNKNOWN}. Text columns get no NUL character (PostgreSQL refuses one) and are cut to their bounds; the raw
 * bytes are kept as they came, so a replay gives back the very record.
 *
 * @param key          the key as text, for people and filters; null for a record without a key
 * @param rawKey       the key's bytes as they are on the topic; null for a record without a key
 * @param size         the value's length in bytes
 * @param value        the value's bytes; null for a record without one
 * @param headers      every header of the copy, the quarantine ones too ({@link RecordHeaderCodec})
 * @param copyPosition where the copy itself is, {@code jobweaver-quarantine-<partition>@<offset>}, for log lines
 */
record QuarantinedCopy(UUID id, String topic, int partition, long offset, String service, String key, byte[] rawKey,
                       String reason, String detail, Instant quarantinedAt, int size, byte[] value, byte[] headers,
                       String copyPosition) {

    /** The service and the reason of a record that does not name them. */
    static final String UNKNOWN = "UNKNOWN";

    static final int MAX_TOPIC = 249;
    static final int MAX_SERVICE = 100;
    static final int MAX_REASON = 64;
    static final int MAX_KEY = 1000;

    /** The copy of {@code record}, read as the class comment says. */
    static QuarantinedCopy read(KafkaRecord<byte[], byte[]> record) {
        Headers headers = record.getHeaders();
        byte[] rawKey = record.getKey();
        byte[] value = record.getPayload();
        long copyOffset = record.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(IncomingKafkaRecordMetadata::getOffset).orElse(-1L);
        String copyPosition = Topics.QUARANTINE + "-" + record.getPartition() + "@" + copyOffset;
        String topic = text(headers, QuarantineHeaders.TOPIC, MAX_TOPIC);
        Integer partition = integer(text(headers, QuarantineHeaders.PARTITION, 20));
        Long offset = longValue(text(headers, QuarantineHeaders.OFFSET, 20));
        String detail = text(headers, QuarantineHeaders.DETAIL, QuarantineHeaders.MAX_DETAIL);
        boolean named = topic != null && !topic.isEmpty() && partition != null && offset != null;
        if (!named) {
            // a record no Quarantine wrote: it is its own origin, and stays replayable only by a Kafka client
            topic = Topics.QUARANTINE;
            partition = record.getPartition();
            offset = copyOffset;
            detail = "no origin in the jobweaver.quarantine.* headers" + (detail == null ? "" : ": " + detail);
        }
        String service = orUnknown(text(headers, QuarantineHeaders.SERVICE, MAX_SERVICE));
        String reason = orUnknown(text(headers, QuarantineHeaders.REASON, MAX_REASON));
        Instant at = instant(text(headers, QuarantineHeaders.QUARANTINED_AT, 64));
        if (at == null) {
            at = record.getTimestamp() != null ? record.getTimestamp() : Instant.now();
        }
        return new QuarantinedCopy(UUID.randomUUID(), topic, partition, offset, service,
                rawKey == null ? null : cut(new String(rawKey, StandardCharsets.UTF_8), MAX_KEY), rawKey, reason,
                detail == null ? "" : cut(detail, QuarantineHeaders.MAX_DETAIL), at.truncatedTo(ChronoUnit.MICROS),
                value == null ? 0 : value.length, value, RecordHeaderCodec.encode(headers), copyPosition);
    }

    /**
     * This copy with nothing but its position, reason, service and raw bytes: what is stored when the copy as read was
     * refused for good, so that even then the partition moves on and the bytes are kept.
     */
    QuarantinedCopy bare(String failure) {
        return new QuarantinedCopy(id, topic, partition, offset, service, null, rawKey, reason,
                cut("stored without its key text and detail: " + failure, QuarantineHeaders.MAX_DETAIL),
                quarantinedAt, size, value, headers, copyPosition);
    }

    /** {@code topic-partition@offset} of the origin, for log lines. */
    String origin() {
        return topic + "-" + partition + "@" + offset;
    }

    private static String text(Headers headers, String name, int max) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(name);
        if (header == null || header.value() == null) {
            return null;
        }
        return cut(new String(header.value(), StandardCharsets.UTF_8).strip(), max);
    }

    /** {@code text} without NUL characters, which no text column takes, and at most {@code max} characters. */
    static String cut(String text, int max) {
        String clean = text.replace('\0', '\uFFFD');
        return clean.length() <= max ? clean : clean.substring(0, max - 1) + "…";
    }

    private static String orUnknown(String text) {
        return text == null || text.isEmpty() ? UNKNOWN : text;
    }

    private static Integer integer(String text) {
        try {
            int value = text == null ? -1 : Integer.parseInt(text);
            return value >= 0 ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long longValue(String text) {
        try {
            long value = text == null ? -1 : Long.parseLong(text);
            return value >= 0 ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
