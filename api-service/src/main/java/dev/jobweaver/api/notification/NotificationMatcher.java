package dev.jobweaver.api.notification;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.StatusRecord;
import dev.jobweaver.api.job.StatusRecord.Unusable;
import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.reactive.VertxContexts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Follows {@code job-status} a second time, in its own consumer group ({@code jobweaver-api-notifications}), and makes
 * the webhook deliveries each change calls for ({@link DeliveryIntake}): one statement per poll.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll is acknowledged once its deliveries are committed and its bad records quarantined; a crash before
 *       consumes it again, and the deliveries' derived ids make the repeat change nothing.</li>
 *   <li>The quarantine rule of every consumer ({@code JobStatusConsumer}'s): a record that does not parse, breaks a rule
 *       or is not keyed by its jobId goes to {@code jobweaver-quarantine} with its original bytes; a statement the
 *       database refuses for good is split until the refused event stands alone and that record is quarantined as
 *       {@code REJECTED_BY_DATABASE}; a transient failure is retried with back-off until it succeeds. A tombstone is
 *       ignored.</li>
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

    private static final Logger LOG = Logger.getLogger(NotificationMatcher.class);
    private static final UnaryOperator<Uni<Void>> RETRY_TRANSIENT = Bisection.retryForever(Duration.ofMillis(200),
            Duration.ofSeconds(10));
    /** Quarantine publishes of one poll in flight at once: well under the emitter's buffer of 128. */
    private static final int QUARANTINE_CONCURRENCY = 32;

    private final DeliveryIntake intake;
    private final Quarantine quarantine;
    private final NotificationMetrics metrics;
    private final ObjectMapper mapper;
    private final Bisection<StatusRecord> bisection;

    public NotificationMatcher(DeliveryIntake intake, @Channel(Channels.QUARANTINE_OUT) MutinyEmitter<byte[]> emitter,
                               NotificationMetrics metrics, ObjectMapper mapper,
                               @ConfigProperty(name = "quarkus.application.name") String service) {
        this.intake = intake;
        // its own counters (a registry nobody scrapes); NotificationMetrics counts what it sets aside
        this.quarantine = new Quarantine(emitter, new SimpleMeterRegistry(), service + "/notifications");
        this.metrics = metrics;
        this.mapper = mapper;
        this.bisection = new Bisection<>(this::round, RETRY_TRANSIENT, (item, failure) -> {
            QuarantineReason reason = Failures.permanentReason(failure);
            return quarantine.send(item.origin(), failure)
                    .invoke(() -> metrics.quarantined(reason == null ? QuarantineReason.UNPROCESSABLE : reason));
        });
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Unusable> unusable = new ArrayList<>();
        List<StatusRecord> usable = read(batch.getRecords(), unusable);
        Uni<Void> done = setAside(unusable)
                .chain(() -> bisection.apply(usable))
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().call(failure -> {
                    LOG.errorf(failure, "could not make the deliveries of %d job-status event(s) or quarantine %d"
                            + " record(s); the channel stops here and the poll is consumed again from the last"
                            + " committed offset", usable.size(), unusable.size());
                    return Uni.createFrom().completionStage(() -> batch.nack(failure))
                            .onFailure().recoverWithNull();
                });
        return VertxContexts.backToCaller(done);
    }

    /** One all-or-nothing statement for {@code records}; the unit {@link #bisection} splits. */
    private Uni<Void> round(List<StatusRecord> records) {
        return intake.statuses(records.stream().map(StatusRecord::event).toList()).replaceWithVoid();
    }

    private Uni<Void> setAside(List<Unusable> unusable) {
        if (unusable.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(unusable)
                .onItem().transformToUni(bad -> RETRY_TRANSIENT.apply(Uni.createFrom().deferred(
                        () -> quarantine.send(bad.origin(), bad.reason(), bad.detail())
                                .invoke(() -> metrics.quarantined(bad.reason())))))
                .merge(QUARANTINE_CONCURRENCY)
                .collect().last()
                .replaceWithVoid();
    }

    /** The usable events of a poll, in order; the others go to {@code unusable}; tombstones are skipped. */
    private List<StatusRecord> read(List<KafkaRecord<String, byte[]>> records, List<Unusable> unusable) {
        List<StatusRecord> usable = new ArrayList<>(records.size());
        for (KafkaRecord<String, byte[]> record : records) {
            StatusRecord read = StatusRecord.read(mapper, record, unusable);
            if (read != null) {
                usable.add(read);
            }
        }
        return usable;
    }
}
