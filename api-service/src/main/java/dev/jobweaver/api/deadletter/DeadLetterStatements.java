package dev.jobweaver.api.deadletter;

import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.event.DeadLetterEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The consumer's side of {@code dead_letters}, with the reactive PostgreSQL client: a poll's dead letters stored or
 * reopened in one statement, joined to the jobs read model for what the event does not carry (the job's type, its
 * workflow run, its attempts across requeues); and the count behind the open gauge. Plain SQL, as the other consumers:
 * an entity session would read each row before writing it.
 */
@ApplicationScoped
public class DeadLetterStatements {

    /**
     * Inserts a new job's dead letter OPEN; reopens a stored one only for a newer failure (the job was requeued and
     * failed again), counting each distinct newer failure of the poll in {@code dead_count}; an older or equal one (a
     * redelivery) changes nothing. One event per job reaches the insert (DISTINCT ON, the newest), since a statement
     * may change a row once. A job the read model does not hold (deleted) gets no dead letter: the scheduler forgot it
     * too, so there is nothing to requeue. Attempts go on numbering across a requeue: the read model's count, or, while
     * it lags behind the scheduler, the stored count plus this round's ({@code finalRetryCount + 1}).
     */
    private static final String UPSERT = """
            WITH input AS (
                SELECT * FROM unnest($1::uuid[], $2::text[], $3::int4[], $4::timestamptz[], $5::text[], $6::text[],
                                     $7::text[])
                    AS t(job_id, reason, final_retry_count, failed_at, trace_id, tenant, labels)
            ), newest AS (
                SELECT DISTINCT ON (i.job_id) i.*,
                       (SELECT count(DISTINCT o.failed_at) FROM input o WHERE o.job_id = i.job_id) AS failures
                FROM input i
                ORDER BY i.job_id, i.failed_at DESC
            )
            INSERT INTO dead_letters (job_id, tenant, job_type, labels, state, reason, attempts, last_error, failed_at,
                                      trace_id, dead_count, workflow_run_id, created_at, updated_at)
            SELECT n.job_id, COALESCE(n.tenant, j.tenant), j.type, COALESCE(n.labels::jsonb, j.labels), 'OPEN',
                   n.reason, GREATEST(j.attempts, n.final_retry_count + 1), COALESCE(n.reason, j.last_error),
                   n.failed_at, COALESCE(n.trace_id, j.trace_id), n.failures, j.workflow_run_id, now(), now()
            FROM newest n
            JOIN jobs j ON j.id = n.job_id
            ORDER BY n.job_id
            ON CONFLICT (job_id) DO UPDATE
            SET state = 'OPEN', reason = EXCLUDED.reason,
                attempts = GREATEST(EXCLUDED.attempts,
                                    dead_letters.attempts + (SELECT n.final_retry_count + 1 FROM newest n
                                                             WHERE n.job_id = dead_letters.job_id)),
                last_error = EXCLUDED.last_error, failed_at = EXCLUDED.failed_at, trace_id = EXCLUDED.trace_id,
                tenant = EXCLUDED.tenant, labels = EXCLUDED.labels,
                dead_count = dead_letters.dead_count + (SELECT count(DISTINCT o.failed_at) FROM input o
                                                        WHERE o.job_id = dead_letters.job_id
                                                          AND o.failed_at > dead_letters.failed_at),
                discarded_at = NULL, discard_reason = NULL, updated_at = now()
            WHERE dead_letters.failed_at < EXCLUDED.failed_at
            RETURNING job_id
            """;

    private static final String KNOWN = "SELECT id FROM jobs WHERE id = ANY($1::uuid[])";

    private static final String COUNT_OPEN = "SELECT count(*) FROM dead_letters WHERE state = 'OPEN'";

    /**
     * What one poll did.
     *
     * @param opened dead letters stored or reopened
     * @param unknownJobs events of jobs the read model does not hold
     */
    public record Applied(int opened, int unknownJobs) {
    }

    private final Pool pool;

    public DeadLetterStatements(Pool pool) {
        this.pool = pool;
    }

    /** Stores or reopens every event's dead letter in one transaction; how many were opened, how many had no job. */
    public Uni<Applied> apply(List<DeadLetterEvent> events) {
        return pool.withTransaction(connection -> apply(connection, events));
    }

    private Uni<Applied> apply(SqlConnection connection, List<DeadLetterEvent> events) {
        Set<UUID> jobs = new HashSet<>();
        events.forEach(e -> jobs.add(e.jobId()));
        return connection.preparedQuery(KNOWN).execute(Tuple.of(jobs.toArray(UUID[]::new))).chain(rows -> {
            Set<UUID> known = new HashSet<>();
            rows.forEach(row -> known.add(row.getUUID(0)));
            int unknown = (int) events.stream().filter(e -> !known.contains(e.jobId())).count();
            return connection.preparedQuery(UPSERT).execute(Tuple.from(List.of(
                            Columns.of(events, DeadLetterEvent::jobId, UUID[]::new),
                            Columns.of(events, DeadLetterEvent::reason, String[]::new),
                            Columns.of(events, DeadLetterEvent::finalRetryCount, Integer[]::new),
                            Columns.of(events, e -> e.failedAt().atOffset(ZoneOffset.UTC), OffsetDateTime[]::new),
                            Columns.of(events, DeadLetterEvent::traceId, String[]::new),
                            Columns.of(events, DeadLetterEvent::tenant, String[]::new),
                            Columns.of(events, e -> JsonColumns.write(e.labels()), String[]::new))))
                    .map(upserted -> new Applied(upserted.rowCount(), unknown));
        });
    }

    /** How many dead letters are OPEN now. */
    public Uni<Long> countOpen() {
        return pool.query(COUNT_OPEN).execute().map(rows -> {
            Row row = rows.iterator().next();
            return row.getLong(0);
        });
    }
}
