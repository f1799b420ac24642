package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.reactive.VertxContexts;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Publishes {@link JobCreatedEvent}s to {@code job-created} and reports Kafka's definitive answer.
 *
 * <p>Why not a SmallRye {@code Emitter}: the Kafka sink sends on one thread, so while the broker is unreachable
 * every queued send waits behind the previous one's {@code max.block.ms}, and its own retry loop may re-send a record
 * after the caller gave up, while the sweeper publishes the same row. Here each call (a group of committed jobs, or a
 * sweep's rows) is handed over by its own virtual thread, a record that cannot enter the producer within the call's
 * hand-off window is failed without being sent, and the producer's timeouts ({@link PublishTimings}) make its callback
 * definitive within the relay's bound, after which the sweeper may take the row. The producer ({@link TracedProducer})
 * uses the service's {@code kafka.*} configuration with {@code acks=all} and idempotence; the W3C trace context is
 * injected by OpenTelemetry's propagator from a PRODUCER span, as the SmallRye instrumentation would.
 */
@ApplicationScoped
public class JobCreatedPublisher {

    /** How failures name a record. */
    private static final String RECORD_NAME = "event";
    private static final TextMapSetter<Map<String, String>> MAP_SETTER = Map::put;
    private static final TextMapGetter<Map<String, String>> MAP_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final OpenTelemetry openTelemetry;
    private final TracedProducer producer;

    public JobCreatedPublisher(JobApiConfig config, ObjectMapper mapper, OpenTelemetry openTelemetry, Tracer tracer,
                               @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
                               MeterRegistry registry) {
        this.openTelemetry = openTelemetry;
        PublishTimings timings = PublishTimings.of(config.publish().deliveryTimeout());
        this.producer = new TracedProducer(Topics.JOB_CREATED,
                producerConfig(kafkaConfig, timings, config.publish().linger()), timings, mapper, openTelemetry,
                tracer, registry);
    }

    /** The producer configuration: the service's {@code kafka.*} settings, then what the no-loss design needs. */
    static Map<String, Object> producerConfig(Map<String, Object> kafkaConfig, PublishTimings timings,
                                              Duration linger) {
        Map<String, Object> config = TracedProducer.producerConfig(kafkaConfig, Topics.JOB_CREATED, timings);
        // Concurrent submissions share produce requests: a few ms of linger, and batches large enough for a whole
        // group of submissions (the default 16 KiB holds about fifty no-op jobs).
        config.put(ProducerConfig.LINGER_MS_CONFIG, (int) linger.toMillis());
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        // The producer's record buffer is on the heap, which is small (58 MB); 8 MiB is ten seconds of a burst's
        // events. When it is full, send blocks up to max.block.ms and the event is left to the relay's retry.
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 8L * 1024 * 1024);
        return config;
    }

    /** The timings in force. */
    public PublishTimings timings() {
        return producer.timings();
    }

    /** The W3C {@code traceparent} of {@code context}, to store with an outbox row; null without a valid span. */
    public String traceparentOf(Context context) {
        Map<String, String> carrier = new HashMap<>();
        openTelemetry.getPropagators().getTextMapPropagator().inject(context, carrier, MAP_SETTER);
        return carrier.get(Headers.TRACEPARENT);
    }

    /** The context a stored {@code traceparent} describes, so a late publish joins the job's trace. */
    public Context contextOf(String traceparent) {
        if (traceparent == null) {
            return Context.root();
        }
        return openTelemetry.getPropagators().getTextMapPropagator()
                .extract(Context.root(), Map.of(Headers.TRACEPARENT, traceparent), MAP_GETTER);
    }

    /**
     * One event to publish: sent keyed by its jobId with headers {@code eventId} and {@code traceparent} (of a
     * PRODUCER span, child of {@code parent}).
     *
     * @param bytes its size as the outbox bound counts it, for the relay's retry bound
     */
    public record Outgoing(JobCreatedEvent event, UUID eventId, Context parent, int bytes) {
    }

    /**
     * Hands every event to the producer, in order, and reports Kafka's answer for each: the result has one entry per
     * event, null when Kafka acknowledged it (acks=all), else why not. It completes once every event is answered,
     * always within {@link PublishTimings#callerWait()}; an event still unanswered then counts as failed.
     * The producer's {@code linger.ms} groups the records of one call (and of concurrent calls) into few requests.
     *
     * <p>The events are handed over by one virtual thread, because {@code send} may block up to {@code max.block.ms}
     * (no metadata while the broker is unreachable). Whatever has not entered the producer within the hand-off window
     * (counted from this call) is failed without being sent, so a broker outage costs one {@code max.block.ms}, not one
     * per queued event, and the answer stays within the bound. Completion is delivered on the caller's Vert.x context.
     */
    public Uni<List<PublishFailedException>> publishAll(List<Outgoing> batch) {
        int n = batch.size();
        if (n == 0) {
            return Uni.createFrom().item(List.of());
        }
        Executor callerContext = VertxContexts.callerExecutor();
        long handoffDeadline = producer.handoffDeadline();
        List<CompletableFuture<Void>> answers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            answers.add(new CompletableFuture<>());
        }
        producer.handOver(() -> {
            for (int i = 0; i < n; i++) {
                Outgoing outgoing = batch.get(i);
                producer.send(RECORD_NAME, outgoing.event(), outgoing.event().jobId(), outgoing.eventId(),
                        outgoing.parent(), answers.get(i), handoffDeadline);
            }
        }, answers, RECORD_NAME);
        CompletableFuture<Void> all = CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new));
        return Uni.createFrom().completionStage(all)
                .onFailure().recoverWithNull() // each answer is read below
                .ifNoItem().after(producer.timings().callerWait()).recoverWithItem((Void) null)
                .map(ignored -> answers.stream().map(this::outcome).toList())
                .emitOn(callerContext);
    }

    private PublishFailedException outcome(CompletableFuture<Void> answer) {
        if (!answer.isDone()) {
            return producer.unanswered();
        }
        try {
            answer.join();
            return null;
        } catch (CompletionException e) {
            return e.getCause() instanceof PublishFailedException failure ? failure
                    : new PublishFailedException("Kafka did not acknowledge the event: " + e.getCause(), e.getCause());
        }
    }

    @PreDestroy
    void close() {
        producer.close();
    }
}
