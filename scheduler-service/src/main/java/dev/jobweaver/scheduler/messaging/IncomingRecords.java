package dev.jobweaver.scheduler.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.error.SchedulerErrorCode;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Reads the value of a consumed record, and skips the ones that cannot be read.
 *
 * <p>Channels consume raw bytes and the JSON is parsed here, so that every kind of malformed record (not JSON,
 * wrong types, a missing required field, an unknown step) takes one path: logged with topic, partition and offset,
 * counted in {@code jobweaver_malformed_records_total{topic}}, acknowledged and skipped. It is never retried and
 * never holds back the records behind it.
 */
@ApplicationScoped
public class IncomingRecords {

    private static final Logger LOG = Logger.getLogger(IncomingRecords.class);
    private static final int MAX_LOGGED_BYTES = 256;

    private final ObjectMapper mapper;
    private final SchedulerMetrics metrics;

    public IncomingRecords(ObjectMapper mapper, SchedulerMetrics metrics) {
        this.mapper = mapper;
        this.metrics = metrics;
    }

    /**
     * The record's value as {@code type}, or empty if it is malformed (already logged and counted).
     *
     * @param problem names what is missing or invalid in a parsed value, or returns null if it is usable
     */
    public <T> Optional<T> read(Message<byte[]> message, Class<T> type, Function<T, String> problem) {
        byte[] value = message.getPayload();
        if (value == null || value.length == 0) {
            malformed(message, "empty value");
            return Optional.empty();
        }
        T parsed;
        try {
            parsed = mapper.readValue(value, type);
        } catch (Exception e) {
            malformed(message, e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
            return Optional.empty();
        }
        String invalid = parsed == null ? "null value" : problem.apply(parsed);
        if (invalid != null) {
            malformed(message, invalid);
            return Optional.empty();
        }
        return Optional.of(parsed);
    }

    /** Acknowledges {@code message}: its offset may be committed. */
    public static Uni<Void> ack(Message<?> message) {
        return Uni.createFrom().completionStage(message::ack);
    }

    private void malformed(Message<byte[]> message, String reason) {
        Optional<IncomingKafkaRecordMetadata> meta = message.getMetadata(IncomingKafkaRecordMetadata.class);
        String topic = meta.map(IncomingKafkaRecordMetadata::getTopic).orElse("unknown");
        metrics.malformedRecord(topic);
        LOG.warnf("%s: skipping malformed record topic=%s partition=%s offset=%s key=%s: %s (value starts with: %s)",
                SchedulerErrorCode.MALFORMED_RECORD.code(), topic,
                meta.map(m -> String.valueOf(m.getPartition())).orElse("?"),
                meta.map(m -> String.valueOf(m.getOffset())).orElse("?"),
                meta.map(m -> String.valueOf(m.getKey())).orElse("?"),
                reason, preview(message.getPayload()));
    }

    private static String preview(byte[] value) {
        if (value == null) {
            return "null";
        }
        int n = Math.min(value.length, MAX_LOGGED_BYTES);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            char c = (char) (value[i] & 0xff);
            sb.append(c >= 0x20 && c < 0x7f ? c : '.');
        }
        return value.length > n ? sb + "..." : sb.toString();
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
