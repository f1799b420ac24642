package dev.jobweaver.api.quarantine;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.reactive.VertxContexts;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes a quarantined record's original key, value and headers to its origin topic again: a producer of raw bytes
 * of its own ({@code acks=all}, idempotent), made at the first replay, since replays are rare and most instances never
 * make one. The {@code jobweaver.quarantine.*} headers are left out, the others kept in their order; the partition is
 * the key's, as the original producer's was (the same partition while the topic keeps its partition count).
 *
 * <h2>Guarantee</h2>
 * The Uni of {@link #publish} completes only once Kafka acknowledged the record, and fails with
 * {@link ReplayFailedException} when Kafka refused it or did not answer within {@code jobweaver.api.quarantine
 * .replay-timeout}; the producer's own delivery timeout is that same bound, so a replay answered as failed is, but for
 * a race at its very end, not delivered later.
 *
 * <h2>Threads</h2>
 * {@code send} may block (for metadata, or a full buffer) up to {@code max.block.ms}, so it runs on a virtual thread;
 * the outcome comes back on the caller's Vert.x context.
 */
@ApplicationScoped
public class ReplayPublisher {

    private final Map<String, Object> kafkaConfig;
    private final Duration timeout;
    private final ExecutorService senders = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("quarantine-replay-", 0).factory());
    private KafkaProducer<byte[], byte[]> producer;

    public ReplayPublisher(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
                           QuarantineConfig config) {
        this.kafkaConfig = kafkaConfig;
        this.timeout = config.replayTimeout();
    }

    /** Publishes {@code value} keyed {@code key} with {@code headers} (encoded) to {@code topic}; see above. */
    public Uni<Void> publish(String topic, byte[] key, byte[] value, byte[] headers) {
        return Uni.createFrom().deferred(() -> {
            Executor caller = VertxContexts.callerExecutor();
            CompletableFuture<Void> acknowledged = new CompletableFuture<>();
            senders.execute(() -> {
                try {
                    ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, key, value,
                            originalHeaders(RecordHeaderCodec.decode(headers)));
                    producer().send(record, (metadata, failure) -> {
                        if (failure == null) {
                            acknowledged.complete(null);
                        } else {
                            acknowledged.completeExceptionally(failure);
                        }
                    });
                } catch (RuntimeException e) {
                    acknowledged.completeExceptionally(e);
                }
            });
            return Uni.createFrom().completionStage(acknowledged)
                    .ifNoItem().after(timeout).failWith(() -> new ReplayFailedException("Kafka did not acknowledge"
                            + " the record within " + timeout.toMillis() + " ms"))
                    .onFailure(e -> !(e instanceof ReplayFailedException)).transform(e -> new ReplayFailedException(
                            "Kafka did not take the record: " + e, e))
                    .emitOn(caller);
        });
    }

    /** {@code headers} without the quarantine's own, in their order. */
    static List<Header> originalHeaders(List<Header> headers) {
        return headers.stream().filter(h -> !h.key().startsWith(QUARANTINE_HEADER_PREFIX)).toList();
    }

    /** What every {@link QuarantineHeaders} name starts with. */
    static final String QUARANTINE_HEADER_PREFIX = "jobweaver.quarantine.";

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(producerConfig(), new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> config = new HashMap<>();
        kafkaConfig.forEach((key, value) -> {
            if (ProducerConfig.configNames().contains(key) || key.startsWith("ssl.") || key.startsWith("sasl.")
                    || key.startsWith("security.")) {
                config.put(key, value);
            }
        });
        long total = Math.max(2000, timeout.toMillis());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "jobweaver-api-quarantine-replay");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, total / 2);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) (total / 2));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) total);
        // a quarantined copy may be up to the quarantine topic's largest record; its original is no larger
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Topics.QUARANTINE_MAX_MESSAGE_BYTES);
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 4L * Topics.QUARANTINE_MAX_MESSAGE_BYTES);
        return config;
    }

    @PreDestroy
    synchronized void close() {
        senders.shutdown();
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
