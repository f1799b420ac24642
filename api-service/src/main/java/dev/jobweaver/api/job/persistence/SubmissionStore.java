package dev.jobweaver.api.job.persistence;

import dev.jobweaver.common.batch.Columns;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The submission hot path's writes to {@code jobs} and {@code job_outbox}, a whole group of submissions per
 * statement, with the reactive PostgreSQL client.
 *
 * <p>Every method is one SQL statement, hence one implicit transaction and one round trip whatever the number of
 * jobs: arrays are bound as parameters and {@code unnest}ed on the server. Hibernate Reactive is left out of this path
 * on purpose: a submission needs no entity state, and its session, context-propagation and flush layers were the
 * larger part of the API's CPU per job.
 */
@ApplicationScoped
public class SubmissionStore {

    /** Jobs and their outbox rows in one statement: both are there after it, or neither. */
    private static final String INSERT = """
            WITH new_jobs AS (
                INSERT INTO jobs (id, type, instruction, trace_id, status, max_retries, next_run_at, created_at,
                                  updated_at)
                SELECT t.id, t.type, t.instruction::jsonb, t.trace_id, 'PENDING', t.max_retries, t.created_at,
                       t.created_at, t.created_at
                FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int4[], $6::timestamptz[])
                     AS t(id, type, instruction, trace_id, max_retries, created_at)
                RETURNING id, created_at
            )
            INSERT INTO job_outbox (job_id, event_id, traceparent, created_at)
            SELECT n.id, o.event_id, o.traceparent, n.created_at
            FROM new_jobs n
            JOIN unnest($1::uuid[], $7::uuid[], $8::text[]) AS o(job_id, event_id, traceparent) ON o.job_id = n.id
            """;

    /**
     * A plain DELETE, not SKIP LOCKED: a row the sweeper holds makes this wait for the sweeper's transaction, which
     * either published the row (gone) or not (still there, deleted now).
     */
    private static final String REMOVE = "DELETE FROM job_outbox WHERE job_id = ANY($1::uuid[])";

    /**
     * Compensation of submissions Kafka did not take: delete their outbox rows and mark REJECTED only the jobs whose
     * row was still there (the sweeper did not publish it) and that the scheduler never reported (status_version 0,
     * else the event did reach Kafka after all).
     */
    private static final String REJECT = """
            WITH removed AS (
                DELETE FROM job_outbox WHERE job_id = ANY($1::uuid[]) RETURNING job_id
            )
            UPDATE jobs j
            SET status = 'REJECTED', last_error = r.reason, updated_at = $3, finished_at = $3, next_run_at = NULL
            FROM unnest($1::uuid[], $2::text[]) AS r(id, reason)
            WHERE j.id = r.id AND j.status_version = 0 AND j.id IN (SELECT job_id FROM removed)
            RETURNING j.id
            """;

    private final Pool pool;

    public SubmissionStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * A job to store with its outbox row.
     *
     * @param instructionJson the payload as stored in the jsonb column ({@link JsonColumns#mapper()})
     * @param traceparent W3C trace context of the submitting request; null without tracing
     */
    public record NewJob(UUID id, String type, String instructionJson, String traceId, int maxRetries,
                         Instant createdAt, UUID eventId, String traceparent) {
    }

    /** A job whose event Kafka did not take, with the reason stored as its last error. */
    public record Rejection(UUID jobId, String reason) {
    }

    /** Inserts every job ({@code PENDING}) and its outbox row, atomically. */
    public Uni<Void> insert(List<NewJob> jobs) {
        // Tuple.from, not Tuple.wrap: a tuple wrapping an immutable List.of made the query never complete (no error
        // surfaced; the client presumably writes into the tuple's list); Tuple.from copies into a list of its own.
        return pool.preparedQuery(INSERT)
                .execute(Tuple.from(List.of(
                        Columns.of(jobs, NewJob::id, UUID[]::new),
                        Columns.of(jobs, NewJob::type, String[]::new),
                        Columns.of(jobs, NewJob::instructionJson, String[]::new),
                        Columns.of(jobs, NewJob::traceId, String[]::new),
                        Columns.of(jobs, NewJob::maxRetries, Integer[]::new),
                        Columns.of(jobs, job -> utc(job.createdAt()), OffsetDateTime[]::new),
                        Columns.of(jobs, NewJob::eventId, UUID[]::new),
                        Columns.of(jobs, NewJob::traceparent, String[]::new))))
                .replaceWithVoid();
    }

    /** Deletes the outbox rows of jobs whose events Kafka acknowledged; returns how many were there. */
    public Uni<Integer> removeOutbox(List<UUID> jobIds) {
        return pool.preparedQuery(REMOVE).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> rows.rowCount());
    }

    /**
     * Compensates submissions Kafka did not take (see {@link #REJECT}).
     *
     * @return the jobs now {@code REJECTED}; a job missing from it reached Kafka by another way (sweeper, late append)
     */
    public Uni<Set<UUID>> reject(List<Rejection> rejections, Instant now) {
        UUID[] ids = rejections.stream().map(Rejection::jobId).toArray(UUID[]::new);
        String[] reasons = rejections.stream().map(Rejection::reason).toArray(String[]::new);
        return pool.preparedQuery(REJECT).execute(Tuple.of(ids, reasons, utc(now))).map(rows -> {
            Set<UUID> rejected = new HashSet<>();
            for (Row row : rows) {
                rejected.add(row.getUUID(0));
            }
            return rejected;
        });
    }

    static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
