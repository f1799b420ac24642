package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.reactive.VertxContexts;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;

/**
 * Publishes {@link JobCommandEvent}s (a client's cancel, delete or requeue, the retention purge's purges) to
 * {@code job-commands} and reports whether Kafka acknowledged each within {@code jobweaver.api.commands.timeout}.
 *
 * <p>A plain producer like {@link JobCreatedPublisher}, not an {@code Emitter} on {@code job-commands-out}, for the same
 * reasons: the client's answer waits for the acknowledgement within a bound, and a command the client was told failed
 * (503) must not be sent afterwards by a sink's retry. The producer's timeouts ({@link PublishTimings}, derived from
 * the command timeout) make its callback definitive before the caller stops waiting; a command Kafka stored but whose
 * acknowledgement was lost may still arrive, which is harmless since applying a command twice changes nothing. The
 * producer ({@link TracedProducer}) uses the service's {@code kafka.*} configuration with {@code acks=all} and
 * idempotence; the W3C trace context is injected from a PRODUCER span.
 */
@ApplicationScoped
public class JobCommandPublisher {

    private final TracedProducer producer;

    public JobCommandPublisher(JobApiConfig config, ObjectMapper mapper, OpenTelemetry openTelemetry, Tracer tracer,
                               @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
                               MeterRegistry registry) {
        PublishTimings timings = PublishTimings.of("jobweaver.api.commands.timeout", config.commands().timeout());
        this.producer = new TracedProducer(Topics.JOB_COMMANDS, producerConfig(kafkaConfig, timings), timings, mapper,
                openTelemetry, tracer, registry);
    }

    /** The job-commands producer's configuration, sized for a few small records at a time and sent without linger. */
    static Map<String, Object> producerConfig(Map<String, Object> kafkaConfig, PublishTimings timings) {
        Map<String, Object> config = TracedProducer.producerConfig(kafkaConfig, Topics.JOB_COMMANDS, timings);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 16 * 1024);
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 1024L * 1024);
        return config;
    }

    /** The timings in force. */
    public PublishTimings timings() {
        return producer.timings();
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
            long handoffDeadline = producer.handoffDeadline();
            String name = describe(event);
            CompletableFuture<Void> answer = new CompletableFuture<>();
            producer.handOver(() -> producer.send(name, event, event.jobId(), UUID.randomUUID(), parent, answer,
                    handoffDeadline), List.of(answer), name);
            return awaited(answer, name, callerContext);
        });
    }

    /**
     * Sends {@code PURGE} for {@code jobIds} as few records as their partitions allow: one a partition of
     * {@code job-commands} (more when it holds over {@link JobCommandEvent#MAX_PURGED_JOBS} of them), each keyed by its
     * first job, which puts it on the partition of every job it names. A job's purge thus follows the commands sent for
     * it before, as a record of its own would. Completes once Kafka acknowledged every record, as {@link #publish}
     * does, or fails when one was not; on the subscriber's Vert.x context.
     */
    public Uni<Void> publishPurge(List<UUID> jobIds, Instant requestedAt, Context parent) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().deferred(() -> {
            Executor callerContext = VertxContexts.callerExecutor();
            long handoffDeadline = producer.handoffDeadline();
            String name = JobCommand.PURGE + " command of " + jobIds.size() + " job(s)";
            CompletableFuture<Void> answer = new CompletableFuture<>();
            producer.handOver(() -> {
                List<List<UUID>> records;
                try {
                    records = byPartition(jobIds, producer.partitionCount(), JobCommandEvent.MAX_PURGED_JOBS);
                } catch (RuntimeException e) {
                    answer.completeExceptionally(new PublishFailedException("the partitions of "
                            + Topics.JOB_COMMANDS + " are unknown; the " + name + " was not sent: " + e, e));
                    return;
                }
                List<CompletableFuture<Void>> acks = new ArrayList<>(records.size());
                for (List<UUID> ids : records) {
                    CompletableFuture<Void> ack = new CompletableFuture<>();
                    acks.add(ack);
                    producer.send(name, JobCommandEvent.purge(ids, requestedAt), ids.getFirst(), UUID.randomUUID(),
                            parent, ack, handoffDeadline);
                }
                CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).whenComplete((done, failure) -> {
                    if (failure == null) {
                        answer.complete(null);
                    } else {
                        answer.completeExceptionally(failure instanceof CompletionException ? failure.getCause()
                                : failure);
                    }
                });
            }, List.of(answer), name);
            return awaited(answer, name, callerContext);
        });
    }

    /**
     * {@code jobIds} in groups that each lie on one partition of {@code partitions}, by the producer's own rule for a
     * keyed record (murmur2 of the key's UTF-8 bytes), at most {@code max} to a group, in the order given within each.
     */
    static List<List<UUID>> byPartition(List<UUID> jobIds, int partitions, int max) {
        Map<Integer, List<UUID>> byPartition = new TreeMap<>();
        for (UUID id : jobIds) {
            byPartition.computeIfAbsent(partitionOf(id, partitions), p -> new ArrayList<>()).add(id);
        }
        List<List<UUID>> groups = new ArrayList<>();
        byPartition.values().forEach(ids -> {
            for (int from = 0; from < ids.size(); from += max) {
                groups.add(List.copyOf(ids.subList(from, Math.min(ids.size(), from + max))));
            }
        });
        return groups;
    }

    /** The partition a record keyed by {@code jobId} goes to, of {@code partitions}. */
    static int partitionOf(UUID jobId, int partitions) {
        return BuiltInPartitioner.partitionForKey(jobId.toString().getBytes(StandardCharsets.UTF_8), partitions);
    }

    private Uni<Void> awaited(CompletableFuture<Void> answer, String name, Executor callerContext) {
        return Uni.createFrom().completionStage(answer)
                .ifNoItem().after(producer.timings().callerWait()).failWith(producer::unanswered)
                .onFailure(e -> !(e instanceof PublishFailedException)).transform(e -> new PublishFailedException(
                        "Kafka did not acknowledge the " + name + ": " + e, e))
                .emitOn(callerContext);
    }

    private static String describe(JobCommandEvent event) {
        return event.command() + " command";
    }

    @PreDestroy
    void close() {
        producer.close();
    }
}
