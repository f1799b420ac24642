package dev.jobweaver.api.job.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The job outbox; every call must run inside a Panache session or transaction. */
@ApplicationScoped
public class OutboxRepository implements PanacheRepositoryBase<OutboxEntry, UUID> {

    /**
     * Claims the oldest rows created before {@code cutoff} for this transaction; rows another replica (or a live
     * request's compensation) holds are skipped, so two sweepers never publish the same row at the same time.
     */
    public Uni<List<OutboxEntry>> claimOlderThan(Instant cutoff, int limit) {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("SELECT * FROM job_outbox WHERE created_at < :cutoff ORDER BY created_at"
                        + " LIMIT :limit FOR UPDATE SKIP LOCKED", OutboxEntry.class)
                .setParameter("cutoff", cutoff)
                .setParameter("limit", limit)
                .getResultList());
    }
}
