package dev.jobweaver.api.queue;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the {@code jobs} read model for {@code GET /api/queues}: per queue, its pending and running jobs and how long
 * the oldest due pending one has waited. The unfinished jobs are found through {@code jobs_status_created_at_idx}, so
 * the finished ones, however many, cost nothing.
 */
@ApplicationScoped
public class QueueStore {

    private static final String DEPTHS = """
            SELECT queue, count(*) FILTER (WHERE status = 'PENDING') AS pending,
                   count(*) FILTER (WHERE status = 'RUNNING') AS running,
                   min(next_run_at) FILTER (WHERE status = 'PENDING' AND next_run_at <= $1) AS oldest_due
            FROM jobs WHERE status IN ('PENDING', 'RUNNING') AND ($2::text IS NULL OR tenant = $2)
            GROUP BY queue ORDER BY queue""";

    /** One queue's unfinished jobs. */
    public record Depth(long pending, long running, Instant oldestDue) {
    }

    private final Pool pool;

    public QueueStore(Pool pool) {
        this.pool = pool;
    }

    /** The queues that have unfinished jobs (of {@code tenant}, or of all when null), by name. */
    public Uni<Map<String, Depth>> depths(Instant at, String tenant) {
        return pool.preparedQuery(DEPTHS).execute(Tuple.of(at.atOffset(ZoneOffset.UTC), tenant)).map(rows -> {
            Map<String, Depth> depths = new LinkedHashMap<>();
            for (Row row : rows) {
                OffsetDateTime oldest = row.getOffsetDateTime("oldest_due");
                depths.put(row.getString("queue"), new Depth(row.getLong("pending"), row.getLong("running"),
                        oldest == null ? null : oldest.toInstant()));
            }
            return depths;
        });
    }
}
