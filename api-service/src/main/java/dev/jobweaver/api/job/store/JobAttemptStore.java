package dev.jobweaver.api.job.store;

import dev.jobweaver.common.batch.Columns;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The {@code job_attempts} history, with the reactive PostgreSQL client: every attempt a worker reported, a whole poll
 * per statement. The first report of an attempt is kept, so a redelivered report changes nothing; a report of a job
 * the API does not hold (deleted, or never its own) is dropped.
 */
@ApplicationScoped
public class JobAttemptStore {

    private static final String RECORD = """
            INSERT INTO job_attempts (job_id, attempt, outcome, started_at, finished_at, error, worker_id)
            SELECT u.job_id, u.attempt, u.outcome, u.started_at, u.finished_at, u.error, u.worker_id
            FROM unnest($1::uuid[], $2::int4[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[],
                        $7::text[]) AS u(job_id, attempt, outcome, started_at, finished_at, error, worker_id)
            WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.id = u.job_id)
            ON CONFLICT (job_id, attempt) DO NOTHING
            """;

    private static final String OF_JOB = "SELECT attempt, outcome, started_at, finished_at, error, worker_id"
            + " FROM job_attempts WHERE job_id = $1 ORDER BY attempt";

    private final Pool pool;

    public JobAttemptStore(Pool pool) {
        this.pool = pool;
    }

    /** One attempt as its worker reported it. */
    public record Attempt(UUID jobId, int attempt, Outcome outcome, Instant startedAt, Instant finishedAt,
                          String error, String workerId) {
    }

    /** How an attempt ended, as its worker reported it. */
    public enum Outcome {
        COMPLETED,
        FAILED
    }

    /** Stores the attempts not stored before, in one statement; how many were new. */
    public Uni<Integer> recordAll(Collection<Attempt> attempts) {
        List<Attempt> batch = List.copyOf(attempts);
        if (batch.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return pool.preparedQuery(RECORD).execute(Tuple.from(List.of(
                        Columns.of(batch, Attempt::jobId, UUID[]::new),
                        Columns.of(batch, Attempt::attempt, Integer[]::new),
                        Columns.of(batch, a -> a.outcome().name(), String[]::new),
                        Columns.of(batch, a -> SubmissionStore.utc(a.startedAt()), OffsetDateTime[]::new),
                        Columns.of(batch, a -> SubmissionStore.utc(a.finishedAt()), OffsetDateTime[]::new),
                        Columns.of(batch, Attempt::error, String[]::new),
                        Columns.of(batch, Attempt::workerId, String[]::new))))
                .map(rows -> rows.rowCount());
    }

    /** The reported attempts of {@code jobId}, in order. */
    public Uni<List<Attempt>> of(UUID jobId) {
        return pool.preparedQuery(OF_JOB).execute(Tuple.of(jobId)).map(rows -> {
            List<Attempt> found = new ArrayList<>();
            for (Row row : rows) {
                found.add(new Attempt(jobId, row.getInteger("attempt"), Outcome.valueOf(row.getString("outcome")),
                        JobReadStore.instant(row, "started_at"), JobReadStore.instant(row, "finished_at"),
                        row.getString("error"), row.getString("worker_id")));
            }
            return found;
        });
    }
}
