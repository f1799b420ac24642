package dev.jobweaver.api.job.outbox;

import dev.jobweaver.api.job.JobCreatedPublisher;
import dev.jobweaver.api.job.PublishTimings;
import dev.jobweaver.api.job.JobApiConfig;
import dev.jobweaver.api.job.JobMetrics;
import dev.jobweaver.api.outbox.UnpublishedEvents;
import dev.jobweaver.common.event.JobCreatedEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Publishes the outbox rows no relay is delivering any more: those whose events Kafka did not take within the relay's
 * delivery timeout (a broker outage longer than it), and those a dead instance left behind.
 *
 * <p>Which rows: rows older than the relay's bound plus a margin, from any instance (no relay holds a record that long:
 * {@link PublishTimings}); and at once, the rows this instance's previous run stored, found by its stable name
 * ({@code jobweaver.kafka.instance-id}, which tools/launcher and a StatefulSet give), since that run is dead. Rows are
 * claimed oldest first with {@code FOR UPDATE SKIP LOCKED} in one transaction that lasts until Kafka answered, so
 * several instances never publish the same row at the same time; a row Kafka did not take stays for the next sweep.
 * A sweep that claimed a full batch claims the next at once, so a long outage's backlog drains at the producer's pace.
 *
 * <p>Its sweeps are run by the outbox's {@code Republisher}, every {@code outbox.sweep-interval}, on a Vert.x event
 * loop and then on the event loops of the database's and Kafka's answers; never concurrently with itself.
 */
@ApplicationScoped
public class OutboxSweeper implements UnpublishedEvents {

    private static final Logger LOG = Logger.getLogger(OutboxSweeper.class);

    private final OutboxStore outbox;
    private final OutboxRelay relay;
    private final JobCreatedPublisher publisher;
    private final JobMetrics metrics;
    private final Duration age;
    private final Rounds rounds;
    private final String instance;
    private final Instant startedAt = Instant.now();

    OutboxSweeper(OutboxStore outbox, OutboxRelay relay, JobCreatedPublisher publisher, JobMetrics metrics,
                  JobApiConfig config,
                  @ConfigProperty(name = "jobweaver.kafka.instance-id") Optional<String> instance) {
        this.outbox = outbox;
        this.relay = relay;
        this.publisher = publisher;
        this.metrics = metrics;
        this.age = OutboxRelay.sweepAge(publisher.timings(), config);
        this.rounds = new Rounds("outbox-sweeper", config.outbox().sweepInterval(), config.outbox().sweepBatchSize());
        this.instance = instance.map(String::trim).filter(name -> !name.isEmpty()).orElse(null);
    }

    /** When this instance started: its own rows stored before are its previous run's. */
    Instant startedAt() {
        return startedAt;
    }

    /** This instance's stable name, stored with its outbox rows; null if it has none. */
    public String instance() {
        return instance;
    }

    @Override
    public Rounds rounds() {
        return rounds;
    }

    /** One sweep of at most one batch. */
    @Override
    public Uni<Round> publishOldest() {
        Instant cutoff = Instant.now().minus(age);
        return outbox.sweep(cutoff, instance, startedAt, rounds.batchSize(), this::publishAll);
    }

    /** Publishes the claimed rows through the relay; answers the jobs Kafka acknowledged. */
    private Uni<List<UUID>> publishAll(List<OutboxStore.Claimed> claimed) {
        List<JobCreatedPublisher.Outgoing> sends = new ArrayList<>(claimed.size());
        for (OutboxStore.Claimed row : claimed) {
            JobCreatedEvent event = new JobCreatedEvent(row.jobId(), row.type(), row.instruction(), row.maxRetries(),
                    row.traceId(), row.createdAt(), row.control(), row.origin());
            sends.add(new JobCreatedPublisher.Outgoing(event, row.eventId(), publisher.contextOf(row.traceparent()), 0));
        }
        return relay.publish(sends).map(OutboxRelay.Published::acknowledged).invoke(published -> {
            if (!published.isEmpty()) {
                LOG.infof("outbox: published %d job(s) the relay had not delivered (the oldest accepted at %s)",
                        published.size(), claimed.get(0).createdAt());
                metrics.sweptPublished(published.size());
            }
        });
    }
}
