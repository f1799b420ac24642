package dev.jobweaver.api.hook.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

/**
 * The {@link Hook} entities, with Hibernate Reactive Panache. Every method runs in the caller's reactive session
 * ({@code Panache.withSession} or {@code Panache.withTransaction}) on its Vert.x context.
 */
@ApplicationScoped
public class HookRepository implements PanacheRepositoryBase<Hook, UUID> {

    /** The hook unless it is deleted; null otherwise. */
    public Uni<Hook> findLive(UUID id) {
        return find("id = ?1 and deletedAt is null", id).firstResult();
    }

    /** The hook unless it is deleted, its row locked until the transaction ends; null otherwise. */
    public Uni<Hook> findLiveForUpdate(UUID id) {
        return find("id = ?1 and deletedAt is null", id).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /** One page of live hooks, newest first, of {@code tenant} or of every tenant (null). */
    public Uni<List<Hook>> page(String tenant, int page, int size) {
        Sort order = Sort.descending("createdAt", "id");
        return (tenant == null ? find("deletedAt is null", order)
                : find("tenant = ?1 and deletedAt is null", order, tenant))
                .page(Page.of(page, size)).list();
    }

    /** How many live hooks {@code tenant} has, or every tenant (null). */
    public Uni<Long> countLive(String tenant) {
        return tenant == null ? count("deletedAt is null") : count("tenant = ?1 and deletedAt is null", tenant);
    }
}
