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
     * The schedules the republisher must publish: changed or deleted before {@code :settledBefore} (a younger change is
     * the publish after its commit's to send), and either deleted (their tombstone), or not acknowledged by Kafka, or
     * last published before {@code :refreshBefore}. Every change and delete sets {@code updatedAt}
     * ({@link ScheduleService}).
     */
    private static final String DUE = """
            updatedAt < :settledBefore
            and (deletedAt is not null or publishedVersion < version or publishedAt < :refreshBefore)
            """;

    /** At most {@code limit} schedules the republisher must publish ({@link #DUE}), oldest change first. */
    public Uni<List<Schedule>> toRepublish(Instant settledBefore, Instant refreshBefore, int limit) {
        return find(DUE, Sort.ascending("updatedAt"),
                Parameters.with("settledBefore", settledBefore).and("refreshBefore", refreshBefore))
                .page(Page.ofSize(limit)).list();
    }
}
