package dev.jobweaver.common.quarantine;

import dev.jobweaver.common.messaging.Channels;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Sets a consumed record aside in {@code jobweaver-quarantine}, so that a record no retry can cure never holds back
 * its partition.
 *
 * <h2>Guarantee</h2>
 * The Uni of {@link #send} completes only once Kafka acknowledged the quarantined copy ({@code acks=all}); a consumer
 * acknowledges the original record only after that, so a record is either processed, quarantined, or consumed again.
 * Publishing failures (Kafka unreachable) fail the Uni of {@link #send}; {@link #sendUntilTaken} retries them itself,
 * whatever they are, so that a caller never has to choose between acknowledging a record without its copy and giving
 * up.
 *
 * <h2>What is kept</h2>
 * The copy has the original key and value byte for byte and the original headers, plus the
 * {@link QuarantineHeaders} naming its origin, the reason and the time. Every quarantined record is counted in
 * {@code jobweaver_quarantined_total{topic,reason}} and logged once, at WARN, with its position and reason.
 *
 * <h2>Threads</h2>
 * {@link #send} does not block; it may be called from an event loop or a virtual thread.
 */
@ApplicationScoped
public class Quarantine {

    private static final Logger LOG = Logger.getLogger(Quarantine.class);
    private static final int MAX_LOGGED_BYTES = 200;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private final MutinyEmitter<byte[]> emitter;
    private final MeterRegistry registry;
    private final String service;
    private final Consumer<QuarantineReason> sent;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    @Inject
    public Quarantine(@Channel(Channels.QUARANTINE_OUT) MutinyEmitter<byte[]> emitter, MeterRegistry registry,
                      @ConfigProperty(name = "quarkus.application.name", defaultValue = "jobweaver") String service) {
        this(emitter, registry, service, reason -> { });
    }

    /**
     * A quarantine of its own for a consumer whose copies are counted elsewhere as well: {@code sent} is told the
     * reason of each copy Kafka acknowledged, after the count in {@code registry}.
     */
    public Quarantine(MutinyEmitter<byte[]> emitter, MeterRegistry registry, String service,
                      Consumer<QuarantineReason> sent) {
        this.emitter = emitter;
        this.registry = registry;
        this.service = service;
        this.sent = sent;
    }

    /** Publishes the quarantined copy of {@code origin}; completes once Kafka acknowledged it. */
    public Uni<Void> send(RecordOrigin origin, QuarantineReason reason, String detail) {
        String cut = cut(detail == null ? "" : detail);
        RecordHeaders headers = new RecordHeaders();
        for (Header header : origin.headers()) {
            headers.add(header.key(), header.value());
        }
        put(headers, QuarantineHeaders.TOPIC, origin.topic());
        put(headers, QuarantineHeaders.PARTITION, Integer.toString(origin.partition()));
        put(headers, QuarantineHeaders.OFFSET, Long.toString(origin.offset()));
        if (origin.timestamp() != null) {
            put(headers, QuarantineHeaders.TIMESTAMP, origin.timestamp().toString());
        }
        put(headers, QuarantineHeaders.REASON, reason.name());
        put(headers, QuarantineHeaders.DETAIL, cut);
        put(headers, QuarantineHeaders.SERVICE, service);
        put(headers, QuarantineHeaders.QUARANTINED_AT, Instant.now().toString());
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(origin.key())
                .withHeaders(headers)
                .build();
        byte[] value = origin.value() == null ? new byte[0] : origin.value();
        return emitter.sendMessage(Message.of(value).addMetadata(metadata))
                .invoke(() -> {
                    counter(origin.topic(), reason).increment();
                    sent.accept(reason);
                    LOG.warnf("quarantined record %s key=%s: %s: %s (value starts with: %s)", origin.position(),
                            origin.key(), reason, cut, preview(origin.value()));
                });
    }

    /** Publishes the quarantined copy of {@code origin}, which failed with the permanent {@code failure}. */
    public Uni<Void> send(RecordOrigin origin, Throwable failure) {
        return send(origin, reasonOf(failure), Failures.describe(failure));
    }

    private static QuarantineReason reasonOf(Throwable failure) {
        QuarantineReason reason = Failures.permanentReason(failure);
        return reason == null ? QuarantineReason.UNPROCESSABLE : reason;
    }

    /**
     * Publishes the quarantined copy of {@code origin} like {@link #send}, and sends it again after any failure, with
     * back-off from 200 ms doubling up to 10 s, until Kafka acknowledged it: a record must never be acknowledged
     * without its copy, and a copy is a key, headers and raw bytes, which only an unreachable broker refuses.
     */
    public Uni<Void> sendUntilTaken(RecordOrigin origin, QuarantineReason reason, String detail) {
        return Uni.createFrom().deferred(() -> send(origin, reason, detail))
                .onFailure().invoke(failure -> LOG.warnf("could not quarantine %s, retrying: %s", origin.position(),
                        failure.toString()))
                .onFailure().retry().withBackOff(FIRST_BACKOFF, MAX_BACKOFF).indefinitely();
    }

    /** {@link #sendUntilTaken(RecordOrigin, QuarantineReason, String)} of a record that failed with {@code failure}. */
    public Uni<Void> sendUntilTaken(RecordOrigin origin, Throwable failure) {
        return sendUntilTaken(origin, reasonOf(failure), Failures.describe(failure));
    }

    /** How many records of {@code topic} were quarantined for {@code reason} by this service (for tests). */
    public double count(String topic, QuarantineReason reason) {
        return counter(topic, reason).count();
    }

    /** Registers the counters of {@code topics} at zero, so that they are scraped before the first record. */
    public void register(String... topics) {
        for (String topic : topics) {
            for (QuarantineReason reason : QuarantineReason.values()) {
                counter(topic, reason);
            }
        }
    }

    private Counter counter(String topic, QuarantineReason reason) {
        return counters.computeIfAbsent(topic + '\n' + reason.label(), k -> Counter.builder("jobweaver.quarantined")
                .description("Consumed records set aside in jobweaver-quarantine, by origin topic and reason")
                .tag("topic", topic)
                .tag("reason", reason.label())
                .register(registry));
    }

    private static void put(RecordHeaders headers, String name, String value) {
        headers.remove(name); // a record quarantined twice keeps its latest origin
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    static String cut(String detail) {
        String line = detail.replace('\n', ' ').replace('\r', ' ');
        return line.length() <= QuarantineHeaders.MAX_DETAIL ? line
                : line.substring(0, QuarantineHeaders.MAX_DETAIL - 1) + "…";
    }

    static String preview(byte[] value) {
        if (value == null) {
            return "null";
        }
        int n = Math.min(value.length, MAX_LOGGED_BYTES);
        StringBuilder sb = new StringBuilder(n + 3);
        for (int i = 0; i < n; i++) {
            char c = (char) (value[i] & 0xff);
            sb.append(c >= 0x20 && c < 0x7f ? c : '.');
        }
        return value.length > n ? sb.append("...").toString() : sb.toString();
    }
}
