package dev.jobweaver.api.job.messaging;

import dev.jobweaver.api.job.persistence.JobStatusStore;
import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.DeserializationFailureHandler;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Follows {@code job-status} into the {@code jobs} read model, so {@code GET /api/jobs/{id}} shows the scheduler's view.
 *
 * <p>Records come in batches (one Kafka poll); a batch is applied with one statement, so one transaction
 * ({@link JobStatusStore}). An event is applied only if its version is higher than the job's {@code status_version}: an
 * older or repeated event never overwrites a newer one; of several events of one job in a batch, the highest version
 * wins. The batch is acknowledged only after the statement committed. A record that cannot be read (bad JSON, missing
 * jobId, status or version) is logged with topic, partition and offset, counted in
 * {@code jobweaver_malformed_records_total{topic}} and skipped, never retried; a tombstone is ignored. A database failure
 * is retried a few times, then the batch is nacked, which fails the channel (liveness goes DOWN and the pod restarts
 * from the last committed offset) rather than losing the updates.
 */
@ApplicationScoped
public class JobStatusConsumer {

    private static final Logger LOG = Logger.getLogger(JobStatusConsumer.class);

    private final JobStatusStore store;
    private final JobMetrics metrics;

    public JobStatusConsumer(JobStatusStore store, JobMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Incoming(Channels.JOB_STATUS_IN)
    public Uni<Void> consume(ConsumerRecords<String, JobStatusChangedEvent> records) {
        Map<UUID, JobStatusChangedEvent> latest = latestPerJob(records);
        if (latest.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Instant now = Instant.now();
        return Uni.createFrom().deferred(() -> store.applyAll(latest.values(), now))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).atMost(5)
                .onFailure().invoke(e -> LOG.errorf(e, "could not apply %d job-status event(s); the channel stops"
                        + " here and the events are consumed again from the last committed offset", latest.size()))
                .invoke(applied -> {
                    metrics.statusApplied(applied);
                    metrics.statusStale(latest.size() - applied);
                    LOG.debugf("applied %d of %d job-status event(s) of a batch of %d record(s)", (Object) applied,
                            latest.size(), records.count());
                })
                .replaceWithVoid();
    }

    /**
     * The readable events of the batch, the highest version per job; malformed records are reported here, and events
     * superseded within the batch are counted as stale (tombstones and malformed records are neither).
     */
    private Map<UUID, JobStatusChangedEvent> latestPerJob(ConsumerRecords<String, JobStatusChangedEvent> records) {
        Map<UUID, JobStatusChangedEvent> latest = new HashMap<>();
        int superseded = 0;
        for (ConsumerRecord<String, JobStatusChangedEvent> record : records) {
            JobStatusChangedEvent event = record.value();
            String reason = failureReason(record);
            if (event == null && reason == null) {
                continue; // a tombstone on the compacted topic: nothing to apply
            }
            if (!readable(event)) {
                skipMalformed(record, event, reason);
                continue;
            }
            JobStatusChangedEvent previous = latest.get(event.jobId());
            if (previous == null || previous.version() < event.version()) {
                latest.put(event.jobId(), event);
            }
            if (previous != null) {
                superseded++;
            }
        }
        metrics.statusStale(superseded);
        return latest;
    }

    /** Why SmallRye could not deserialize the record, if that is what happened. */
    private static String failureReason(ConsumerRecord<?, ?> record) {
        Header header = record.headers().lastHeader(DeserializationFailureHandler.DESERIALIZATION_FAILURE_REASON);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static boolean readable(JobStatusChangedEvent event) {
        return event != null && event.jobId() != null && event.status() != null && event.version() > 0;
    }

    private void skipMalformed(ConsumerRecord<String, JobStatusChangedEvent> record, JobStatusChangedEvent event,
                               String reason) {
        String topic = record.topic() != null ? record.topic() : Topics.JOB_STATUS;
        String why = event != null ? "jobId, status or a positive version is missing"
                : reason != null ? reason : "not a JobStatusChangedEvent";
        LOG.warnf("skipping malformed record on %s partition %d offset %d: %s", topic, record.partition(),
                record.offset(), why);
        metrics.malformed(topic);
    }
}
