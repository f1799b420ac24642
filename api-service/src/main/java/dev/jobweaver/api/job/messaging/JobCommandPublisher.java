package dev.jobweaver.api.job.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.reactive.VertxContexts;
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
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
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
 * Publishes {@link JobCommandEvent}s (a client's cancel or delete) to {@code job-commands} and reports whether Kafka
 * acknowledged each within {@code jobweaver.api.commands.timeout}.
 *
 * <p>A plain producer like {@link JobCreatedPublisher}, not an {@code Emitter} on {@code job-commands-out}, for the same
 * reasons: the client's answer waits for the acknowledgement within a bound, and a command the client was told failed
 * (503) must not be sent afterwards by a sink's retry. The producer's timeouts ({@link PublishTimings}, derived from
 * the command timeout) make its callback definitive before the caller stops waiting; a command Kafka stored but whose
 * acknowledgement was lost may still arrive, which is harmless since applying a command twice changes nothing. The
 * producer uses the service's {@code kafka.*} configuration with {@code acks=all} and idempotence; the W3C trace context
 * is injected from a PRODUCER span.
 */
@ApplicationScoped
public class JobCommandPublisher {

    private static final Logger LOG = Logger.getLogger(JobCommandPublisher.class);
    private static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> MESSAGING_DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> MESSAGING_KEY = AttributeKey.stringKey("messaging.kafka.message.key");
    private static final TextMapSetter<org.apache.kafka.common.header.Headers> HEADER_SETTER =
            (headers, key, value) -> {
                headers.remove(key);
                headers.add(key, value.getBytes(StandardCharsets.UTF_8));
            };

    private final ObjectMapper mapper;
    private final OpenTelemetry openTelemetry;
    private final Tracer tracer;
    private final PublishTimings timings;
    private final Producer<String, byte[]> producer;
    private final KafkaClientMetrics producerMetrics;
    private final ExecutorService senders = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("job-commands-send-", 0).factory());

    public JobCommandPublisher(JobApiConfig config, ObjectMapper mapper, OpenTelemetry openTelemetry, Tracer tracer,
                               @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
                               MeterRegistry registry) {
        this.mapper = mapper;
        this.openTelemetry = openTelemetry;
        this.tracer = tracer;
        this.timings = PublishTimings.of("jobweaver.api.commands.timeout", config.commands().timeout());
        this.producer = new KafkaProducer<>(producerConfig(kafkaConfig, timings), new StringSerializer(),
                new ByteArraySerializer());
        this.producerMetrics = new KafkaClientMetrics(producer);
        this.producerMetrics.bindTo(registry);
    }

    /** The job-created producer's configuration, sized for a few small records at a time and sent without linger. */
    static Map<String, Object> producerConfig(Map<String, Object> kafkaConfig, PublishTimings timings) {
        Map<String, Object> config = JobCreatedPublisher.producerConfig(kafkaConfig, timings, Duration.ZERO);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "jobweaver-api-" + Topics.JOB_COMMANDS);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 16 * 1024);
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 1024L * 1024);
        return config;
    }

    /** The timings in force. */
    public PublishTimings timings() {
        return timings;
    }

    /**
     * Sends {@code event} keyed by its jobId, with headers {@code eventId} (a random UUID) and {@code traceparent} of a
     * PRODUCER span, child of {@code parent}. The Uni completes once Kafka acknowledged the record ({@code acks=all}),
     * or fails with {@link PublishFailedException} when it refused it or did not answer within
     * {@link PublishTimings#callerWait()}. Sent on subscription, by a virtual thread since {@code send} may block up to
     * {@code max.block.ms}; the outcome is delivered on the subscriber's Vert.x context.
     */
    public Uni<Void> publish(JobCommandEvent event, Context parent) {
        return Uni.createFrom().deferred(() -> {
            Executor callerContext = VertxContexts.callerExecutor();
            long handoffDeadline = System.nanoTime() + timings.handoff().toNanos();
            CompletableFuture<Void> answer = new CompletableFuture<>();
            try {
                senders.execute(() -> send(event, parent, answer, handoffDeadline));
            } catch (RejectedExecutionException e) {
                answer.completeExceptionally(new PublishFailedException("the publisher is shut down; the "
                        + describe(event) + " was not sent", e));
            }
            return Uni.createFrom().completionStage(answer)
                    .ifNoItem().after(timings.callerWait()).failWith(() -> new PublishFailedException(
                            "no answer from Kafka within " + timings.callerWait().toMillis() + " ms", null))
                    .onFailure(e -> !(e instanceof PublishFailedException)).transform(e -> new PublishFailedException(
                            "Kafka did not acknowledge the " + describe(event) + ": " + e, e))
                    .emitOn(callerContext);
        });
    }

    private void send(JobCommandEvent event, Context parent, CompletableFuture<Void> answer, long handoffDeadline) {
        if (System.nanoTime() > handoffDeadline) {
            answer.completeExceptionally(new PublishFailedException("the " + describe(event) + " could not be handed"
                    + " to the Kafka producer within " + timings.handoff().toMillis() + " ms; it was not sent", null));
            return;
        }
        byte[] value;
        try {
            value = mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            answer.completeExceptionally(new PublishFailedException("could not serialise the " + describe(event), e));
            return;
        }
        String key = event.jobId().toString();
        Span span = tracer.spanBuilder(Topics.JOB_COMMANDS + " publish")
                .setParent(parent)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(MESSAGING_SYSTEM, "kafka")
                .setAttribute(MESSAGING_DESTINATION, Topics.JOB_COMMANDS)
                .setAttribute(MESSAGING_KEY, key)
                .startSpan();
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
        openTelemetry.getPropagators().getTextMapPropagator().inject(parent.with(span), headers, HEADER_SETTER);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.JOB_COMMANDS, null, key, value, headers);
        try {
            producer.send(record, (metadata, exception) -> {
                if (exception == null) {
                    span.end();
                    answer.complete(null);
                } else {
                    span.recordException(exception);
                    span.setStatus(StatusCode.ERROR, exception.getMessage());
                    span.end();
                    answer.completeExceptionally(new PublishFailedException("Kafka did not acknowledge the "
                            + describe(event) + ": " + exception.getMessage(), exception));
                }
            });
        } catch (RuntimeException e) {
            // send() refused the record outright (no metadata within max.block.ms, closed producer, ...).
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getMessage());
            span.end();
            answer.completeExceptionally(new PublishFailedException("Kafka did not take the " + describe(event) + ": "
                    + e.getMessage(), e));
        }
    }

    private static String describe(JobCommandEvent event) {
        return event.command() + " command";
    }

    @PreDestroy
    void close() {
        senders.shutdown();
        producerMetrics.close();
        try {
            producer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.warn("closing the job-commands producer failed", e);
        }
    }
}
