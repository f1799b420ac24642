package dev.jobweaver.api.retention;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The {@link TenantRetention} entities, with Hibernate Reactive Panache. Every method runs in the caller's reactive
 * session on its Vert.x context.
 */
@ApplicationScoped
public class TenantRetentionRepository implements PanacheRepositoryBase<TenantRetention, String> {
}
