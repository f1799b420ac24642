package dev.jobweaver.api.notification;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.StatusRecord;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.messaging.Channels;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Follows {@code job-status} a second time, in its own consumer group ({@code jobweaver-api-notifications}), and makes
 * the webhook deliveries each change calls for ({@link DeliveryIntake}): one statement per poll.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll is acknowledged once its deliveries are committed and its bad records quarantined; a crash before
 *       consumes it again, and the deliveries' derived ids make the repeat change nothing.</li>
 *   <li>The quarantine rule of every consumer ({@link BatchIntake}; records read as {@code JobStatusConsumer} reads
 *       them, {@link StatusRecord}): a record that does not parse, breaks a rule or is not keyed by its jobId goes to
 *       {@code jobweaver-quarantine} with its original bytes; a statement the database refuses for good is split until
 *       the refused event stands alone and that record is quarantined as {@code REJECTED_BY_DATABASE}; a transient
 *       failure is retried with back-off until it succeeds. A tombstone is ignored.</li>
 *   <li>While no subscription exists, a poll costs one statement that reads no table row (its one-time filter).</li>
 * </ul>
 *
 * <p>Its quarantined copies are counted in {@code jobweaver_webhook_quarantined_total{reason}}, not in
 * {@code jobweaver_quarantined_total}: {@code JobStatusConsumer} reads the same records and counts a bad one there
 * already, so one bad record on {@code job-status} raises the platform's quarantine count once. The copies themselves
 * go to {@code jobweaver-quarantine} as every consumer's do, their service header naming this consumer.
 *
 * <p>The channel ({@value #CHANNEL}) is named here rather than in {@code common}'s {@code Channels}: no other service
 * has any business with it. Polls are handled one at a time, on the consumer's Vert.x context.
 */
@ApplicationScoped
public class NotificationMatcher {

    /** The incoming channel: {@code job-status}, consumer group {@code jobweaver-api-notifications}. */
    public static final String CHANNEL = "job-status-notify-in";

    private final BatchIntake<StatusRecord> intake;

    public NotificationMatcher(DeliveryIntake deliveries,
                               @Channel(Channels.QUARANTINE_OUT) MutinyEmitter<byte[]> emitter,
                               NotificationMetrics metrics, ObjectMapper mapper,
                               @ConfigProperty(name = "quarkus.application.name") String service) {
        // its own counters (a registry nobody scrapes); NotificationMetrics counts what it sets aside
        Quarantine quarantine = new Quarantine(emitter, new SimpleMeterRegistry(), service + "/notifications",
                metrics::quarantined);
        this.intake = new BatchIntake<>(CHANNEL, quarantine,
                (record, origin) -> StatusRecord.consumed(mapper, record, origin),
                records -> deliveries.statuses(records.stream().map(StatusRecord::event).toList()).replaceWithVoid());
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
