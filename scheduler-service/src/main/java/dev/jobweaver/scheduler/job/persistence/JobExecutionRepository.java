package dev.jobweaver.scheduler.job.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Priority;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * SQL on {@code job_executions}, all through the reactive PG client: nothing here blocks a thread.
 *
 * <p>Methods taking a {@link SqlConnection} run inside the caller's transaction; their row locks are held until
 * the caller commits, which is what lets the caller publish to Kafka before committing (see the services).
 */
@ApplicationScoped
public class JobExecutionRepository {

    private static final String COLUMNS = "job_id, job_type, trace_id, traceparent, instruction::text AS instruction,"
            + " job_status, retry_count, max_retries, attempt, next_run_at, lease_until, last_error, created_at,"
            + " updated_at, dispatched_at, started_at, finished_at, version, priority, run_at, timeout_ms,"
            + " retry_delays_ms, tenant, labels::text AS labels, result::text AS result, now() AS db_now";

    /** Reads and writes the JSON of labels and results; trees and string maps only, so nothing is reflected on. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() { };

    /**
     * The earliest start of a {@code PENDING} job that is not due yet: the first entry after now() of each level of
     * the index on (priority, next_run_at). Three probes, whatever the number of waiting jobs (LEAST ignores a level
     * that has none).
     */
    static final String NEXT_LATER = "LEAST(" + String.join(", ", Arrays.stream(Priority.values())
            .map(p -> "(SELECT next_run_at FROM job_executions WHERE job_status = 'PENDING' AND priority = '"
                    + p.name() + "' AND next_run_at > now() ORDER BY next_run_at LIMIT 1)").toList()) + ")";

    /**
     * Whether a {@code PENDING} job is due now, one index probe per priority level (the index on (priority,
     * next_run_at) serves a condition on one level; on next_run_at alone it would scan every waiting job).
     */
    private static final String ANY_DUE = "(" + String.join(" OR ", Arrays.stream(Priority.values())
            .map(p -> "EXISTS (SELECT 1 FROM job_executions WHERE job_status = 'PENDING' AND priority = '" + p.name()
                    + "' AND next_run_at <= now())").toList()) + ")";

    /**
     * The in-flight rule, shared by the dispatch claim and the insert that dispatches new jobs: at most
     * {@code min(cap, maxInFlight - running)} rows, never a negative count (replicas may overshoot together), counted
     * in the caller's own statement rather than a round trip before it; {@code maxInFlight <= 0} means no such limit
     * (CASE evaluates the count only when there is one).
     */
    private static String slotsUnder(String cap, String maxInFlight) {
        return "CASE WHEN " + maxInFlight + " <= 0 THEN " + cap + " ELSE LEAST(" + cap + ", GREATEST(0, " + maxInFlight
                + " - (SELECT count(*) FROM job_executions WHERE job_status = 'RUNNING'))) END";
    }

    /**
     * The advisory lock that fences ingestion: every transaction that stores and dispatches new jobs holds it shared
     * until it ends, and an outcome for a job it cannot see takes it exclusively, which waits for those transactions
     * (see {@link #awaitIngestions}). The key is arbitrary; the database belongs to this service alone.
     */
    static final long INGESTION_FENCE = 0x4a6f_6257_6561_7645L;

    /**
     * Whether a limit kept in the database applies to some job: a tenant's limit, or a due-or-later {@code PENDING}
     * job of a workflow that limits its concurrency. Two index probes of relations that are empty while nobody sets
     * such a limit.
     */
    // The workflow probe asks for the first entry in next_run_at order: the partial index idx_job_executions_workflow_
    // limited (V7) serves it in one page whatever the statistics say; a bare EXISTS let the planner scan the table.
    // tenant_limits holds a row per tenant that ever had a limit: a page or so.
    static final String LIMITS_IN_DB = "(EXISTS (SELECT 1 FROM tenant_limits WHERE max_running IS NOT NULL)"
            + " OR EXISTS (SELECT 1 FROM (SELECT next_run_at FROM job_executions WHERE job_status = 'PENDING'"
            + " AND workflow_max_running IS NOT NULL ORDER BY next_run_at LIMIT 1) w))";

    /**
     * The advisory lock that serializes the claims made under concurrency limits, over all replicas: each takes it
     * (until its transaction ends) before it counts the jobs {@code RUNNING}, so that it sees every job the claim
     * before it dispatched. The key is arbitrary; the database belongs to this service alone.
     */
    static final long CLAIM_LIMITS = 0x4a6f_6257_4c69_6d69L;

    // A statement of its own, before the counts: under READ COMMITTED each statement reads the data committed when it
    // starts, so the counts that follow see the commit of the claim that held the lock before.
    private static final String LOCK_LIMITS = "SELECT pg_advisory_xact_lock(" + CLAIM_LIMITS + ") IS NOT NULL AS locked,"
            + " " + LIMITS_IN_DB + " AS limits_in_db, now() AS db_now";

    // The RUNNING jobs by every key a limit may apply to (bounded by max-in-flight, read from the partial lease index's
    // rows), then the tenants' limits.
    private static final String RUNNING_AND_TENANT_LIMITS = "SELECT 'R' AS kind, tenant, job_type, workflow_id,"
            + " min(workflow_max_running) AS workflow_max, count(*) AS n FROM job_executions"
            + " WHERE job_status = 'RUNNING' GROUP BY tenant, job_type, workflow_id"
            + " UNION ALL SELECT 'T', tenant, NULL, NULL, NULL, max_running FROM tenant_limits"
            + " WHERE max_running IS NOT NULL";

    // The due jobs of each level in the claim's order ($1, $2, $3), oldest first, at most $4 a level, without those of
    // a saturated tenant ($5), job type ($6) or workflow ($7); no lock: the caller picks among them and locks those.
    // The jobs of a saturated key are filtered out as the index is read, so a saturated tenant's backlog costs a read
    // of its rows that are ahead of the others' in a level.
    private static final String LIMITED_CANDIDATES = "SELECT c.*, nd.next_later FROM (SELECT " + NEXT_LATER
            + " AS next_later) nd LEFT JOIN (" + candidateLevel(1, "$1") + " UNION ALL " + candidateLevel(2, "$2")
            + " UNION ALL " + candidateLevel(3, "$3") + ") c ON true ORDER BY c.lvl, c.next_run_at";

    private static String candidateLevel(int level, String priority) {
        return "(SELECT " + level + " AS lvl, job_id, tenant, job_type, workflow_id, workflow_max_running, next_run_at"
                + " FROM job_executions WHERE job_status = 'PENDING' AND priority = " + priority + "::text"
                + " AND next_run_at <= now() AND tenant <> ALL($5::text[]) AND job_type <> ALL($6::text[])"
                + " AND (workflow_id IS NULL OR workflow_id <> ALL($7::uuid[]))"
                + " ORDER BY next_run_at LIMIT $4::int4)";
    }

    // The picked jobs, each still PENDING and due, skipping any another transaction holds (a cancel, say).
    private static final String LOCK_PICKED = "SELECT " + COLUMNS + " FROM job_executions WHERE job_id = ANY($1)"
            + " AND job_status = 'PENDING' AND next_run_at <= now() FOR UPDATE SKIP LOCKED";

    // One statement for a whole poll: arrays unnested on the server, so one round trip. The instruction is bound as
    // text and cast: bound as jsonb, a Java String would be stored as a JSON string.
    //
    // The first rows (in the poll's order) go straight to RUNNING at attempt 1, as JobStateMachine.dispatch would
    // move them, when there are slots: $8 caps them, $9 is max-in-flight (<= 0: no limit), and none go while a due
    // PENDING job is waiting, since the dispatcher owes it the next slot (jobs start in the order they became due).
    // The others are stored PENDING and due now. Both CTEs run once (MATERIALIZED); the first takes the fence.
    // A job no concurrency limit applies to, the only kind ingestion dispatches ($23: the job types that have a limit;
    // a global limit makes the caller dispatch nothing). The others are stored PENDING and the limited claim starts
    // them, so that every start of a limited job happens under its lock.
    private static final String UNLIMITED = "v.workflow_max_running IS NULL AND v.job_type <> ALL($23::text[])"
            + " AND NOT EXISTS (SELECT 1 FROM tenant_limits t WHERE t.tenant = v.tenant AND t.max_running IS NOT NULL)";

    private static final String INSERT = "WITH fence AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared("
            + INGESTION_FENCE + ")),"
            + " slots AS MATERIALIZED (SELECT CASE WHEN $8::int4 <= 0 THEN 0"
            + " WHEN " + ANY_DUE + " THEN 0"
            + " ELSE " + slotsUnder("$8::int4", "$9::int4") + " END AS n FROM fence)"
            + " INSERT INTO job_executions (job_id, job_type, trace_id, traceparent, instruction, job_status,"
            + " retry_count, max_retries, attempt, next_run_at, lease_until, created_at, updated_at, dispatched_at,"
            + " version, priority, run_at, timeout_ms, retry_delays_ms, tenant, labels, schedule_id, scheduled_for,"
            + " workflow_run_id, node_id, workflow_id, workflow_max_running)"
            + " SELECT u.job_id, u.job_type, u.trace_id, u.traceparent, u.instruction::jsonb,"
            + " CASE WHEN u.go THEN 'RUNNING' ELSE 'PENDING' END, 0, u.max_retries,"
            + " CASE WHEN u.go THEN 1 ELSE 0 END, CASE WHEN u.due THEN now() ELSE u.run_at END,"
            + " CASE WHEN u.go THEN now() + u.lease_ms * interval '1 millisecond' END,"
            + " u.created_at, now(), CASE WHEN u.go THEN now() END, CASE WHEN u.go THEN 1 ELSE 0 END,"
            + " u.priority, u.run_at, u.timeout_ms, u.retry_delays_ms::int8[], u.tenant, u.labels::jsonb,"
            + " u.schedule_id, u.scheduled_for, u.workflow_run_id, u.node_id, u.workflow_id, u.workflow_max_running"
            + " FROM (SELECT v.*, v.due AND v.ord <= s.n AND " + UNLIMITED + " AS go FROM"
            + " (SELECT w.*, w.run_at IS NULL OR w.run_at <= now() AS due FROM"
            + " unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int4[], $7::timestamptz[],"
            + " $10::int8[], $11::text[], $12::timestamptz[], $13::int8[], $14::text[], $15::text[], $16::text[],"
            + " $17::uuid[], $18::timestamptz[], $19::uuid[], $20::text[], $21::uuid[], $22::int4[])"
            + " WITH ORDINALITY AS w(job_id, job_type, trace_id, traceparent, instruction, max_retries, created_at,"
            + " lease_ms, priority, run_at, timeout_ms, retry_delays_ms, tenant, labels, schedule_id, scheduled_for,"
            + " workflow_run_id, node_id, workflow_id, workflow_max_running, ord)) v"
            + " CROSS JOIN slots s) u"
            + " ON CONFLICT (job_id) DO NOTHING RETURNING job_id, job_status, next_run_at, now() AS db_now";

    // Waits for every transaction that holds the fence shared, then lets go at once (autocommit: the statement is
    // its own transaction), so that the outcome's transaction never holds it.
    private static final String AWAIT_INGESTIONS = "SELECT pg_advisory_xact_lock(" + INGESTION_FENCE + ")";

    // The levels in the claim's order ($3, $4, $5): the oldest due jobs of the first, then of the second for what is
    // left of the batch, then of the third. Each level reads the head of its part of the index (priority,
    // next_run_at), so a claim costs the rows it takes, never a sort of the backlog. A level's LIMIT is what the
    // levels before it left (0 once the batch is full: the scan is then not even started).
    //
    // The claim that applies no concurrency limit, run while none is known. Its one addition is LIMITS_IN_DB, two
    // probes of empty relations: a limit another replica learnt of (a tenant's, or a workflow job it stored) makes it
    // claim nothing and say so, and the caller claims under the limits instead.
    static final String CLAIM_DUE = "WITH lp AS MATERIALIZED (SELECT " + LIMITS_IN_DB + " AS active),"
            + " lim AS MATERIALIZED (SELECT CASE WHEN (SELECT active FROM lp) THEN 0 ELSE "
            + slotsUnder("$1::int4", "$2::int4") + " END AS n),"
            + " l1 AS MATERIALIZED (" + claimLevel("$3::text", "(SELECT n FROM lim)") + "),"
            + " l2 AS MATERIALIZED (" + claimLevel("$4::text", "(SELECT n FROM lim) - (SELECT count(*) FROM l1)") + "),"
            + " l3 AS MATERIALIZED (" + claimLevel("$5::text",
                    "(SELECT n FROM lim) - (SELECT count(*) FROM l1) - (SELECT count(*) FROM l2)") + ")"
            // The claim also tells when the next job that is not due yet becomes due (NEXT_LATER), in the same round
            // trip: the row of that probe is there even when nothing is claimed.
            + " SELECT c.*, nd.next_later, now() AS round_now, (SELECT active FROM lp) AS limits_in_db"
            + " FROM (SELECT " + NEXT_LATER + " AS next_later) nd"
            + " LEFT JOIN (SELECT 1 AS lvl, * FROM l1 UNION ALL SELECT 2, * FROM l2 UNION ALL SELECT 3, * FROM l3) c"
            + " ON true ORDER BY c.lvl, c.next_run_at";

    private static String claimLevel(String priority, String limit) {
        return "SELECT " + COLUMNS + " FROM job_executions"
                + " WHERE job_status = 'PENDING' AND priority = " + priority + " AND next_run_at <= now()"
                + " ORDER BY next_run_at LIMIT " + limit + " FOR UPDATE SKIP LOCKED";
    }

    private static final String CLAIM_EXPIRED = "SELECT " + COLUMNS + " FROM job_executions"
            + " WHERE job_status = 'RUNNING' AND lease_until < now()"
            + " ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED";

    // Ordered by job_id so that two transactions locking overlapping sets take their locks in the same order.
    private static final String LOCK_MANY = "SELECT " + COLUMNS + ", workflow_run_id FROM job_executions"
            + " WHERE job_id = ANY($1) ORDER BY job_id FOR UPDATE";

    private static final String FIND_ONE = "SELECT " + COLUMNS + " FROM job_executions WHERE job_id = $1";

    private static final String UPDATE = "UPDATE job_executions SET job_status = $2, retry_count = $3, attempt = $4,"
            + " next_run_at = $5, lease_until = $6, last_error = $7, updated_at = $8, dispatched_at = $9,"
            + " started_at = $10, finished_at = $11, version = $12, result = $14::text::jsonb"
            + " WHERE job_id = $1 AND version = $13";

    // Many rows in one statement: arrays unnested on the server, each row written only if still at its expected
    // version; the ids written come back, so the caller can tell which row another writer changed.
    private static final String UPDATE_MANY = "UPDATE job_executions AS j SET job_status = u.job_status,"
            + " retry_count = u.retry_count, attempt = u.attempt, next_run_at = u.next_run_at,"
            + " lease_until = u.lease_until, last_error = u.last_error, updated_at = u.updated_at,"
            + " dispatched_at = u.dispatched_at, started_at = u.started_at, finished_at = u.finished_at,"
            + " version = u.version, result = u.result::jsonb"
            + " FROM unnest($1::uuid[], $2::text[], $3::int4[], $4::int4[], $5::timestamptz[], $6::timestamptz[],"
            + " $7::text[], $8::timestamptz[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[], $12::int8[],"
            + " $13::int8[], $14::text[]) AS u(job_id, job_status, retry_count, attempt, next_run_at, lease_until,"
            + " last_error, updated_at, dispatched_at, started_at, finished_at, version, expected, result)"
            + " WHERE j.job_id = u.job_id AND j.version = u.expected"
            + " RETURNING j.job_id";

    // What a requeue changes besides the columns every transition writes: the retries allowed, and the payload when a
    // new one is given (NULL keeps the stored one, which is then not rewritten). Rows already written at their new
    // version by the same transaction.
    private static final String REQUEUE_MANY = "UPDATE job_executions AS j SET max_retries = u.max_retries,"
            + " instruction = COALESCE(u.instruction::jsonb, j.instruction)"
            + " FROM unnest($1::uuid[], $2::int4[], $3::text[], $4::int8[])"
            + " AS u(job_id, max_retries, instruction, version)"
            + " WHERE j.job_id = u.job_id AND j.version = u.version";

    // Counts that each match a partial index's predicate, so the gauges never scan finished jobs; the PENDING ones
    // count the due jobs of each level only (an index range each), never the jobs waiting for a later start.
    static final String COUNT_ACTIVE = "SELECT"
            + " (" + String.join(" + ", Arrays.stream(Priority.values())
                    .map(p -> "(SELECT count(*) FROM job_executions WHERE job_status = 'PENDING' AND priority = '"
                            + p.name() + "' AND next_run_at <= now())").toList()) + ") AS pending,"
            + " (SELECT count(*) FROM job_executions WHERE job_status = 'RUNNING') AS running";

    /**
     * The due backlog by priority and tenant: one group per pair that has a job waiting. The due index carries the
     * tenant (V11), so on all-visible pages this reads the index alone. The priorities are listed so that the index's
     * leading column is a condition too: without them the scan would walk the entries of every job for later.
     */
    static final String BACKLOG = "SELECT priority, tenant, count(*) AS depth,"
            + " GREATEST(EXTRACT(EPOCH FROM now() - min(next_run_at)), 0)::float8 AS oldest_age"
            + " FROM job_executions WHERE job_status = 'PENDING' AND priority IN ("
            + String.join(", ", Arrays.stream(Priority.values()).map(p -> "'" + p.name() + "'").toList()) + ")"
            + " AND next_run_at <= now() GROUP BY priority, tenant";

    private static final String COUNT_DELAYED = "SELECT count(*) AS delayed FROM job_executions"
            + " WHERE job_status = 'PENDING' AND next_run_at > now()";

    /**
     * The {@code job_type} of a placeholder: a cancel kept for a job not ingested yet (migration V5 says why it is a
     * row of this table). No job type is empty.
     */
    public static final String EARLY_CANCEL = "";

    // Placeholders, CANCELLED at version 0, for cancels of jobs this statement cannot find. A job being stored by an
    // ingestion transaction that has not committed makes the INSERT wait for it, then skip that id: the ids it returns
    // are the placeholders written, the others are jobs that exist now.
    private static final String INSERT_EARLY_CANCELS = "INSERT INTO job_executions (job_id, job_type, trace_id,"
            + " instruction, job_status, max_retries, next_run_at, created_at, updated_at, finished_at, version)"
            + " SELECT u.job_id, '" + EARLY_CANCEL + "', u.trace_id, 'null'::jsonb, 'CANCELLED', 0, now(),"
            + " u.requested_at, now(), now(), 0"
            + " FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS u(job_id, trace_id, requested_at)"
            + " ON CONFLICT (job_id) DO NOTHING RETURNING job_id";

    // The jobs of placeholders become CANCELLED at version 1 with everything their event carried, as if stored PENDING
    // and cancelled by the same statement (JobStateMachine.cancel of NewJob.pendingRow at now()). A row that is a job
    // already is left alone, and not locked: its job_type is not empty in the statement's snapshot.
    private static final String FILL_EARLY_CANCELS = "UPDATE job_executions AS j SET job_type = u.job_type,"
            + " trace_id = u.trace_id, traceparent = u.traceparent, instruction = u.instruction::jsonb,"
            + " max_retries = u.max_retries, next_run_at = now(), created_at = u.created_at, updated_at = now(),"
            + " finished_at = now(), version = 1, priority = u.priority, run_at = u.run_at, timeout_ms = u.timeout_ms,"
            + " retry_delays_ms = u.retry_delays_ms::int8[], tenant = u.tenant, labels = u.labels::jsonb,"
            + " schedule_id = u.schedule_id, scheduled_for = u.scheduled_for,"
            + " workflow_run_id = u.workflow_run_id, node_id = u.node_id"
            + " FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int4[], $7::timestamptz[],"
            + " $8::text[], $9::timestamptz[], $10::int8[], $11::text[], $12::text[], $13::text[], $14::uuid[],"
            + " $15::timestamptz[], $16::uuid[], $17::text[])"
            + " AS u(job_id, job_type, trace_id, traceparent, instruction, max_retries, created_at, priority, run_at,"
            + " timeout_ms, retry_delays_ms, tenant, labels, schedule_id, scheduled_for, workflow_run_id, node_id)"
            + " WHERE j.job_id = u.job_id AND j.job_type = '" + EARLY_CANCEL + "'"
            + " RETURNING j.job_id, now() AS db_now";

    private static final String DELETE_FINISHED = "DELETE FROM job_executions WHERE job_id = ANY($1)"
            + " AND job_status IN ('COMPLETED', 'FAILED', 'CANCELLED', 'REJECTED')";

    // Served by the partial index idx_job_executions_early_cancels (V5): reads the placeholders only.
    private static final String EXPIRE_EARLY_CANCELS = "DELETE FROM job_executions WHERE job_type = '" + EARLY_CANCEL
            + "' AND created_at < now() - $1::int8 * interval '1 millisecond'";

    private final Pool pool;

    public JobExecutionRepository(Pool pool) {
        this.pool = pool;
    }

    /** The pool, for callers that open their own transaction. */
    public Pool pool() {
        return pool;
    }

    /**
     * A job to store, as ingestion read it.
     *
     * @param leaseMillis the lease of its first attempt, if it is dispatched as it is stored
     * @param control     how it is to be run (never null); a {@code runAt} later than the statement's {@code now()}
     *                    stores it {@code PENDING} until then
     * @param origin      the schedule tick or workflow node that made it, or null for a client's submission
     */
    public record NewJob(UUID jobId, String jobType, String traceId, String traceparent, String instruction,
                         int maxRetries, Instant createdAt, long leaseMillis, JobControl control, JobOrigin origin) {

        /** The control as the row stores it, so that {@link #pendingRow} is what a read of the row returns. */
        public NewJob {
            control = asStored(control);
        }

        /** A submitted job: no origin. */
        public NewJob(UUID jobId, String jobType, String traceId, String traceparent, String instruction,
                      int maxRetries, Instant createdAt, long leaseMillis, JobControl control) {
            this(jobId, jobType, traceId, traceparent, instruction, maxRetries, createdAt, leaseMillis, control, null);
        }

        /** A job with default control. */
        public NewJob(UUID jobId, String jobType, String traceId, String traceparent, String instruction,
                      int maxRetries, Instant createdAt, long leaseMillis) {
            this(jobId, jobType, traceId, traceparent, instruction, maxRetries, createdAt, leaseMillis,
                    JobControl.DEFAULTS);
        }

        /** The row of this job stored {@code PENDING} and due by a statement whose clock read {@code now}. */
        public JobExecution pendingRow(Instant now) {
            return new JobExecution(jobId, jobType, traceId, traceparent, instruction, JobStatus.PENDING, 0, maxRetries,
                    0, now, null, null, createdAt, now, null, null, null, 0, control, null);
        }
    }

    /**
     * What storing new jobs did.
     *
     * @param now      the database's {@code now()} of the statement (null when nothing was stored)
     * @param inserted each job that was not there yet, and the status it was stored in: {@code RUNNING} at attempt 1
     *                 (dispatched: {@code JobStateMachine.dispatch} of its {@code PENDING} row at {@code now}) or
     *                 {@code PENDING}, due now or at its {@code runAt}
     * @param nextLater the earliest start of the jobs stored {@code PENDING} for later than {@code now}, or null
     */
    public record Stored(Instant now, Map<UUID, JobStatus> inserted, Instant nextLater) {

        public Stored(Instant now, Map<UUID, JobStatus> inserted) {
            this(now, inserted, null);
        }
    }

    /**
     * New jobs in one statement (all rows or none); a job already there (a redelivered event) is left as it is.
     * Up to {@code dispatchAtMost} of them, in list order, go straight to {@code RUNNING} while the in-flight limit
     * allows and no due {@code PENDING} job waits; the caller must then publish their runs before it commits
     * {@code client}'s transaction. With {@code dispatchAtMost} 0 every job is stored {@code PENDING}.
     *
     * @param maxInFlight most jobs {@code RUNNING} at once; 0 or less: no limit
     */
    public Uni<Stored> insertIfAbsent(SqlClient client, List<NewJob> jobs, int dispatchAtMost, int maxInFlight) {
        return insertIfAbsent(client, jobs, dispatchAtMost, maxInFlight, Set.of());
    }

    /**
     * As {@link #insertIfAbsent(SqlClient, List, int, int)}, never dispatching a job to which a concurrency limit
     * applies: one of {@code limitedTypes}, of a tenant with a limit, or of a workflow that limits its concurrency.
     */
    public Uni<Stored> insertIfAbsent(SqlClient client, List<NewJob> jobs, int dispatchAtMost, int maxInFlight,
                                      Set<String> limitedTypes) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().item(new Stored(null, Map.of()));
        }
        Tuple arrays = Tuple.tuple();
        jobColumns(jobs).forEach(arrays::addValue);
        arrays.addValue(dispatchAtMost);
        arrays.addValue(maxInFlight);
        arrays.addValue(Columns.of(jobs, NewJob::leaseMillis, Long[]::new));
        controlColumns(jobs).forEach(arrays::addValue);
        originColumns(jobs).forEach(arrays::addValue);
        arrays.addValue(Columns.of(jobs, j -> j.origin() == null ? null : j.origin().workflowId(), UUID[]::new));
        arrays.addValue(Columns.of(jobs, j -> j.origin() == null ? null : j.origin().workflowMaxConcurrency(),
                Integer[]::new));
        arrays.addValue(limitedTypes.toArray(String[]::new));
        return client.preparedQuery(INSERT).execute(arrays).map(rows -> {
            Map<UUID, JobStatus> inserted = new HashMap<>();
            Instant now = null;
            Instant nextLater = null;
            for (Row row : rows) {
                now = instant(row, "db_now");
                JobStatus status = JobStatus.valueOf(row.getString("job_status"));
                inserted.put(row.getUUID("job_id"), status);
                Instant next = instant(row, "next_run_at");
                if (status == JobStatus.PENDING && next.isAfter(now) && (nextLater == null || next.isBefore(nextLater))) {
                    nextLater = next;
                }
            }
            return new Stored(now, inserted, nextLater);
        });
    }

    /**
     * Waits until every transaction that was storing and dispatching new jobs when this was called has ended. An
     * outcome can come back before the transaction that dispatched its job at ingestion commits (the run was
     * acknowledged by Kafka, the commit not yet done); after this, such a job is visible to a new statement.
     */
    public Uni<Void> awaitIngestions() {
        return pool.query(AWAIT_INGESTIONS).execute().replaceWithVoid();
    }

    /**
     * The rows a dispatch round owns until its transaction ends: due, {@code PENDING}, not locked by anyone; at most
     * {@code batch}, and at most {@code maxInFlight} minus the jobs {@code RUNNING} now ({@code maxInFlight <= 0}: no
     * such limit).
     */
    public Uni<Claim> claimDue(SqlConnection tx, int batch, int maxInFlight, List<Priority> order) {
        if (order.size() != Priority.values().length || !order.containsAll(List.of(Priority.values()))) {
            throw new IllegalArgumentException("a claim visits every priority level once, got " + order);
        }
        return tx.preparedQuery(CLAIM_DUE).execute(Tuple.of(batch, maxInFlight, order.get(0).name(),
                order.get(1).name(), order.get(2).name())).map(rows -> {
                    List<JobExecution> jobs = new ArrayList<>(rows.size());
                    Instant now = null;
                    Instant nextLater = null;
                    boolean limited = false;
                    for (Row row : rows) {
                        now = instant(row, "round_now");
                        nextLater = instant(row, "next_later");
                        limited = row.getBoolean("limits_in_db");
                        if (row.getUUID("job_id") != null) {
                            jobs.add(map(row));
                        }
                    }
                    return new Claim(now, jobs, nextLater, limited);
                });
    }

    /**
     * Takes the lock that serializes claims under concurrency limits, held until {@code tx} ends.
     *
     */
    public Uni<LimitLock> lockForLimitedClaim(SqlConnection tx) {
        return tx.query(LOCK_LIMITS).execute().map(rows -> {
            Row row = rows.iterator().next();
            return new LimitLock(row.getBoolean("limits_in_db"), instant(row, "db_now"));
        });
    }

    /**
     * The claim lock, taken.
     *
     * @param limitsInDb a limit kept in the database (a tenant's, a waiting workflow job's) applies to some job
     * @param now        the transaction's {@code now()}
     */
    public record LimitLock(boolean limitsInDb, Instant now) {
    }

    /** The jobs {@code RUNNING} by tenant, job type and workflow, and each tenant's limit, read in {@code tx}. */
    public Uni<RunningAndLimits> runningAndTenantLimits(SqlConnection tx) {
        return tx.query(RUNNING_AND_TENANT_LIMITS).execute().map(rows -> {
            List<Running> running = new ArrayList<>();
            Map<String, Integer> tenantLimits = new HashMap<>();
            for (Row row : rows) {
                if ("T".equals(row.getString("kind"))) {
                    tenantLimits.put(row.getString("tenant"), row.getLong("n").intValue());
                } else {
                    running.add(new Running(row.getString("tenant"), row.getString("job_type"),
                            row.getUUID("workflow_id"), row.getInteger("workflow_max"), row.getLong("n")));
                }
            }
            return new RunningAndLimits(running, tenantLimits);
        });
    }

    /**
     * The due {@code PENDING} jobs a limited claim may pick from, in the claim's level order and oldest first, at most
     * {@code perLevel} of each level, none of a saturated key; unlocked. Also the earliest start of a job not due yet.
     */
    public Uni<Candidates> limitedCandidates(SqlConnection tx, List<Priority> order, int perLevel,
                                             Collection<String> saturatedTenants, Collection<String> saturatedTypes,
                                             Collection<UUID> saturatedWorkflows) {
        if (order.size() != Priority.values().length || !order.containsAll(List.of(Priority.values()))) {
            throw new IllegalArgumentException("a claim visits every priority level once, got " + order);
        }
        Tuple args = Tuple.from(new Object[] {order.get(0).name(), order.get(1).name(), order.get(2).name(), perLevel,
                saturatedTenants.toArray(String[]::new), saturatedTypes.toArray(String[]::new),
                saturatedWorkflows.toArray(UUID[]::new)});
        return tx.preparedQuery(LIMITED_CANDIDATES).execute(args).map(rows -> {
            List<Candidate> candidates = new ArrayList<>();
            int[] perLevelCount = new int[Priority.values().length];
            Instant nextLater = null;
            for (Row row : rows) {
                nextLater = instant(row, "next_later");
                if (row.getUUID("job_id") != null) {
                    perLevelCount[row.getInteger("lvl") - 1]++;
                    candidates.add(new Candidate(row.getUUID("job_id"), row.getString("tenant"),
                            row.getString("job_type"), row.getUUID("workflow_id"),
                            row.getInteger("workflow_max_running")));
                }
            }
            boolean truncated = Arrays.stream(perLevelCount).anyMatch(n -> n >= perLevel);
            return new Candidates(candidates, truncated, nextLater);
        });
    }

    /**
     * Locks the picked jobs that are still {@code PENDING} and due and that nobody else holds, until {@code tx} ends;
     * returned in the order of {@code jobIds}.
     */
    public Uni<List<JobExecution>> lockPicked(SqlConnection tx, List<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return tx.preparedQuery(LOCK_PICKED).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, JobExecution> locked = new HashMap<>();
            rows.forEach(row -> locked.put(row.getUUID("job_id"), map(row)));
            return jobIds.stream().map(locked::get).filter(java.util.Objects::nonNull).toList();
        });
    }

    /** The jobs {@code RUNNING} under one key: a tenant, a job type, a workflow (null: none) and its limit. */
    public record Running(String tenant, String jobType, UUID workflowId, Integer workflowMax, long count) {
    }

    /** The jobs {@code RUNNING} by key, and each tenant's limit. */
    public record RunningAndLimits(List<Running> running, Map<String, Integer> tenantLimits) {
    }

    /** A due job a limited claim may pick, with every key a limit may apply to. */
    public record Candidate(UUID jobId, String tenant, String jobType, UUID workflowId, Integer workflowMax) {
    }

    /**
     * What a limited claim may pick from.
     *
     * @param truncated some level had more due jobs than were read
     * @param nextLater the earliest start of a {@code PENDING} job not due yet, or null
     */
    public record Candidates(List<Candidate> jobs, boolean truncated, Instant nextLater) {
    }

    /**
     * The rows a dispatch round owns, as {@link #claimDue(SqlConnection, int, int, List)} with the levels in their
     * declaration order (HIGH, NORMAL, LOW).
     */
    public Uni<Claim> claimDue(SqlConnection tx, int batch, int maxInFlight) {
        return claimDue(tx, batch, maxInFlight, List.of(Priority.values()));
    }


    /** {@code RUNNING} rows whose lease has passed and nobody else is handling. */
    public Uni<Claim> claimExpiredLeases(SqlConnection tx, int limit) {
        return tx.preparedQuery(CLAIM_EXPIRED).execute(Tuple.of(limit)).map(JobExecutionRepository::claim);
    }

    /**
     * Several jobs, each locked until the transaction ends (waiting for a dispatch round that holds one), in
     * {@code job_id} order so that overlapping lockers cannot deadlock; unknown ids are simply absent.
     */
    public Uni<LockedMany> lockAll(SqlConnection tx, Collection<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(new LockedMany(null, Map.of()));
        }
        return tx.preparedQuery(LOCK_MANY).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, JobExecution> jobs = new HashMap<>();
            Map<UUID, UUID> runs = new HashMap<>();
            Instant now = null;
            for (Row row : rows) {
                now = instant(row, "db_now");
                JobExecution job = map(row);
                jobs.put(job.jobId(), job);
                UUID run = row.getUUID("workflow_run_id");
                if (run != null) {
                    runs.put(job.jobId(), run);
                }
            }
            return new LockedMany(now, jobs, runs);
        });
    }

    /** One job, without a lock. */
    public Uni<Optional<JobExecution>> find(UUID jobId) {
        return find(pool, jobId);
    }

    /** One job, without a lock, on {@code client}. */
    public Uni<Optional<JobExecution>> find(SqlClient client, UUID jobId) {
        return client.preparedQuery(FIND_ONE).execute(Tuple.of(jobId)).map(rows -> {
            var it = rows.iterator();
            return it.hasNext() ? Optional.of(map(it.next())) : Optional.empty();
        });
    }

    /**
     * Writes {@code next} over the row if it is still at {@code expectedVersion}.
     *
     * @throws OptimisticLockException (in the Uni) if another writer changed the row in between
     */
    public Uni<Void> update(SqlConnection tx, JobExecution next, long expectedVersion) {
        return tx.preparedQuery(UPDATE).execute(updateTuple(next, expectedVersion)).map(rows -> {
            if (rows.rowCount() != 1) {
                throw new OptimisticLockException(next.jobId(), expectedVersion);
            }
            return null;
        });
    }

    /** Writes every row of {@code next} in one batch; each must still be at its version minus one. */
    public Uni<Void> updateAll(SqlConnection tx, List<JobExecution> next) {
        return writeAll(tx, next.stream().map(j -> new Write(j, j.version() - 1)).toList());
    }

    /** A new state of a row and the version the row must still have for the write to apply. */
    public record Write(JobExecution next, long expectedVersion) {
    }

    /**
     * Writes every row in one statement (one round trip, one execution, whatever the number of rows).
     *
     * @throws OptimisticLockException (in the Uni) if any row was changed by another writer in between (the first
     *                                 such row in {@code writes}' order); the caller's transaction then rolls back as
     *                                 a whole
     */
    public Uni<Void> writeAll(SqlConnection tx, List<Write> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<JobExecution> next = writes.stream().map(Write::next).toList();
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(next, JobExecution::jobId, UUID[]::new),
                Columns.of(next, j -> j.status().name(), String[]::new),
                Columns.of(next, JobExecution::retryCount, Integer[]::new),
                Columns.of(next, JobExecution::attempt, Integer[]::new),
                Columns.of(next, j -> odt(j.nextRunAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.leaseUntil()), OffsetDateTime[]::new),
                Columns.of(next, JobExecution::lastError, String[]::new),
                Columns.of(next, j -> odt(j.updatedAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.dispatchedAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.startedAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.finishedAt()), OffsetDateTime[]::new),
                Columns.of(next, JobExecution::version, Long[]::new),
                Columns.of(writes, Write::expectedVersion, Long[]::new),
                Columns.of(next, j -> json(j.result()), String[]::new)});
        return tx.preparedQuery(UPDATE_MANY).execute(arrays).map(rows -> {
            if (rows.rowCount() == writes.size()) {
                return null;
            }
            Set<UUID> written = new HashSet<>();
            for (Row row : rows) {
                written.add(row.getUUID("job_id"));
            }
            for (Write w : writes) {
                if (!written.remove(w.next().jobId())) {
                    throw new OptimisticLockException(w.next().jobId(), w.expectedVersion());
                }
            }
            return null;
        });
    }

    /**
     * What a requeue changes of a row besides its transition.
     *
     * @param instruction the new payload as JSON, or null to keep the stored one
     * @param version     the version the row was written at by this transaction
     */
    public record Requeued(UUID jobId, int maxRetries, String instruction, long version) {
    }

    /**
     * Writes the retries and new payloads of requeued rows, in one statement; each row must have been written at its
     * {@code version} by {@code tx} (so it is locked).
     *
     * @throws OptimisticLockException (in the Uni) if a row is not at its version
     */
    public Uni<Void> writeRequeued(SqlConnection tx, List<Requeued> requeued) {
        if (requeued.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(requeued, Requeued::jobId, UUID[]::new),
                Columns.of(requeued, Requeued::maxRetries, Integer[]::new),
                Columns.of(requeued, Requeued::instruction, String[]::new),
                Columns.of(requeued, Requeued::version, Long[]::new)});
        return tx.preparedQuery(REQUEUE_MANY).execute(arrays).map(rows -> {
            if (rows.rowCount() != requeued.size()) {
                throw new OptimisticLockException(requeued.getFirst().jobId(), requeued.getFirst().version());
            }
            return null;
        });
    }

    /**
     * Placeholders for cancels of jobs that {@code tx} could not find: each {@code jobId} of {@code cancels} (distinct)
     * is stored {@code CANCELLED} at version 0 unless a row exists. An ingestion that stores one of these jobs and has
     * not committed makes this wait for its end.
     *
     * @return the ids of the placeholders written; each other id is a job that was stored meanwhile
     */
    public Uni<Set<UUID>> insertEarlyCancels(SqlConnection tx, List<EarlyCancel> cancels) {
        if (cancels.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(cancels, EarlyCancel::jobId, UUID[]::new),
                Columns.of(cancels, EarlyCancel::traceId, String[]::new),
                Columns.of(cancels, c -> odt(c.requestedAt()), OffsetDateTime[]::new)});
        return tx.preparedQuery(INSERT_EARLY_CANCELS).execute(arrays).map(rows -> {
            Set<UUID> written = new HashSet<>();
            rows.forEach(row -> written.add(row.getUUID("job_id")));
            return written;
        });
    }

    /** A cancel to keep until its job is ingested. */
    public record EarlyCancel(UUID jobId, String traceId, Instant requestedAt) {
    }

    /**
     * Turns the placeholders among {@code jobs} (jobs that {@link #insertIfAbsent} did not store because a row was
     * there) into those jobs, {@code CANCELLED} at version 1. One statement, run only when a poll had such jobs; rows
     * that are jobs already are left as they are.
     *
     * @return the jobs stored {@code CANCELLED}, and the statement's {@code now()} (null when there were none)
     */
    public Uni<Stored> fillEarlyCancels(SqlClient client, List<NewJob> jobs) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().item(new Stored(null, Map.of()));
        }
        Tuple arrays = Tuple.tuple();
        jobColumns(jobs).forEach(arrays::addValue);
        controlColumns(jobs).forEach(arrays::addValue);
        originColumns(jobs).forEach(arrays::addValue);
        return client.preparedQuery(FILL_EARLY_CANCELS).execute(arrays).map(rows -> {
            Map<UUID, JobStatus> cancelled = new HashMap<>();
            Instant now = null;
            for (Row row : rows) {
                now = instant(row, "db_now");
                cancelled.put(row.getUUID("job_id"), JobStatus.CANCELLED);
            }
            return new Stored(now, cancelled);
        });
    }

    /**
     * The arrays of what identifies each of {@code jobs} and how it runs (id, type, trace, instruction, retries,
     * acceptance), in the order both {@code INSERT} and {@code FILL_EARLY_CANCELS} bind them first.
     */
    private static List<Object> jobColumns(List<NewJob> jobs) {
        return List.of(
                Columns.of(jobs, NewJob::jobId, UUID[]::new),
                Columns.of(jobs, NewJob::jobType, String[]::new),
                Columns.of(jobs, NewJob::traceId, String[]::new),
                Columns.of(jobs, NewJob::traceparent, String[]::new),
                Columns.of(jobs, NewJob::instruction, String[]::new),
                Columns.of(jobs, NewJob::maxRetries, Integer[]::new),
                Columns.of(jobs, j -> odt(j.createdAt()), OffsetDateTime[]::new));
    }

    /** The arrays of each of {@code jobs}' control, in the order both statements bind them after the others. */
    private static List<Object> controlColumns(List<NewJob> jobs) {
        return List.of(
                Columns.of(jobs, j -> j.control().priorityOrDefault().name(), String[]::new),
                Columns.of(jobs, j -> odt(j.control().runAt()), OffsetDateTime[]::new),
                Columns.of(jobs, j -> j.control().timeoutMs(), Long[]::new),
                Columns.of(jobs, j -> arrayLiteral(j.control().retryDelaysMs()), String[]::new),
                Columns.of(jobs, j -> j.control().tenantOrDefault(), String[]::new),
                Columns.of(jobs, j -> json(j.control().labels()), String[]::new));
    }

    /**
     * The arrays of each of {@code jobs}' origin (schedule, tick; workflow run, node; nulls for a submission), bound
     * last by both.
     */
    private static List<Object> originColumns(List<NewJob> jobs) {
        return List.of(
                Columns.of(jobs, j -> j.origin() == null ? null : j.origin().scheduleId(), UUID[]::new),
                Columns.of(jobs, j -> j.origin() == null ? null : odt(j.origin().scheduledFor()),
                        OffsetDateTime[]::new),
                Columns.of(jobs, j -> j.origin() == null ? null : j.origin().workflowRunId(), UUID[]::new),
                Columns.of(jobs, j -> j.origin() == null ? null : j.origin().nodeId(), String[]::new));
    }

    /** Deletes those of {@code jobIds} that have finished (placeholders included); the number of rows deleted. */
    public Uni<Integer> deleteFinished(SqlConnection tx, Collection<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return tx.preparedQuery(DELETE_FINISHED).execute(Tuple.of(jobIds.toArray(UUID[]::new)))
                .map(RowSet::rowCount);
    }

    /** Deletes the placeholders of cancels older than {@code ttl} whose job never came; the number deleted. */
    public Uni<Integer> expireEarlyCancels(java.time.Duration ttl) {
        return pool.preparedQuery(EXPIRE_EARLY_CANCELS).execute(Tuple.of(ttl.toMillis())).map(RowSet::rowCount);
    }

    /** The due {@code PENDING} jobs grouped by priority and tenant: depth and oldest age of each group. */
    public Uni<List<dev.jobweaver.scheduler.observability.BacklogRow>> backlog() {
        return pool.query(BACKLOG).execute().map(rows -> {
            List<dev.jobweaver.scheduler.observability.BacklogRow> backlog = new ArrayList<>(rows.size());
            for (Row row : rows) {
                backlog.add(new dev.jobweaver.scheduler.observability.BacklogRow(row.getString("priority"),
                        row.getString("tenant"), row.getLong("depth"), row.getDouble("oldest_age")));
            }
            return backlog;
        });
    }

    /** How many jobs wait for a later start ({@code PENDING}, not due yet); reads each of them. */
    public Uni<Long> countDelayed() {
        return pool.query(COUNT_DELAYED).execute().map(rows -> rows.iterator().next().getLong("delayed"));
    }

    /** How many jobs are {@code PENDING} and due, and {@code RUNNING}: {@code [pending, running]}. */
    public Uni<long[]> countActive() {
        return pool.query(COUNT_ACTIVE).execute().map(rows -> {
            Row row = rows.iterator().next();
            return new long[] {row.getLong("pending"), row.getLong("running")};
        });
    }

    private static Tuple updateTuple(JobExecution j, long expectedVersion) {
        return Tuple.from(new Object[] {j.jobId(), j.status().name(), j.retryCount(), j.attempt(), odt(j.nextRunAt()),
                odt(j.leaseUntil()), j.lastError(), odt(j.updatedAt()), odt(j.dispatchedAt()), odt(j.startedAt()),
                odt(j.finishedAt()), j.version(), expectedVersion, json(j.result())});
    }

    private static Claim claim(RowSet<Row> rows) {
        List<JobExecution> jobs = new ArrayList<>(rows.size());
        Instant now = null;
        for (Row row : rows) {
            now = instant(row, "db_now");
            jobs.add(map(row));
        }
        return new Claim(now, jobs);
    }

    private static JobExecution map(Row row) {
        return new JobExecution(
                row.getUUID("job_id"),
                row.getString("job_type"),
                row.getString("trace_id"),
                row.getString("traceparent"),
                row.getString("instruction"),
                JobStatus.valueOf(row.getString("job_status")),
                row.getInteger("retry_count"),
                row.getInteger("max_retries"),
                row.getInteger("attempt"),
                instant(row, "next_run_at"),
                instant(row, "lease_until"),
                row.getString("last_error"),
                instant(row, "created_at"),
                instant(row, "updated_at"),
                instant(row, "dispatched_at"),
                instant(row, "started_at"),
                instant(row, "finished_at"),
                row.getLong("version"),
                control(row),
                tree(row.getString("result")));
    }

    /**
     * {@code control} as a row stores it and a read returns it: the priority and tenant always set (the defaults for
     * a job that named none), the start time at the database's microseconds.
     */
    public static JobControl asStored(JobControl control) {
        JobControl c = JobControl.orDefaults(control);
        return new JobControl(c.priorityOrDefault(), c.runAt() == null ? null : c.runAt().truncatedTo(
                ChronoUnit.MICROS), c.timeoutMs(), c.retryDelaysMs(), c.tenantOrDefault(),
                c.labels());
    }

    /** The control of a stored job; a row from before job control has the column defaults, NORMAL and 'default'. */
    private static JobControl control(Row row) {
        Long[] delays = row.getArrayOfLongs("retry_delays_ms");
        String labels = row.getString("labels");
        Map<String, String> labelMap = null;
        if (labels != null) {
            try {
                labelMap = JSON.readValue(labels, LABELS);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("unreadable labels of job " + row.getUUID("job_id"), e);
            }
        }
        return new JobControl(Priority.valueOf(row.getString("priority")), instant(row, "run_at"),
                row.getLong("timeout_ms"), delays == null ? null : List.of(delays), row.getString("tenant"), labelMap);
    }

    private static JsonNode tree(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable stored JSON", e);
        }
    }

    private static String json(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** A PostgreSQL array literal of {@code values} ({@code {1,2}}), bound as text and cast, or null. */
    private static String arrayLiteral(List<Long> values) {
        if (values == null) {
            return null;
        }
        StringBuilder literal = new StringBuilder("{");
        for (int i = 0; i < values.size(); i++) {
            literal.append(i == 0 ? "" : ",").append(values.get(i));
        }
        return literal.append('}').toString();
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    private static OffsetDateTime odt(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    /**
     * Rows claimed in a transaction.
     *
     * @param now the database's {@code now()} of the transaction (null when nothing was claimed): every instant
     *            written by the transaction derives from it, so all replicas share one clock
     * @param nextLater for a dispatch claim, the earliest start of a {@code PENDING} job not due yet, or null
     * @param limitsInDb for a plain dispatch claim, that it claimed nothing because a limit kept in the database
     *                   applies to some job: the caller must claim under the limits
     */
    public record Claim(Instant now, List<JobExecution> jobs, Instant nextLater, boolean limitsInDb) {

        public Claim(Instant now, List<JobExecution> jobs, Instant nextLater) {
            this(now, jobs, nextLater, false);
        }

        public Claim(Instant now, List<JobExecution> jobs) {
            this(now, jobs, null);
        }
    }

    /**
     * Rows locked in a transaction, by jobId.
     *
     * @param now the transaction's {@code now()}; null when none of the ids exists
     * @param workflowRuns the workflow run of each locked job that is a workflow node's, by jobId
     */
    public record LockedMany(Instant now, Map<UUID, JobExecution> jobs, Map<UUID, UUID> workflowRuns) {

        public LockedMany {
            workflowRuns = Map.copyOf(workflowRuns);
        }

        public LockedMany(Instant now, Map<UUID, JobExecution> jobs) {
            this(now, jobs, Map.of());
        }

        /** These rows and {@code later}'s, locked afterwards in the same transaction; this one's clock if it has one. */
        public LockedMany and(LockedMany later) {
            Map<UUID, JobExecution> allJobs = new HashMap<>(jobs);
            allJobs.putAll(later.jobs());
            Map<UUID, UUID> allRuns = new HashMap<>(workflowRuns);
            allRuns.putAll(later.workflowRuns());
            return new LockedMany(now != null ? now : later.now(), allJobs, allRuns);
        }
    }

    /** Another writer changed the row since it was read. */
    public static final class OptimisticLockException extends RuntimeException {

        public OptimisticLockException(UUID jobId, long expectedVersion) {
            super("job " + jobId + " is no longer at version " + expectedVersion);
        }
    }
}
