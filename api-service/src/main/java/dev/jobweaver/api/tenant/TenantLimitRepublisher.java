package dev.jobweaver.api.tenant;

import dev.jobweaver.api.outbox.RowRepublisher;
import dev.jobweaver.common.event.TenantLimitEvent;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Publishes what the publish after each commit did not: changes Kafka did not acknowledge within a round (a crash or
 * an outage between the commit and the acknowledgement: {@code published_version < version}), and every limit last
 * published more than {@code tenant-limits.refresh-after} (3 days) ago, so that the compacted topic, whose records
 * expire after 7 days, always holds every limit. A change younger than one round is left to its own publish
 * ({@link RowRepublisher}).
 *
 * <p>Every API instance runs it, without coordination: two instances may publish the same version, which the scheduler
 * takes once (it keeps the highest version per tenant), and record it with a guarded update ({@code published_version
 * <= v}) that never moves a row backwards. No row is locked while Kafka answers, so a change never waits for a publish.
 *
 * <p>Its rounds are run by the outbox's republish loop, on a Vert.x event loop, never concurrently with themselves
 * ({@link RowRepublisher}).
 */
@ApplicationScoped
public class TenantLimitRepublisher extends RowRepublisher<TenantLimitEvent> {

    private static final Logger LOG = Logger.getLogger(TenantLimitRepublisher.class);

    @Inject TenantLimitRepository limits;
    @Inject TenantLimitPublisher publisher;
    @Inject TenantLimitConfig config;

    TenantLimitRepublisher() {
        super(LOG, "tenant limit(s)");
    }

    @Override
    public Rounds rounds() {
        return Rounds.of("tenant-limit-republisher", config);
    }

    /** The events due, read in a session of their own. */
    @Override
    @WithSession
    protected Uni<List<TenantLimitEvent>> due(Instant settledBefore) {
        Instant refreshBefore = Instant.now().minus(config.refreshAfter());
        return limits.toRepublish(settledBefore, refreshBefore, config.republishBatchSize())
                .map(rows -> rows.stream().map(row -> StoredTenantLimit.of(row).event()).toList());
    }

    @Override
    protected Uni<Void> republish(TenantLimitEvent event) {
        return publisher.publish(event).onFailure().invoke(e -> LOG.debugf(
                "the limit of tenant %s not republished: %s", event.tenant(), e.getMessage()));
    }
}
