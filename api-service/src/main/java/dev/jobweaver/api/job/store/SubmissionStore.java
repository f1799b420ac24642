package dev.jobweaver.api.job.store;

import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
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
    private static final String INSERT = insert("", "", "", "", "");

    /**
     * {@link #INSERT} for jobs a schedule or a workflow run makes: with their origin, and idempotent on the job id (a
     * tick's id is derived from the tick, a node's from its run and node), so a repeated tick or ready node inserts
     * neither a job nor an outbox row; answers the ids it inserted.
     */
    private static final String INSERT_ONCE = insert(
            ", schedule_id, scheduled_for, workflow_id, workflow_run_id, node_id, workflow_max_concurrency",
            ", t.schedule_id, t.scheduled_for, t.workflow_id, t.workflow_run_id, t.node_id, t.workflow_max_concurrency",
            ", $18::uuid[], $19::timestamptz[], $20::uuid[], $21::uuid[], $22::text[], $23::int4[]",
            ", schedule_id, scheduled_for, workflow_id, workflow_run_id, node_id, workflow_max_concurrency",
            " ON CONFLICT (id) DO NOTHING") + " RETURNING job_id";

    /**
     * The insert of jobs with their outbox rows; the arguments add the origin's columns, their parameters and the
     * conflict clause, so that both statements share everything else.
     */
    private static String insert(String originColumns, String originValues, String originParameters,
                                 String originNames, String onConflict) {
        return """
                WITH new_jobs AS (
                    INSERT INTO jobs (id, type, instruction, trace_id, status, max_retries, next_run_at, created_at,
                                      updated_at, priority, run_at, timeout_ms, retry_delays_ms, tenant, labels,
                                      queue%s)
                    SELECT t.id, t.type, t.instruction::jsonb, t.trace_id, 'PENDING', t.max_retries,
                           coalesce(t.run_at, t.created_at), t.created_at, t.created_at, t.priority, t.run_at,
                           t.timeout_ms, t.retry_delays_ms::jsonb, t.tenant, t.labels::jsonb, t.queue%s
                    FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int4[], $6::timestamptz[],
                                $11::text[], $12::timestamptz[], $13::int8[], $14::text[], $15::text[], $16::text[],
                                $17::text[]%s)
                         AS t(id, type, instruction, trace_id, max_retries, created_at, priority, run_at, timeout_ms,
                              retry_delays_ms, tenant, labels, queue%s)%s
                    RETURNING id, created_at
                )
                INSERT INTO job_outbox (job_id, event_id, traceparent, created_at, relay_instance, event_bytes)
                SELECT n.id, o.event_id, o.traceparent, n.created_at, $9, o.event_bytes
                FROM new_jobs n
                JOIN unnest($1::uuid[], $7::uuid[], $8::text[], $10::int4[]) AS o(job_id, event_id, traceparent, event_bytes)
                     ON o.job_id = n.id
                """.formatted(originColumns, originValues, originParameters, originNames, onConflict);
    }

    /**
     * A plain DELETE, not SKIP LOCKED: a row the sweeper holds makes this wait for the sweeper's transaction, after
     * which the row is gone either way.
     */

    private final Pool pool;

    public SubmissionStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * A job to store with its outbox row.
     *
     * @param instructionJson the payload as stored in the jsonb column ({@link JsonColumns#mapper()})
     * @param traceparent W3C trace context of the submitting request; null without tracing
     * @param eventBytes the size of the job's event, counted against the outbox's byte bound
     * @param control the job's control as the client gave it (runAt resolved); null for none
     * @param origin the schedule tick or workflow node that made the job; null for a client's submission
     */
    public record NewJob(UUID id, String type, String instructionJson, String traceId, int maxRetries,
                         Instant createdAt, UUID eventId, String traceparent, int eventBytes, JobControl control,
                         JobOrigin origin) {

        /** A client's submission. */
        public NewJob(UUID id, String type, String instructionJson, String traceId, int maxRetries,
                      Instant createdAt, UUID eventId, String traceparent, int eventBytes, JobControl control) {
            this(id, type, instructionJson, traceId, maxRetries, createdAt, eventId, traceparent, eventBytes, control,
                    null);
        }

        /** A job of the original API, without job control. */
        public NewJob(UUID id, String type, String instructionJson, String traceId, int maxRetries,
                      Instant createdAt, UUID eventId, String traceparent, int eventBytes) {
            this(id, type, instructionJson, traceId, maxRetries, createdAt, eventId, traceparent, eventBytes, null,
                    null);
        }

        private JobControl controlOrDefaults() {
            return JobControl.orDefaults(control);
        }
    }

    /**
     * Inserts every job ({@code PENDING}) and its outbox row, atomically.
     *
     * @param relayInstance the name of this API instance, whose relay publishes the rows; null if it has none
     */
    public Uni<Void> insert(List<NewJob> jobs, String relayInstance) {
        return pool.preparedQuery(INSERT)
                .execute(parameters(jobs, relayInstance))
                .replaceWithVoid();
    }

    /**
     * Inserts, on {@code client} (a connection in the caller's transaction), every job whose id is not taken yet, with
     * its origin and its outbox row; a job whose id exists already (a repeated tick or ready node) changes nothing.
     *
     * @return the ids of the jobs inserted
     */
    public Uni<Set<UUID>> insertOnce(SqlClient client, List<NewJob> jobs, String relayInstance) {
        Tuple parameters = parameters(jobs, relayInstance);
        parameters.addValue(Columns.of(jobs, job -> job.origin() == null ? null : job.origin().scheduleId(),
                UUID[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.origin() == null ? null : utc(job.origin().scheduledFor()),
                OffsetDateTime[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.origin() == null ? null : job.origin().workflowId(),
                UUID[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.origin() == null ? null : job.origin().workflowRunId(),
                UUID[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.origin() == null ? null : job.origin().nodeId(),
                String[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.origin() == null ? null
                : job.origin().workflowMaxConcurrency(), Integer[]::new));
        return client.preparedQuery(INSERT_ONCE).execute(parameters).map(rows -> {
            Set<UUID> inserted = new HashSet<>();
            rows.forEach(row -> inserted.add(row.getUUID("job_id")));
            return inserted;
        });
    }

    private static Tuple parameters(List<NewJob> jobs, String relayInstance) {
        // Tuple.of/from with a list of their own: a tuple wrapping an immutable List.of made the query never complete
        // (no error surfaced; the client presumably writes into the tuple's list), and List.of refuses the null
        // instance name.
        Tuple parameters = Tuple.tuple();
        parameters.addValue(Columns.of(jobs, NewJob::id, UUID[]::new));
        parameters.addValue(Columns.of(jobs, NewJob::type, String[]::new));
        parameters.addValue(Columns.of(jobs, NewJob::instructionJson, String[]::new));
        parameters.addValue(Columns.of(jobs, NewJob::traceId, String[]::new));
        parameters.addValue(Columns.of(jobs, NewJob::maxRetries, Integer[]::new));
        parameters.addValue(Columns.of(jobs, job -> utc(job.createdAt()), OffsetDateTime[]::new));
        parameters.addValue(Columns.of(jobs, NewJob::eventId, UUID[]::new));
        parameters.addValue(Columns.of(jobs, NewJob::traceparent, String[]::new));
        parameters.addValue(relayInstance);
        parameters.addValue(Columns.of(jobs, NewJob::eventBytes, Integer[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.controlOrDefaults().priorityOrDefault().name(), String[]::new));
        parameters.addValue(Columns.of(jobs, job -> utc(job.controlOrDefaults().runAt()), OffsetDateTime[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.controlOrDefaults().timeoutMs(), Long[]::new));
        parameters.addValue(Columns.of(jobs, job -> JsonColumns.write(job.controlOrDefaults().retryDelaysMs()),
                String[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.controlOrDefaults().tenantOrDefault(), String[]::new));
        parameters.addValue(Columns.of(jobs, job -> JsonColumns.write(job.controlOrDefaults().labels()),
                String[]::new));
        parameters.addValue(Columns.of(jobs, job -> job.controlOrDefaults().queueOrDefault(), String[]::new));
        return parameters;
    }

    public static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
