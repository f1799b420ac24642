package dev.jobweaver.api.job.messaging;

import dev.jobweaver.api.job.persistence.JobRepository;
import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.DeserializationFailureHandler;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * Follows {@code job-status} into the {@code jobs} read model, so {@code GET /api/jobs/{id}} shows the scheduler's view.
 *
 * <p>An event is applied only if its version is higher than the job's {@code status_version}: an older or repeated
 * event never overwrites a newer one. The record is acknowledged only after the database update committed. A record
 * that cannot be read (bad JSON, missing jobId, status or version) is logged with topic, partition and offset,
 * counted in {@code jobweaver_malformed_records_total{topic}} and skipped, never retried. A database failure is
 * retried a few times, then the message is nacked, which fails the channel (liveness goes DOWN and the pod restarts
 * from the last committed offset) rather than losing the update.
 */
@ApplicationScoped
public class JobStatusConsumer {

    private static final Logger LOG = Logger.getLogger(JobStatusConsumer.class);

    private final JobRepository jobs;
    private final JobMetrics metrics;

    public JobStatusConsumer(JobRepository jobs, JobMetrics metrics) {
        this.jobs = jobs;
        this.metrics = metrics;
    }

    @Incoming(Channels.JOB_STATUS_IN)
    public Uni<Void> consume(Message<JobStatusChangedEvent> message) {
        JobStatusChangedEvent event = message.getPayload();
        if (event == null && failureReason(message) == null) {
            // A tombstone on the compacted topic: nothing to apply.
            return Uni.createFrom().completionStage(message.ack());
        }
        if (!readable(event)) {
            skipMalformed(message, event);
            return Uni.createFrom().completionStage(message.ack());
        }
        MDC.put("jobId", event.jobId().toString());
        if (event.traceId() != null) {
            MDC.put("jobTraceId", event.traceId());
        }
        return Panache.withTransaction(() -> jobs.applyStatus(event, Instant.now()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).atMost(5)
                .onItem().invoke(updated -> {
                    if (updated > 0) {
                        metrics.statusApplied();
                        LOG.debugf("job %s is %s (version %d)", event.jobId(), event.status(), event.version());
                    } else {
                        metrics.statusStale();
                        LOG.debugf("ignored status %s version %d of job %s: stale, repeated or unknown job",
                                event.status(), event.version(), event.jobId());
                    }
                })
                .chain(ignored -> Uni.createFrom().completionStage(message.ack()))
                .onFailure().recoverWithUni(e -> {
                    LOG.errorf(e, "could not apply status %s version %d of job %s", event.status(), event.version(),
                            event.jobId());
                    return Uni.createFrom().completionStage(message.nack(e));
                })
                .eventually(() -> {
                    MDC.remove("jobId");
                    MDC.remove("jobTraceId");
                });
    }

    /** Why SmallRye could not deserialize the record, if that is what happened. */
    @SuppressWarnings("rawtypes")
    private static String failureReason(Message<?> message) {
        return message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(meta -> meta.getHeaders().lastHeader(DeserializationFailureHandler.DESERIALIZATION_FAILURE_REASON))
                .map(header -> new String(header.value(), StandardCharsets.UTF_8))
                .orElse(null);
    }

    private static boolean readable(JobStatusChangedEvent event) {
        return event != null && event.jobId() != null && event.status() != null && event.version() > 0;
    }

    private void skipMalformed(Message<JobStatusChangedEvent> message, JobStatusChangedEvent event) {
        @SuppressWarnings("rawtypes")
        Optional<IncomingKafkaRecordMetadata> meta = message.getMetadata(IncomingKafkaRecordMetadata.class);
        String topic = meta.map(IncomingKafkaRecordMetadata::getTopic).orElse(Topics.JOB_STATUS);
        String reason = failureReason(message);
        String why = event != null ? "jobId, status or a positive version is missing"
                : reason != null ? reason : "not a JobStatusChangedEvent";
        LOG.warnf("skipping malformed record on %s partition %d offset %d: %s", topic,
                meta.map(IncomingKafkaRecordMetadata::getPartition).orElse(-1),
                meta.map(IncomingKafkaRecordMetadata::getOffset).orElse(-1L), why);
        metrics.malformed(topic);
    }
}
