package dev.jobweaver.api.workflow.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

/**
 * The {@link Workflow} entities, with Hibernate Reactive Panache. Every method runs in the caller's reactive session on
 * its Vert.x context.
 */
@ApplicationScoped
public class WorkflowRepository implements PanacheRepositoryBase<Workflow, UUID> {

    /** The workflow unless it is deleted; null otherwise. */
    public Uni<Workflow> findLive(UUID id) {
        return find("id = ?1 and deletedAt is null", id).firstResult();
    }

    /** The workflow unless it is deleted, its row locked until the transaction ends; null otherwise. */
    public Uni<Workflow> findLiveForUpdate(UUID id) {
        return find("id = ?1 and deletedAt is null", id).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /** One page of live workflows, newest first, of {@code tenant} or of every tenant (null). */
    public Uni<List<Workflow>> page(String tenant, int page, int size) {
        Sort order = Sort.descending("createdAt", "id");
        return (tenant == null ? find("deletedAt is null", order)
                : find("tenant = ?1 and deletedAt is null", order, tenant))
                .page(Page.of(page, size)).list();
    }

    /** How many live workflows {@code tenant} has, or every tenant (null). */
    public Uni<Long> countLive(String tenant) {
        return tenant == null ? count("deletedAt is null") : count("tenant = ?1 and deletedAt is null", tenant);
    }
}
