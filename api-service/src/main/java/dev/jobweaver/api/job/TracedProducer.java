package dev.jobweaver.api.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.messaging.Headers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * A Kafka producer for one topic, with its client metrics, the virtual threads that hand records to it, and a PRODUCER
 * span around each send; what {@link JobCreatedPublisher} and {@link JobCommandPublisher} share.
 *
 * <p>The producer's timeouts come from the owner's {@link PublishTimings}, so each record's answer is definitive
 * within {@link PublishTimings#callerWait()} of the publish call, and a record that missed its hand-off window is failed
 * without being sent: a record the caller was told failed is never sent afterwards by the producer. {@link #handOver}
 * is called on the caller's thread, {@link #send} on a sender (virtual) thread; answers complete on the producer's I/O
 * thread, or on the sender thread when the record never entered the producer.
 */
final class TracedProducer {

    private static final Logger LOG = Logger.getLogger(TracedProducer.class);
    private static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> MESSAGING_DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> MESSAGING_KEY = AttributeKey.stringKey("messaging.kafka.message.key");
    private static final TextMapSetter<org.apache.kafka.common.header.Headers> HEADER_SETTER =
            (headers, key, value) -> {
                headers.remove(key);
                headers.add(key, value.getBytes(StandardCharsets.UTF_8));
            };

    private final String topic;
    private final String spanName;
    private final PublishTimings timings;
    private final ObjectMapper mapper;
    private final OpenTelemetry openTelemetry;
    private final Tracer tracer;
    private final Producer<String, byte[]> producer;
    private final KafkaClientMetrics producerMetrics;
    private final ExecutorService senders;

    /** A producer for {@code topic} built from {@code config} (see {@link #producerConfig}), its metrics bound. */
    TracedProducer(String topic, Map<String, Object> config, PublishTimings timings, ObjectMapper mapper,
                   OpenTelemetry openTelemetry, Tracer tracer, MeterRegistry registry) {
        this.topic = topic;
        this.spanName = topic + " publish";
        this.timings = timings;
        this.mapper = mapper;
        this.openTelemetry = openTelemetry;
        this.tracer = tracer;
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        this.producerMetrics = new KafkaClientMetrics(producer);
        this.producerMetrics.bindTo(registry);
        this.senders = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(topic + "-send-", 0).factory());
    }

    /**
     * The settings every publisher needs: the service's {@code kafka.*} settings, then what the no-loss design needs
     * ({@code acks=all}, idempotence, the timeouts of {@code timings}). Batching and buffer sizes are the owner's.
     */
    static Map<String, Object> producerConfig(Map<String, Object> kafkaConfig, String topic, PublishTimings timings) {
        Map<String, Object> config = new HashMap<>();
        kafkaConfig.forEach((key, value) -> {
            if (ProducerConfig.configNames().contains(key) || key.startsWith("ssl.") || key.startsWith("sasl.")
                    || key.startsWith("security.")) {
                config.put(key, value);
            }
        });
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "jobweaver-api-" + topic);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timings.maxBlock().toMillis());
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timings.requestTimeout().toMillis());
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) timings.deliveryTimeout().toMillis());
        // Reconnect quickly once the broker is back, so that the first records after an outage succeed.
        config.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        return config;
    }

    /** The timings in force. */
    PublishTimings timings() {
        return timings;
    }

    /**
     * How many partitions the topic has, as the producer's metadata says; blocks up to {@code max.block.ms} while it
     * has none (a sender thread's call, like {@link #send}).
     */
    int partitionCount() {
        return producer.partitionsFor(topic).size();
    }

    /** The latest {@link System#nanoTime()} at which a record of a publish call made now may enter the producer. */
    long handoffDeadline() {
        return System.nanoTime() + timings.handoff().toNanos();
    }

    /**
     * Runs {@code sends} on a sender thread of its own, because {@code send} may block up to {@code max.block.ms}; when
     * the producer is shut down, fails every one of {@code answers} instead, naming the record {@code what}.
     */
    void handOver(Runnable sends, List<CompletableFuture<Void>> answers, String what) {
        try {
            senders.execute(sends);
        } catch (RejectedExecutionException e) {
            answers.forEach(answer -> answer.completeExceptionally(
                    new PublishFailedException("the publisher is shut down; the " + what + " was not sent", e)));
        }
    }

    /** The failure of a record whose answer did not arrive within {@link PublishTimings#callerWait()}. */
    PublishFailedException unanswered() {
        return new PublishFailedException("no answer from Kafka within " + timings.callerWait().toMillis() + " ms",
                null);
    }

    /**
     * Sends {@code payload} as JSON keyed by {@code jobId}, with headers {@code eventId} and {@code traceparent} (of a
     * PRODUCER span, child of {@code parent}), and completes {@code answer} with Kafka's answer (acks=all), or with a
     * {@link PublishFailedException} naming the record {@code what}. Past {@code handoffDeadline} the record is failed
     * without being sent. Runs on a sender thread.
     */
    void send(String what, Object payload, UUID jobId, UUID eventId, Context parent, CompletableFuture<Void> answer,
              long handoffDeadline) {
        if (System.nanoTime() > handoffDeadline) {
            answer.completeExceptionally(new PublishFailedException("the " + what + " could not be handed to the Kafka"
                    + " producer within " + timings.handoff().toMillis() + " ms; it was not sent", null));
            return;
        }
        byte[] value;
        try {
            value = mapper.writeValueAsBytes(payload);
        } catch (JsonProcessingException e) {
            answer.completeExceptionally(new PublishFailedException("could not serialise the " + what, e));
            return;
        }
        String key = jobId.toString();
        Span span = tracer.spanBuilder(spanName)
                .setParent(parent)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(MESSAGING_SYSTEM, "kafka")
                .setAttribute(MESSAGING_DESTINATION, topic)
                .setAttribute(MESSAGING_KEY, key)
                .startSpan();
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, eventId.toString().getBytes(StandardCharsets.UTF_8));
        openTelemetry.getPropagators().getTextMapPropagator().inject(parent.with(span), headers, HEADER_SETTER);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, null, key, value, headers);
        try {
            producer.send(record, (metadata, exception) -> {
                if (exception == null) {
                    span.end();
                    answer.complete(null);
                } else {
                    span.recordException(exception);
                    span.setStatus(StatusCode.ERROR, exception.getMessage());
                    span.end();
                    answer.completeExceptionally(new PublishFailedException("Kafka did not acknowledge the " + what
                            + ": " + exception.getMessage(), exception));
                }
            });
        } catch (RuntimeException e) {
            // send() refused the record outright (no metadata within max.block.ms, closed producer, ...).
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getMessage());
            span.end();
            answer.completeExceptionally(new PublishFailedException("Kafka did not take the " + what + ": "
                    + e.getMessage(), e));
        }
    }

    /** Stops taking records, then gives the producer a few seconds to deliver those it holds. */
    void close() {
        senders.shutdown();
        producerMetrics.close();
        try {
            producer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.warn("closing the " + topic + " producer failed", e);
        }
    }
}
