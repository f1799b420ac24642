package dev.jobweaver.api.tenant.messaging;

import dev.jobweaver.api.tenant.config.TenantLimitConfig;
import dev.jobweaver.api.tenant.persistence.TenantLimitRepository;
import dev.jobweaver.api.tenant.service.StoredTenantLimit;
import dev.jobweaver.api.web.messaging.RowOutbox;
import dev.jobweaver.common.event.TenantLimitEvent;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Publishes what the publish after each commit did not: changes Kafka did not acknowledge (a crash or an outage
 * between the commit and the acknowledgement: {@code published_version < version}), and every limit last published
 * more than {@code tenant-limits.refresh-after} (3 days) ago, so that the compacted topic, whose records expire after 7
 * days, always holds every limit.
 *
 * <p>Every API instance runs it, without coordination: two instances may publish the same version, which the scheduler
 * takes once (it keeps the highest version per tenant), and record it with a guarded update ({@code published_version
 * <= v}) that never moves a row backwards. No row is locked while Kafka answers, so a change never waits for a publish.
 *
 * <p>Runs on a Vert.x event loop (a {@code Uni} method of the scheduler), never concurrently with itself; the rounds
 * are {@link RowOutbox#republishAll}.
 */
@ApplicationScoped
public class TenantLimitRepublisher {

    private static final Logger LOG = Logger.getLogger(TenantLimitRepublisher.class);

    private final TenantLimitRepository limits;
    private final TenantLimitPublisher publisher;
    private final TenantLimitConfig config;

    public TenantLimitRepublisher(TenantLimitRepository limits, TenantLimitPublisher publisher,
                                  TenantLimitConfig config) {
        this.limits = limits;
        this.publisher = publisher;
        this.config = config;
    }

    @Scheduled(every = "${jobweaver.api.tenant-limits.republish-interval:5s}", delay = 1,
            delayUnit = TimeUnit.SECONDS, concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            identity = "tenant-limit-republisher", skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledRound() {
        return republishAll()
                .onFailure().invoke(e -> LOG.warnf("tenant limit republish failed: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Rounds until one finds less than a full batch; how many limits they published. */
    public Uni<Integer> republishAll() {
        return RowOutbox.republishAll(LOG, "tenant limit(s)", config.republishBatchSize(), this::round, this::publish);
    }

    /** The events due, read in a session of their own. */
    @WithSession
    Uni<List<TenantLimitEvent>> round() {
        Instant refreshBefore = Instant.now().minus(config.refreshAfter());
        return limits.toRepublish(refreshBefore, config.republishBatchSize())
                .map(rows -> rows.stream().map(row -> StoredTenantLimit.of(row).event()).toList());
    }

    private Uni<Void> publish(TenantLimitEvent event) {
        return publisher.publish(event).onFailure().invoke(e -> LOG.debugf(
                "the limit of tenant %s not republished: %s", event.tenant(), e.getMessage()));
    }
}
