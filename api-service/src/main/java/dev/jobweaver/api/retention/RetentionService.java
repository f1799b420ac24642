package dev.jobweaver.api.retention;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Tenants' retention overrides, as Panache entities. The purge ({@link RetentionPurge}) reads them in its own
 * statements, so a change applies from its next round on; nothing else needs to learn it (the scheduler is told of each
 * purged job, not of the policy).
 */
@ApplicationScoped
public class RetentionService {

    @Inject TenantRetentionRepository retentions;

    /** The tenant's override, or null when it has none. */
    @WithSpan("find tenant retention")
    @WithSession
    public Uni<TenantRetention> find(String tenant) {
        return retentions.findById(tenant);
    }

    /**
     * Sets the tenant's override: each period given, or the default for one that is null. One transaction; two
     * first requests for the same tenant may collide on the primary key, which the caller answers by trying again
     * (the second then finds the row).
     */
    @WithSpan("set tenant retention")
    @WithTransaction
    public Uni<TenantRetention> set(String tenant, Duration completedAfter, Duration failedAfter) {
        return retentions.findById(tenant).chain(found -> {
            TenantRetention row = found != null ? found : new TenantRetention();
            row.tenant = tenant;
            row.completedAfterMs = completedAfter == null ? null : completedAfter.toMillis();
            row.failedAfterMs = failedAfter == null ? null : failedAfter.toMillis();
            // microseconds, as PostgreSQL keeps them, so that the answer and a later GET agree
            row.updatedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
            return found != null ? Uni.createFrom().item(row) : retentions.persist(row);
        });
    }
}
