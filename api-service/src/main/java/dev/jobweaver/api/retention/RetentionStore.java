package dev.jobweaver.api.retention;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What the purge reads and deletes in the API's database, every statement of it here, with the reactive PostgreSQL
 * client. Each method is one statement, hence one short transaction: a batch's rows are locked only while that
 * statement deletes them.
 *
 * <h2>Finding what is due</h2>
 * A finished job is due when it finished longer ago than its retention: its tenant's override for its status, else
 * the configured default ({@code COMPLETED}: completedAfter; {@code FAILED}, {@code CANCELLED}, {@code REJECTED}:
 * failedAfter). The walk reads the partial index {@code jobs_finished_idx} (tenant, status, finished_at): the tenants
 * that have finished jobs by a loose index scan (one probe per tenant), then each (tenant, status) range from its
 * oldest finish up to its own cutoff, so a round reads only due rows, whatever other tenants or statuses keep. Finished
 * workflow runs the same way over {@code workflow_runs_finished_idx}.
 *
 * <p>A node job of a run that has not finished is not due: its result may still be an input of a node to come.
 */
@ApplicationScoped
public class RetentionStore {

    /** The statuses a job ends in; the predicate of {@code jobs_finished_idx}, repeated so that the planner uses it. */
    private static final String FINISHED = "('COMPLETED', 'FAILED', 'CANCELLED', 'REJECTED')";

    /**
     * $1 now, $2 the default completedAfter (ms), $3 the default failedAfter (ms), $4 the batch. Oldest finish first
     * within each range; the ranges in tenant order.
     */
    private static final String DUE_JOBS = """
            WITH RECURSIVE tenants(tenant) AS (
                SELECT min(tenant) FROM jobs WHERE status IN %1$s
                UNION ALL
                SELECT (SELECT min(j.tenant) FROM jobs j WHERE j.status IN %1$s AND j.tenant > t.tenant)
                FROM tenants t WHERE t.tenant IS NOT NULL
            )
            SELECT d.id, d.created_at
            FROM tenants t
            LEFT JOIN tenant_retention r ON r.tenant = t.tenant
            CROSS JOIN unnest(ARRAY['COMPLETED', 'FAILED', 'CANCELLED', 'REJECTED']) AS s(status)
            CROSS JOIN LATERAL (
                SELECT j.id, j.created_at FROM jobs j
                WHERE j.tenant = t.tenant AND j.status = s.status AND j.status IN %1$s
                  AND j.finished_at < $1::timestamptz - (CASE WHEN s.status = 'COMPLETED'
                      THEN coalesce(r.completed_after_ms, $2) ELSE coalesce(r.failed_after_ms, $3) END)
                      * interval '1 millisecond'
                  AND (j.workflow_run_id IS NULL OR NOT EXISTS (
                      SELECT 1 FROM workflow_runs w WHERE w.id = j.workflow_run_id AND w.finished_at IS NULL))
                ORDER BY j.finished_at
                LIMIT $4
            ) d
            WHERE t.tenant IS NOT NULL
            LIMIT $4
            """.formatted(FINISHED);

    /**
     * Deletes the jobs $1 (created at $2, in the same order) that are still finished, with everything of them: the
     * outbox row (so no sweeper publishes the job again), attempts, subscriptions (their deliveries by cascade), the
     * deliveries of other subscriptions about the job, the dead letter, the idempotency keys (each written with its job
     * and the same created_at, so the keys' created_at index finds them) and the quarantined copies (keyed by the
     * jobId). A job whose dead letter was requeued after $3 is spared: its read model may not show the scheduler's
     * PENDING yet, and the next round sees it as it is. A job that changed since it was found (a requeue made it
     * PENDING) is spared by the status condition, which PostgreSQL checks again on a row it waited for.
     */
    private static final String PURGE_JOBS = """
            WITH gone AS (
                DELETE FROM jobs j
                USING unnest($1::uuid[], $2::timestamptz[]) AS b(id, created_at)
                WHERE j.id = b.id AND j.status IN %s
                  AND NOT EXISTS (SELECT 1 FROM dead_letters d
                                  WHERE d.job_id = j.id AND d.state = 'REQUEUED' AND d.requeued_at > $3)
                RETURNING j.id, j.created_at
            ),
            outbox AS (DELETE FROM job_outbox o USING gone WHERE o.job_id = gone.id),
            attempts AS (DELETE FROM job_attempts a USING gone WHERE a.job_id = gone.id),
            subscriptions AS (DELETE FROM subscriptions s USING gone WHERE s.job_id = gone.id),
            deliveries AS (DELETE FROM deliveries d USING gone WHERE d.job_id = gone.id),
            dead_letters AS (DELETE FROM dead_letters d USING gone WHERE d.job_id = gone.id),
            idempotency_keys AS (DELETE FROM idempotency_keys k USING gone
                                 WHERE k.created_at = gone.created_at AND k.job_id = gone.id),
            quarantined AS (DELETE FROM quarantined_records q USING gone WHERE q.record_key = gone.id::text)
            SELECT id FROM gone
            """.formatted(FINISHED);

    /** $1 now, $2 default completedAfter (ms), $3 default failedAfter (ms), $4 the batch. */
    private static final String DUE_RUNS = """
            WITH RECURSIVE tenants(tenant) AS (
                SELECT min(tenant) FROM workflow_runs WHERE finished_at IS NOT NULL
                UNION ALL
                SELECT (SELECT min(w.tenant) FROM workflow_runs w WHERE w.finished_at IS NOT NULL
                        AND w.tenant > t.tenant)
                FROM tenants t WHERE t.tenant IS NOT NULL
            )
            SELECT d.id
            FROM tenants t
            LEFT JOIN tenant_retention r ON r.tenant = t.tenant
            CROSS JOIN unnest(ARRAY['COMPLETED', 'FAILED', 'CANCELLED']) AS s(status)
            CROSS JOIN LATERAL (
                SELECT w.id FROM workflow_runs w
                WHERE w.tenant = t.tenant AND w.status = s.status AND w.finished_at IS NOT NULL
                  AND w.finished_at < $1::timestamptz - (CASE WHEN s.status = 'COMPLETED'
                      THEN coalesce(r.completed_after_ms, $2) ELSE coalesce(r.failed_after_ms, $3) END)
                      * interval '1 millisecond'
                ORDER BY w.finished_at
                LIMIT $4
            ) d
            WHERE t.tenant IS NOT NULL
            LIMIT $4
            """;

    /** Deletes the finished runs $1 with the deliveries that tell of them (run subscriptions name the workflow). */
    private static final String PURGE_RUNS = """
            WITH gone AS (
                DELETE FROM workflow_runs w WHERE w.id = ANY($1::uuid[]) AND w.finished_at IS NOT NULL
                RETURNING w.id
            ),
            deliveries AS (DELETE FROM deliveries d USING gone WHERE d.run_id = gone.id)
            SELECT id FROM gone
            """;

    /** A batch of the oldest events received before $1; ctid keeps the delete to the rows the subquery picked. */
    private static final String PURGE_EVENTS = """
            DELETE FROM application_events WHERE ctid = ANY (ARRAY(
                SELECT ctid FROM application_events WHERE received_at < $1 ORDER BY received_at LIMIT $2))
            """;

    /** A batch of the oldest quarantined records stored before $1, as {@link #PURGE_EVENTS}. */
    private static final String PURGE_QUARANTINED = """
            DELETE FROM quarantined_records WHERE ctid = ANY (ARRAY(
                SELECT ctid FROM quarantined_records WHERE stored_at < $1 ORDER BY stored_at LIMIT $2))
            """;

    /** A finished job past its retention: what its purge command and its delete need. */
    public record DueJob(UUID id, Instant createdAt) {
    }

    private final Pool pool;

    public RetentionStore(Pool pool) {
        this.pool = pool;
    }

    /** At most {@code batch} finished jobs whose retention ended before {@code now}. Reads only; locks nothing. */
    public Uni<List<DueJob>> dueJobs(Instant now, Duration completedAfter, Duration failedAfter, int batch) {
        return pool.preparedQuery(DUE_JOBS)
                .execute(Tuple.of(utc(now), completedAfter.toMillis(), failedAfter.toMillis(), batch))
                .map(rows -> {
                    List<DueJob> due = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        due.add(new DueJob(row.getUUID("id"), row.getOffsetDateTime("created_at").toInstant()));
                    }
                    return due;
                });
    }

    /**
     * Deletes {@code jobs} with everything of them, those still finished and not just requeued (see
     * {@link #PURGE_JOBS}); the ids deleted.
     */
    public Uni<List<UUID>> purgeJobs(List<DueJob> jobs, Instant requeuedBefore) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery(PURGE_JOBS)
                .execute(Tuple.of(jobs.stream().map(DueJob::id).toArray(UUID[]::new),
                        jobs.stream().map(j -> utc(j.createdAt())).toArray(OffsetDateTime[]::new),
                        utc(requeuedBefore)))
                .map(RetentionStore::ids);
    }

    /** At most {@code batch} finished workflow runs whose retention ended before {@code now}. Reads only. */
    public Uni<List<UUID>> dueRuns(Instant now, Duration completedAfter, Duration failedAfter, int batch) {
        return pool.preparedQuery(DUE_RUNS)
                .execute(Tuple.of(utc(now), completedAfter.toMillis(), failedAfter.toMillis(), batch))
                .map(RetentionStore::ids);
    }

    /** Deletes the runs {@code runIds} that are finished, with their deliveries; the ids deleted. */
    public Uni<List<UUID>> purgeRuns(List<UUID> runIds) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery(PURGE_RUNS).execute(Tuple.of(runIds.toArray(UUID[]::new))).map(RetentionStore::ids);
    }

    /** Deletes at most {@code batch} application events received before {@code cutoff}; how many. */
    public Uni<Integer> purgeEvents(Instant cutoff, int batch) {
        return pool.preparedQuery(PURGE_EVENTS).execute(Tuple.of(utc(cutoff), batch)).map(rows -> rows.rowCount());
    }

    /** Deletes at most {@code batch} quarantined records stored before {@code cutoff}; how many. */
    public Uni<Integer> purgeQuarantined(Instant cutoff, int batch) {
        return pool.preparedQuery(PURGE_QUARANTINED).execute(Tuple.of(utc(cutoff), batch))
                .map(rows -> rows.rowCount());
    }

    private static List<UUID> ids(RowSet<Row> rows) {
        List<UUID> ids = new ArrayList<>(rows.size());
        for (Row row : rows) {
            ids.add(row.getUUID("id"));
        }
        return ids;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
