package dev.jobweaver.scheduler.job.messaging;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Headers;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Publishes the scheduler's events, keyed by jobId, with an {@code eventId} header and the job's trace context.
 *
 * <p>Every returned {@link Uni} completes only when Kafka acknowledged the record ({@code acks=all}); callers
 * commit their transaction after that (see the dual-write rule in the services' javadoc and the README).
 */
@ApplicationScoped
public class JobEventPublisher {

    private final MutinyEmitter<RunJobEvent> runJob;
    private final MutinyEmitter<JobStatusChangedEvent> status;
    private final MutinyEmitter<DeadLetterEvent> deadLetter;

    public JobEventPublisher(@Channel(Channels.RUN_JOB_OUT) MutinyEmitter<RunJobEvent> runJob,
                             @Channel(Channels.JOB_STATUS_OUT) MutinyEmitter<JobStatusChangedEvent> status,
                             @Channel(Channels.JOB_DEAD_LETTER_OUT) MutinyEmitter<DeadLetterEvent> deadLetter) {
        this.runJob = runJob;
        this.status = status;
        this.deadLetter = deadLetter;
    }

    /** Publishes a run; its eventId is derived from (jobId, attempt), so a re-dispatch carries the same one. */
    public Uni<Void> run(RunJobEvent event, Context trace) {
        return send(runJob, event.jobId(), event.eventId(), event, trace);
    }

    /** Publishes a status change; its eventId is derived from (jobId, version). */
    public Uni<Void> status(JobStatusChangedEvent event, Context trace) {
        return send(status, event.jobId(), EventIds.statusEventId(event.jobId(), event.version()), event, trace);
    }

    /** Publishes a dead letter; a job dead-letters once, so its eventId is derived from the jobId. */
    public Uni<Void> deadLetter(DeadLetterEvent event, Context trace) {
        return send(deadLetter, event.jobId(), deadLetterEventId(event.jobId()), event, trace);
    }

    /** The eventId of the dead letter of {@code jobId}. */
    public static UUID deadLetterEventId(UUID jobId) {
        return UUID.nameUUIDFromBytes(("dead-letter:" + jobId).getBytes(StandardCharsets.UTF_8));
    }

    private static <T> Uni<Void> send(MutinyEmitter<T> emitter, UUID jobId, UUID eventId, T payload, Context trace) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, eventId.toString().getBytes(StandardCharsets.UTF_8));
        OutgoingKafkaRecordMetadata<String> kafka = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(jobId.toString())
                .withHeaders(headers)
                .build();
        Metadata metadata = trace == null
                ? Metadata.of(kafka)
                : Metadata.of(kafka, TracingMetadata.withCurrent(trace));
        return emitter.sendMessage(Message.of(payload, metadata));
    }
}
