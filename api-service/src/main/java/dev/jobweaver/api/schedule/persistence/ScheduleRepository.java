package dev.jobweaver.api.schedule.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The {@link Schedule} entities, with Hibernate Reactive Panache. Every method runs in the caller's reactive session
 * (a {@code @WithSession} or {@code @WithTransaction} method, or {@code Panache.withTransaction}) on its Vert.x context.
 */
@ApplicationScoped
public class ScheduleRepository implements PanacheRepositoryBase<Schedule, UUID> {

    /** The schedule unless it is deleted; null otherwise. */
    public Uni<Schedule> findLive(UUID id) {
        return find("id = ?1 and deletedAt is null", id).firstResult();
    }

    /**
     * The schedule unless it is deleted, its row locked until the transaction ends ({@code FOR UPDATE}), so that
     * concurrent changes are counted one after the other; null otherwise.
     */
    public Uni<Schedule> findLiveForUpdate(UUID id) {
        return find("id = ?1 and deletedAt is null", id).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /** One page of live schedules, newest first, of {@code tenant} or of every tenant (null). */
    public Uni<List<Schedule>> page(String tenant, int page, int size) {
        Sort order = Sort.descending("createdAt", "id");
        return (tenant == null ? find("deletedAt is null", order)
                : find("tenant = ?1 and deletedAt is null", order, tenant))
                .page(Page.of(page, size)).list();
    }

    /** How many live schedules {@code tenant} has, or every tenant (null). */
    public Uni<Long> countLive(String tenant) {
        return tenant == null ? count("deletedAt is null") : count("tenant = ?1 and deletedAt is null", tenant);
    }

    /**
     * At most {@code limit} schedules the republisher must publish: deleted ones (their tombstone), those whose latest
     * change Kafka has not acknowledged, and those last published before {@code refreshBefore}; oldest change first.
     */
    public Uni<List<Schedule>> toRepublish(Instant refreshBefore, int limit) {
        return find("deletedAt is not null or publishedVersion < version or publishedAt < :refreshBefore",
                Sort.ascending("updatedAt"), Parameters.with("refreshBefore", refreshBefore))
                .page(Page.ofSize(limit)).list();
    }
}
