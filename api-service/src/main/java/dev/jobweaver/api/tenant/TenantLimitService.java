package dev.jobweaver.api.tenant;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Tenants' concurrency limits: stores each change, then publishes it to {@code tenant-limits} for the scheduler, which
 * enforces it at dispatch. A request is answered once its change is committed; the event follows.
 */
@ApplicationScoped
public class TenantLimitService {

    @Inject TenantLimitRepository limits;
    @Inject TenantLimitStatements statements;
    @Inject TenantLimitPublisher publisher;

    /** Sets the tenant's limit (its next version) and publishes it after the commit. */
    @WithSpan("set tenant limit")
    public Uni<StoredTenantLimit> set(String tenant, int maxRunning) {
        return statements.set(tenant, maxRunning)
                .map(change -> new StoredTenantLimit(tenant, maxRunning, change.version(), change.updatedAt()))
                .invoke(stored -> publisher.publishLater(stored.event()));
    }

    /** The tenant's limit, or null when it has none. */
    @WithSpan("find tenant limit")
    @WithSession
    public Uni<StoredTenantLimit> find(String tenant) {
        return limits.findSet(tenant).map(found -> found == null ? null : StoredTenantLimit.of(found));
    }

    /**
     * Removes the tenant's limit and publishes the removal (an event without {@code maxRunning}) after the commit;
     * false when the tenant had none, which changes and publishes nothing.
     */
    @WithSpan("remove tenant limit")
    public Uni<Boolean> remove(String tenant) {
        return statements.remove(tenant).map(change -> {
            if (change == null) {
                return false;
            }
            publisher.publishLater(new StoredTenantLimit(tenant, null, change.version(), change.updatedAt()).event());
            return true;
        });
    }
}
