package dev.jobweaver.api.schedule;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * What Kafka acknowledged of a schedule's timing, written back to its row, with the reactive PostgreSQL client: these
 * statements run from Kafka's callbacks, outside any request, and touch two columns, where an entity session would
 * only add a round trip.
 */
@ApplicationScoped
public class SchedulePublications {

    /**
     * {@code <=}, not {@code <}: a refresh publishes the version already acknowledged and must move
     * {@code published_at}; an acknowledgement older than one already recorded changes nothing.
     */
    private static final String PUBLISHED = """
            UPDATE schedules SET published_version = $2, published_at = now()
            WHERE id = $1 AND published_version <= $2
            """;

    /** Only a deleted row: a schedule whose tombstone was acknowledged is gone from every reader. */
    private static final String REMOVE = "DELETE FROM schedules WHERE id = $1 AND deleted_at IS NOT NULL";

    private final Pool pool;

    public SchedulePublications(Pool pool) {
        this.pool = pool;
    }

    /** Records that Kafka acknowledged {@code version} of the schedule; true if the row moved. */
    public Uni<Boolean> published(UUID id, long version) {
        return pool.preparedQuery(PUBLISHED).execute(Tuple.of(id, version)).map(rows -> rows.rowCount() > 0);
    }

    /** Removes a deleted schedule's row once its tombstone was acknowledged; true if it was there. */
    public Uni<Boolean> remove(UUID id) {
        return pool.preparedQuery(REMOVE).execute(Tuple.of(id)).map(rows -> rows.rowCount() > 0);
    }
}
