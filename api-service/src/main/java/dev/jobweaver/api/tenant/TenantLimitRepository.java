package dev.jobweaver.api.tenant;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * The {@link TenantLimit} entities, with Hibernate Reactive Panache. Every method runs in the caller's reactive session
 * (a {@code @WithSession} method) on its Vert.x context.
 */
@ApplicationScoped
public class TenantLimitRepository implements PanacheRepositoryBase<TenantLimit, String> {

    /**
     * The rows the republisher must publish: changed before {@code :settledBefore} (a younger change is the publish
     * after its commit's to send), and either not acknowledged by Kafka, or a set limit last published before
     * {@code :refreshBefore} (a removed limit needs no refresh: once its event expires, the tenant has no record, which
     * also means no limit). Every change sets {@code updatedAt} ({@link TenantLimitStatements}).
     */
    private static final String DUE = """
            updatedAt < :settledBefore
            and (publishedVersion < version or (maxRunning is not null and publishedAt < :refreshBefore))
            """;

    /** The tenant's limit, or null when it has none (never had one, or it was removed). */
    public Uni<TenantLimit> findSet(String tenant) {
        return find("tenant = ?1 and maxRunning is not null", tenant).firstResult();
    }

    /** At most {@code limit} rows the republisher must publish ({@link #DUE}), oldest change first. */
    public Uni<List<TenantLimit>> toRepublish(Instant settledBefore, Instant refreshBefore, int limit) {
        return find(DUE, Sort.ascending("updatedAt"),
                Parameters.with("settledBefore", settledBefore).and("refreshBefore", refreshBefore))
                .page(Page.ofSize(limit)).list();
    }
}
