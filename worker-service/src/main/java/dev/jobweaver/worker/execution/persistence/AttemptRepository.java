package dev.jobweaver.worker.execution.persistence;

import dev.jobweaver.common.job.ExecutionOutcome;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code execution_attempts} over the reactive PostgreSQL client.
 *
 * <p>Called from the virtual threads that run jobs, which may block: each call awaits its reactive result (a parked
 * virtual thread holds no platform thread), bounded by {@code timeout}.
 */
@ApplicationScoped
public class AttemptRepository {

    private static final String COLUMNS =
            "event_id, job_id, attempt, trace_id, started_at, finished_at, outcome, error_message, worker_id";

    private final Pool pool;

    public AttemptRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * The outcome of {@link #begin}.
     *
     * @param created true if this call created the row (the run is ours to execute)
     * @param attempt the row as it is now
     */
    public record Begin(boolean created, ExecutionAttempt attempt) {
    }

    /** Creates the row {@code RUNNING}, or returns the existing one: the idempotency check of a run. */
    @WithSpan("execution_attempts begin")
    public Begin begin(ExecutionAttempt attempt, Duration timeout) {
        RowSet<Row> inserted = pool.preparedQuery("INSERT INTO execution_attempts (" + COLUMNS + ")"
                        + " VALUES ($1, $2, $3, $4, $5, NULL, 'RUNNING', NULL, $6)"
                        + " ON CONFLICT (event_id) DO NOTHING RETURNING " + COLUMNS)
                .execute(Tuple.tuple()
                        .addUUID(attempt.eventId())
                        .addUUID(attempt.jobId())
                        .addInteger(attempt.attempt())
                        .addString(attempt.traceId())
                        .addOffsetDateTime(utc(attempt.startedAt()))
                        .addString(attempt.workerId()))
                .await().atMost(timeout);
        if (inserted.size() == 1) {
            return new Begin(true, map(inserted.iterator().next()));
        }
        return new Begin(false, find(attempt.eventId(), timeout)
                .orElseThrow(() -> new IllegalStateException("execution attempt " + attempt.eventId() + " vanished")));
    }

    /**
     * Closes a {@code RUNNING} row with {@code outcome}. If it was closed already (by a worker that found it
     * abandoned, or by the run it was taken for), the row is left as it is. Either way the stored row is returned,
     * and that is what gets published, so every outcome event of a run says the same thing.
     */
    @WithSpan("execution_attempts finish")
    public ExecutionAttempt finish(UUID eventId, ExecutionOutcome outcome, String errorMessage, Instant finishedAt,
            Duration timeout) {
        RowSet<Row> updated = pool.preparedQuery("UPDATE execution_attempts"
                        + " SET outcome = $2, error_message = $3, finished_at = $4"
                        + " WHERE event_id = $1 AND outcome = 'RUNNING' RETURNING " + COLUMNS)
                .execute(Tuple.of(eventId, outcome.name(), errorMessage, utc(finishedAt)))
                .await().atMost(timeout);
        if (updated.size() == 1) {
            return map(updated.iterator().next());
        }
        return find(eventId, timeout)
                .orElseThrow(() -> new IllegalStateException("execution attempt " + eventId + " vanished"));
    }

    /** The row of run {@code eventId}, if any. */
    public Optional<ExecutionAttempt> find(UUID eventId, Duration timeout) {
        RowSet<Row> rows = pool.preparedQuery("SELECT " + COLUMNS + " FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId))
                .await().atMost(timeout);
        return rows.size() == 0 ? Optional.empty() : Optional.of(map(rows.iterator().next()));
    }

    private static ExecutionAttempt map(Row row) {
        OffsetDateTime finished = row.getOffsetDateTime("finished_at");
        return new ExecutionAttempt(
                row.getUUID("event_id"),
                row.getUUID("job_id"),
                row.getInteger("attempt"),
                row.getString("trace_id"),
                row.getOffsetDateTime("started_at").toInstant(),
                finished == null ? null : finished.toInstant(),
                ExecutionOutcome.valueOf(row.getString("outcome")),
                row.getString("error_message"),
                row.getString("worker_id"));
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
