package dev.jobweaver.api.security;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

/**
 * The {@link ApiKey} entities, with Hibernate Reactive Panache. Every method runs in the caller's reactive session on
 * its Vert.x context.
 */
@ApplicationScoped
public class ApiKeyRepository implements PanacheRepositoryBase<ApiKey, UUID> {

    /** One page of the tenant's keys, revoked ones included, newest first. */
    public Uni<List<ApiKey>> page(String tenant, int page, int size) {
        return find("tenant = ?1", Sort.descending("createdAt", "id"), tenant).page(Page.of(page, size)).list();
    }

    /** How many keys the tenant has, revoked ones included. */
    public Uni<Long> countOf(String tenant) {
        return count("tenant = ?1", tenant);
    }

    /** The tenant's key {@code id}, its row locked until the transaction ends; null when the tenant has none such. */
    public Uni<ApiKey> findForUpdate(String tenant, UUID id) {
        return find("id = ?1 and tenant = ?2", id, tenant).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }
}
