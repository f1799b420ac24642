package dev.jobweaver.api.schedule;

import dev.jobweaver.api.platform.db.LiveRowRepository;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * The {@link Schedule} entities, with Hibernate Reactive Panache; the live ones are read as {@link LiveRowRepository}
 * reads them. Every method runs in the caller's reactive session (a {@code @WithSession} or {@code @WithTransaction}
 * method, or {@code Panache.withTransaction}) on its Vert.x context.
 */
@ApplicationScoped
public class ScheduleRepository implements LiveRowRepository<Schedule> {

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
