package dev.jobweaver.api.platform.db;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A Panache repository of entities that belong to a tenant and are deleted softly: what hooks, schedules and workflows
 * share. The entity has the fields {@code id}, {@code tenant}, {@code createdAt} and {@code deletedAt} (null while it
 * lives). Every method runs in the caller's reactive session on its Vert.x context.
 */
public interface LiveRowRepository<E> extends PanacheRepositoryBase<E, UUID> {

    /** The entity unless it is deleted; null otherwise. */
    default Uni<E> findLive(UUID id) {
        return find("id = ?1 and deletedAt is null", id).firstResult();
    }

    /**
     * The entity unless it is deleted, its row locked until the transaction ends ({@code FOR UPDATE}), so that
     * concurrent changes are counted one after the other; null otherwise.
     */
    default Uni<E> findLiveForUpdate(UUID id) {
        return find("id = ?1 and deletedAt is null", id).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /**
     * Deletes the entity softly: {@code delete} marks it (its {@code deletedAt} at least) with its row locked
     * ({@link #findLiveForUpdate}), in the caller's transaction. False when there is no live one.
     */
    default Uni<Boolean> deleteLive(UUID id, Consumer<E> delete) {
        return findLiveForUpdate(id).map(found -> {
            if (found == null) {
                return false;
            }
            delete.accept(found);
            return true;
        });
    }

    /** One page of live entities, newest first, of {@code tenant} or of every tenant (null). */
    default Uni<List<E>> page(String tenant, int page, int size) {
        Sort order = Sort.descending("createdAt", "id");
        return (tenant == null ? find("deletedAt is null", order)
                : find("tenant = ?1 and deletedAt is null", order, tenant))
                .page(Page.of(page, size)).list();
    }

    /** How many live entities {@code tenant} has, or every tenant (null). */
    default Uni<Long> countLive(String tenant) {
        return tenant == null ? count("deletedAt is null") : count("tenant = ?1 and deletedAt is null", tenant);
    }
}
