package dev.jobweaver.api.job.store;

import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * Applies {@code job-status} events to the {@code jobs} read model, a whole poll's worth per statement, with the
 * reactive PostgreSQL client.
 *
 * <p>A status without a result (any but a completion, or one from a scheduler that sends none) keeps the result the job
 * has, so a result once reported is not lost to a later event.
 *
 * <p>{@code started_at} is the latest attempt's start; an event that does not say (a status before any start) keeps it.
 *
 * <p>The {@code status_version < version} guard is in the statement itself, so a redelivered or reordered event never
 * moves a job backwards, whatever else runs concurrently (another replica, a compensation).
 */
@ApplicationScoped
public class JobStatusStore {

    private static final String APPLY = """
            UPDATE jobs j
            SET status = e.status, status_version = e.version, attempts = e.attempts, retry_count = e.retry_count,
                max_retries = e.max_retries, next_run_at = e.next_run_at, last_error = e.last_error,
                updated_at = e.updated_at, finished_at = e.finished_at,
                started_at = coalesce(e.started_at, j.started_at),
                result = coalesce(e.result::jsonb, j.result)
            FROM unnest($1::uuid[], $2::text[], $3::int8[], $4::int4[], $5::int4[], $6::int4[], $7::timestamptz[],
                        $8::text[], $9::timestamptz[], $10::timestamptz[], $11::text[], $12::timestamptz[])
                 AS e(id, status, version, attempts, retry_count, max_retries, next_run_at, last_error, updated_at,
                      finished_at, result, started_at)
            WHERE j.id = e.id AND j.status_version < e.version
            """;

    private final Pool pool;

    public JobStatusStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Applies every event that is newer than what its job shows, in one statement (one transaction).
     *
     * @param events at most one per job (the caller keeps the highest version of each job: an UPDATE ... FROM joins a
     *               row once, with an unspecified one of several matches)
     * @return how many jobs changed; the other events were stale, repeated, or of unknown jobs
     */
    public Uni<Integer> applyAll(Collection<JobStatusChangedEvent> events, Instant now) {
        List<JobStatusChangedEvent> batch = List.copyOf(events);
        return pool.preparedQuery(APPLY)
                .execute(Tuple.from(List.of(
                        Columns.of(batch, JobStatusChangedEvent::jobId, UUID[]::new),
                        Columns.of(batch, e -> e.status().name(), String[]::new),
                        Columns.of(batch, JobStatusChangedEvent::version, Long[]::new),
                        Columns.of(batch, JobStatusChangedEvent::attempts, Integer[]::new),
                        Columns.of(batch, JobStatusChangedEvent::retryCount, Integer[]::new),
                        Columns.of(batch, JobStatusChangedEvent::maxRetries, Integer[]::new),
                        Columns.of(batch, e -> SubmissionStore.utc(e.nextRunAt()), OffsetDateTime[]::new),
                        Columns.of(batch, JobStatusChangedEvent::lastError, String[]::new),
                        Columns.of(batch, e -> SubmissionStore.utc(changedAt(e, now)), OffsetDateTime[]::new),
                        Columns.of(batch, e -> SubmissionStore.utc(finishedAt(e, now)), OffsetDateTime[]::new),
                        Columns.of(batch, e -> e.result() == null ? null : e.result().toString(), String[]::new),
                        Columns.of(batch, e -> SubmissionStore.utc(e.startedAt()), OffsetDateTime[]::new))))
                .map(rows -> rows.rowCount());
    }

    /** When the event says the job changed; {@code now} if it does not say. */
    private static Instant changedAt(JobStatusChangedEvent event, Instant now) {
        return event.changedAt() != null ? event.changedAt() : now;
    }

    /** A terminal event without finishedAt (an older scheduler) finished when it changed. */
    private static Instant finishedAt(JobStatusChangedEvent event, Instant now) {
        return event.finishedAt() != null || !event.status().isTerminal() ? event.finishedAt()
                : changedAt(event, now);
    }
}
