package dev.jobweaver.scheduler.job.store;

import dev.jobweaver.common.job.Priority;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every statement on {@code job_executions}, in one place. Each runs in one round trip; a statement over many jobs
 * binds arrays that are unnested on the server, so its cost does not grow with round trips.
 *
 * <p>Fragments that read one priority level at a time are repeated for each level ({@link #eachLevel}): the index on
 * (priority, next_run_at) serves a condition on one level, while one on next_run_at alone would scan every waiting job.
 */
final class JobSql {

    private JobSql() {
    }

    static final String COLUMNS = """
            job_id, job_type, trace_id, traceparent, instruction::text AS instruction, job_status, retry_count, \
            max_retries, attempt, next_run_at, lease_until, last_error, created_at, updated_at, dispatched_at, \
            started_at, finished_at, version, priority, run_at, timeout_ms, retry_delays_ms, tenant, \
            labels::text AS labels, queue, result::text AS result, now() AS db_now""";

    /**
     * The {@code job_type} of a placeholder: a cancel kept for a job not ingested yet (migration V5 says why it is a
     * row of this table). No job type is empty.
     */
    static final String EARLY_CANCEL = "";

    /** {@code template} once per priority level ({@code %s}: the level's name), joined by {@code separator}. */
    private static String eachLevel(String template, String separator) {
        return Arrays.stream(Priority.values()).map(p -> template.formatted(p.name()))
                .collect(Collectors.joining(separator));
    }

    /**
     * The earliest start of a {@code PENDING} job that is not due yet: the first entry after now() of each level of
     * the index on (priority, next_run_at). Three probes, whatever the number of waiting jobs (LEAST ignores a level
     * that has none).
     */
    static final String NEXT_LATER = "LEAST(" + eachLevel("""
            (SELECT next_run_at FROM job_executions WHERE job_status = 'PENDING' AND priority = '%s' \
            AND next_run_at > now() ORDER BY next_run_at LIMIT 1)""", ", ") + ")";

    /** Whether a {@code PENDING} job is due now, one index probe per priority level. */
    private static final String ANY_DUE = "(" + eachLevel("""
            EXISTS (SELECT 1 FROM job_executions WHERE job_status = 'PENDING' AND priority = '%s' \
            AND next_run_at <= now())""", " OR ") + ")";

    /**
     * The in-flight rule, shared by the dispatch claim and the insert that dispatches new jobs: at most
     * {@code min(cap, maxInFlight - running)} rows, never a negative count (replicas may overshoot together), counted
     * in the caller's own statement rather than a round trip before it; {@code maxInFlight <= 0} means no such limit
     * (CASE evaluates the count only when there is one).
     */
    private static String slotsUnder(String cap, String maxInFlight) {
        return """
                CASE WHEN %2$s <= 0 THEN %1$s ELSE LEAST(%1$s, GREATEST(0, %2$s \
                - (SELECT count(*) FROM job_executions WHERE job_status = 'RUNNING'))) END""".formatted(cap, maxInFlight);
    }

    /**
     * The advisory lock that fences ingestion: every transaction that stores and dispatches new jobs holds it shared
     * until it ends, and an outcome for a job it cannot see takes it exclusively, which waits for those transactions
     * ({@link #AWAIT_INGESTIONS}). The key is arbitrary; the database belongs to this service alone.
     */
    static final long INGESTION_FENCE = 0x4a6f_6257_6561_7645L;

    /**
     * The advisory lock that serializes the claims made under concurrency limits, over all replicas: each takes it
     * (until its transaction ends) before it counts the jobs {@code RUNNING}, so that it sees every job the claim
     * before it dispatched. The key is arbitrary; the database belongs to this service alone.
     */
    static final long CLAIM_LIMITS = 0x4a6f_6257_4c69_6d69L;

    /**
     * Whether a limit kept in the database applies to some job: a tenant's limit, or a due-or-later {@code PENDING}
     * job of a workflow that limits its concurrency. Two index probes of relations that are empty while nobody sets
     * such a limit.
     */
    // The workflow probe asks for the first entry in next_run_at order: the partial index idx_job_executions_workflow_
    // limited (V7) serves it in one page whatever the statistics say; a bare EXISTS let the planner scan the table.
    // tenant_limits holds a row per tenant that ever had a limit: a page or so.
    static final String LIMITS_IN_DB = """
            (EXISTS (SELECT 1 FROM tenant_limits WHERE max_running IS NOT NULL) \
            OR EXISTS (SELECT 1 FROM (SELECT next_run_at FROM job_executions WHERE job_status = 'PENDING' \
            AND workflow_max_running IS NOT NULL ORDER BY next_run_at LIMIT 1) w))""";

    // ---- Ingestion ----

    // A job no concurrency limit applies to, the only kind ingestion dispatches ($23: the job types that have a limit;
    // a global limit makes the caller dispatch nothing). The others are stored PENDING and the limited claim starts
    // them, so that every start of a limited job happens under its lock.
    private static final String UNLIMITED = """
            v.workflow_max_running IS NULL AND v.job_type <> ALL($23::text[]) \
            AND NOT EXISTS (SELECT 1 FROM tenant_limits t WHERE t.tenant = v.tenant AND t.max_running IS NOT NULL)""";

    // One statement for a whole poll: arrays unnested on the server, so one round trip. The instruction is bound as
    // text and cast: bound as jsonb, a Java String would be stored as a JSON string.
    //
    // The first rows (in the poll's order) go straight to RUNNING at attempt 1, as JobStateMachine.dispatch would
    // move them, when there are slots: $8 caps them, $9 is max-in-flight (<= 0: no limit), and none go while a due
    // PENDING job is waiting, since the dispatcher owes it the next slot (jobs start in the order they became due).
    // The others are stored PENDING and due now. Both CTEs run once (MATERIALIZED); the first takes the fence.
    static final String INSERT = """
            WITH fence AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(%d)),
             slots AS MATERIALIZED (SELECT CASE WHEN $8::int4 <= 0 THEN 0
             WHEN %s THEN 0
             ELSE %s END AS n FROM fence)
             INSERT INTO job_executions (job_id, job_type, trace_id, traceparent, instruction, job_status,
             retry_count, max_retries, attempt, next_run_at, lease_until, created_at, updated_at, dispatched_at,
             version, priority, run_at, timeout_ms, retry_delays_ms, tenant, labels, schedule_id, scheduled_for,
             workflow_run_id, node_id, workflow_id, workflow_max_running, queue)
             SELECT u.job_id, u.job_type, u.trace_id, u.traceparent, u.instruction::jsonb,
             CASE WHEN u.go THEN 'RUNNING' ELSE 'PENDING' END, 0, u.max_retries,
             CASE WHEN u.go THEN 1 ELSE 0 END, CASE WHEN u.due THEN now() ELSE u.run_at END,
             CASE WHEN u.go THEN now() + u.lease_ms * interval '1 millisecond' END,
             u.created_at, now(), CASE WHEN u.go THEN now() END, CASE WHEN u.go THEN 1 ELSE 0 END,
             u.priority, u.run_at, u.timeout_ms, u.retry_delays_ms::int8[], u.tenant, u.labels::jsonb,
             u.schedule_id, u.scheduled_for, u.workflow_run_id, u.node_id, u.workflow_id, u.workflow_max_running,
             u.queue
             FROM (SELECT v.*, v.due AND v.ord <= s.n AND NOT v.held AND %s AS go FROM
             (SELECT w.*, w.run_at IS NULL OR w.run_at <= now() AS due FROM
             unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int4[], $7::timestamptz[],
             $10::int8[], $11::text[], $12::timestamptz[], $13::int8[], $14::text[], $15::text[], $16::text[],
             $17::uuid[], $18::timestamptz[], $19::uuid[], $20::text[], $21::uuid[], $22::int4[], $24::text[],
             $25::bool[])
             WITH ORDINALITY AS w(job_id, job_type, trace_id, traceparent, instruction, max_retries, created_at,
             lease_ms, priority, run_at, timeout_ms, retry_delays_ms, tenant, labels, schedule_id, scheduled_for,
             workflow_run_id, node_id, workflow_id, workflow_max_running, queue, held, ord)) v
             CROSS JOIN slots s) u
             ON CONFLICT (job_id) DO NOTHING RETURNING job_id, job_status, next_run_at, now() AS db_now"""
            .formatted(INGESTION_FENCE, ANY_DUE, slotsUnder("$8::int4", "$9::int4"), UNLIMITED);

    /**
     * Makes the transaction's next statement, {@link #INSERT}, run with the plan its connection keeps for it. The
     * connections plan every execution afresh ({@code plan_cache_mode}), and the insert's 25 bound values made that
     * cost more than running it: 1.24 ms of planning a call against 0.58 ms of execution at 100 jobs/s (2026-12-02).
     * Its generic plan, made once per connection and possibly on an empty table, probes the job's key, the due and
     * lease indexes and {@code tenant_limits} as it would on a full table ({@code KeptInsertPlanTest}).
     */
    static final String KEEP_PLAN = "SET LOCAL plan_cache_mode = force_generic_plan";

    /** Back to the connection's own setting for the rest of the transaction. */
    static final String PLAN_AFRESH = "SET LOCAL plan_cache_mode TO DEFAULT";

    // Waits for every transaction that holds the fence shared, then lets go at once (autocommit: the statement is
    // its own transaction), so that the outcome's transaction never holds it.
    static final String AWAIT_INGESTIONS = "SELECT pg_advisory_xact_lock(%d)".formatted(INGESTION_FENCE);

    // Placeholders, CANCELLED at version 0, for cancels of jobs this statement cannot find. A job being stored by an
    // ingestion transaction that has not committed makes the INSERT wait for it, then skip that id: the ids it returns
    // are the placeholders written, the others are jobs that exist now.
    static final String INSERT_EARLY_CANCELS = """
            INSERT INTO job_executions (job_id, job_type, trace_id,
             instruction, job_status, max_retries, next_run_at, created_at, updated_at, finished_at, version)
             SELECT u.job_id, '%1$s', u.trace_id, 'null'::jsonb, 'CANCELLED', 0, now(),
             u.requested_at, now(), now(), 0
             FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS u(job_id, trace_id, requested_at)
             ON CONFLICT (job_id) DO NOTHING RETURNING job_id""".formatted(EARLY_CANCEL);

    // The jobs of placeholders become CANCELLED at version 1 with everything their event carried, as if stored PENDING
    // and cancelled by the same statement (JobStateMachine.cancel of NewJob.pendingRow at now()). A row that is a job
    // already is left alone, and not locked: its job_type is not empty in the statement's snapshot.
    static final String FILL_EARLY_CANCELS = """
            UPDATE job_executions AS j SET job_type = u.job_type,
             trace_id = u.trace_id, traceparent = u.traceparent, instruction = u.instruction::jsonb,
             max_retries = u.max_retries, next_run_at = now(), created_at = u.created_at, updated_at = now(),
             finished_at = now(), version = 1, priority = u.priority, run_at = u.run_at, timeout_ms = u.timeout_ms,
             retry_delays_ms = u.retry_delays_ms::int8[], tenant = u.tenant, labels = u.labels::jsonb,
             schedule_id = u.schedule_id, scheduled_for = u.scheduled_for,
             workflow_run_id = u.workflow_run_id, node_id = u.node_id, queue = u.queue
             FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int4[], $7::timestamptz[],
             $8::text[], $9::timestamptz[], $10::int8[], $11::text[], $12::text[], $13::text[], $14::uuid[],
             $15::timestamptz[], $16::uuid[], $17::text[], $18::text[])
             AS u(job_id, job_type, trace_id, traceparent, instruction, max_retries, created_at, priority, run_at,
             timeout_ms, retry_delays_ms, tenant, labels, schedule_id, scheduled_for, workflow_run_id, node_id, queue)
             WHERE j.job_id = u.job_id AND j.job_type = '%1$s'
             RETURNING j.job_id, now() AS db_now""".formatted(EARLY_CANCEL);

    // Served by the partial index idx_job_executions_early_cancels (V5): reads the placeholders only.
    static final String EXPIRE_EARLY_CANCELS = """
            DELETE FROM job_executions WHERE job_type = '%s' \
            AND created_at < now() - $1::int8 * interval '1 millisecond'""".formatted(EARLY_CANCEL);

    // ---- Dispatch claims ----

    private static String claimLevel(String priority, String limit) {
        return """
                SELECT %s FROM job_executions \
                WHERE job_status = 'PENDING' AND priority = %s AND next_run_at <= now() \
                ORDER BY next_run_at LIMIT %s FOR UPDATE SKIP LOCKED""".formatted(COLUMNS, priority, limit);
    }

    // The levels in the claim's order: the oldest due jobs of the first, then of the second for what is left of the
    // batch, then of the third. Each level reads the head of its part of the index (priority, next_run_at), so a claim
    // costs the rows it takes, never a sort of the backlog. A level's LIMIT is what the levels before it left (0 once
    // the batch is full: the scan is then not even started).
    //
    // The claim that applies no concurrency limit, run while none is known. Its one addition is LIMITS_IN_DB, two
    // probes of empty relations: a limit another replica learnt of (a tenant's, or a workflow job it stored) makes it
    // claim nothing and say so, and the caller claims under the limits instead. The claim also tells when the next
    // job that is not due yet becomes due (NEXT_LATER), in the same round trip: the row of that probe is there even
    // when nothing is claimed.
    private static String claimDue(String batch, String maxInFlight, String first, String second, String third) {
        return """
                WITH lp AS MATERIALIZED (SELECT %s AS active),
                 lim AS MATERIALIZED (SELECT CASE WHEN (SELECT active FROM lp) THEN 0 ELSE %s END AS n),
                 l1 AS MATERIALIZED (%s),
                 l2 AS MATERIALIZED (%s),
                 l3 AS MATERIALIZED (%s)
                 SELECT c.*, nd.next_later, now() AS round_now, (SELECT active FROM lp) AS limits_in_db
                 FROM (SELECT %s AS next_later) nd
                 LEFT JOIN (SELECT 1 AS lvl, * FROM l1 UNION ALL SELECT 2, * FROM l2 UNION ALL SELECT 3, * FROM l3) c
                 ON true ORDER BY c.lvl, c.next_run_at""".formatted(LIMITS_IN_DB,
                slotsUnder(batch, maxInFlight),
                claimLevel(first, "(SELECT n FROM lim)"),
                claimLevel(second, "(SELECT n FROM lim) - (SELECT count(*) FROM l1)"),
                claimLevel(third, "(SELECT n FROM lim) - (SELECT count(*) FROM l1) - (SELECT count(*) FROM l2)"),
                NEXT_LATER);
    }

    /**
     * The plain claim with its values in the text, none bound. PostgreSQL plans a statement without parameters once
     * per connection and keeps the plan (it makes custom plans only for bound values, whatever {@code
     * plan_cache_mode} says), and planning this one took longer than running it: 0.75-1.7 ms a round. Keeping its
     * plan is safe where keeping a set-based write's is not: made on an empty table, it reads the due index as it does
     * on a full one ({@code KeptClaimPlanTest}). A dispatcher claims with one batch size and limit and at most six
     * orders of the levels, so a connection prepares at most six texts.
     */
    static String claimDue(int batch, int maxInFlight, List<Priority> order) {
        return claimDue(Integer.toString(batch), Integer.toString(maxInFlight), literal(order.get(0)),
                literal(order.get(1)), literal(order.get(2)));
    }

    private static String literal(Priority level) {
        return "'" + level.name() + "'";
    }

    // A statement of its own, before the counts: under READ COMMITTED each statement reads the data committed when it
    // starts, so the counts that follow see the commit of the claim that held the lock before.
    static final String LOCK_LIMITS = """
            SELECT pg_advisory_xact_lock(%d) IS NOT NULL AS locked, %s AS limits_in_db, now() AS db_now"""
            .formatted(CLAIM_LIMITS, LIMITS_IN_DB);

    // The RUNNING jobs by every key a limit may apply to (bounded by max-in-flight, read from the partial lease index's
    // rows), then the tenants' limits.
    static final String RUNNING_AND_TENANT_LIMITS = """
            SELECT 'R' AS kind, tenant, job_type, queue, workflow_id,
             min(workflow_max_running) AS workflow_max, count(*) AS n FROM job_executions
             WHERE job_status = 'RUNNING' GROUP BY tenant, job_type, queue, workflow_id
             UNION ALL SELECT 'T', tenant, NULL, NULL, NULL, NULL, max_running FROM tenant_limits
             WHERE max_running IS NOT NULL""";

    private static String candidateLevel(int level, String priority) {
        return """
                (SELECT %d AS lvl, job_id, tenant, job_type, queue, workflow_id, workflow_max_running, next_run_at \
                FROM job_executions WHERE job_status = 'PENDING' AND priority = %s::text \
                AND next_run_at <= now() AND tenant <> ALL($5::text[]) AND job_type <> ALL($6::text[]) \
                AND (workflow_id IS NULL OR workflow_id <> ALL($7::uuid[])) \
                AND queue <> ALL($8::text[]) \
                ORDER BY next_run_at LIMIT $4::int4)""".formatted(level, priority);
    }

    // The due jobs of each level in the claim's order ($1, $2, $3), oldest first, at most $4 a level, without those of
    // a saturated tenant ($5), job type ($6), workflow ($7) or queue ($8); no lock: the caller picks among them and locks those.
    // The jobs of a saturated key are filtered out as the index is read, so a saturated tenant's backlog costs a read
    // of its rows that are ahead of the others' in a level.
    static final String LIMITED_CANDIDATES = """
            SELECT c.*, nd.next_later FROM (SELECT %s AS next_later) nd LEFT JOIN (%s UNION ALL %s UNION ALL %s) c \
            ON true ORDER BY c.lvl, c.next_run_at""".formatted(NEXT_LATER, candidateLevel(1, "$1"),
            candidateLevel(2, "$2"), candidateLevel(3, "$3"));

    // The picked jobs, each still PENDING and due, skipping any another transaction holds (a cancel, say).
    static final String LOCK_PICKED = """
            SELECT %s FROM job_executions WHERE job_id = ANY($1) \
            AND job_status = 'PENDING' AND next_run_at <= now() FOR UPDATE SKIP LOCKED""".formatted(COLUMNS);

    // ---- Leases, commands and outcomes ----

    static final String CLAIM_EXPIRED = """
            SELECT %s FROM job_executions WHERE job_status = 'RUNNING' AND lease_until < now() \
            ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED""".formatted(COLUMNS);

    // Ordered by job_id so that two transactions locking overlapping sets take their locks in the same order.
    static final String LOCK_MANY = """
            SELECT %s, workflow_run_id FROM job_executions WHERE job_id = ANY($1) ORDER BY job_id FOR UPDATE"""
            .formatted(COLUMNS);

    // ---- Writes ----

    static final String UPDATE = """
            UPDATE job_executions SET job_status = $2, retry_count = $3, attempt = $4,
             next_run_at = $5, lease_until = $6, last_error = $7, updated_at = $8, dispatched_at = $9,
             started_at = $10, finished_at = $11, version = $12, result = $14::text::jsonb
             WHERE job_id = $1 AND version = $13""";

    // Many rows in one statement: arrays unnested on the server, each row written only if still at its expected
    // version; the ids written come back, so the caller can tell which row another writer changed.
    static final String UPDATE_MANY = """
            UPDATE job_executions AS j SET job_status = u.job_status,
             retry_count = u.retry_count, attempt = u.attempt, next_run_at = u.next_run_at,
             lease_until = u.lease_until, last_error = u.last_error, updated_at = u.updated_at,
             dispatched_at = u.dispatched_at, started_at = u.started_at, finished_at = u.finished_at,
             version = u.version, result = u.result::jsonb
             FROM unnest($1::uuid[], $2::text[], $3::int4[], $4::int4[], $5::timestamptz[], $6::timestamptz[],
             $7::text[], $8::timestamptz[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[], $12::int8[],
             $13::int8[], $14::text[]) AS u(job_id, job_status, retry_count, attempt, next_run_at, lease_until,
             last_error, updated_at, dispatched_at, started_at, finished_at, version, expected, result)
             WHERE j.job_id = u.job_id AND j.version = u.expected
             RETURNING j.job_id""";

    // What a requeue changes besides the columns every transition writes: the retries allowed, and the payload when a
    // new one is given (NULL keeps the stored one, which is then not rewritten). Rows already written at their new
    // version by the same transaction.
    static final String REQUEUE_MANY = """
            UPDATE job_executions AS j SET max_retries = u.max_retries,
             instruction = COALESCE(u.instruction::jsonb, j.instruction)
             FROM unnest($1::uuid[], $2::int4[], $3::text[], $4::int8[])
             AS u(job_id, max_retries, instruction, version)
             WHERE j.job_id = u.job_id AND j.version = u.version""";

    static final String DELETE_FINISHED = """
            DELETE FROM job_executions WHERE job_id = ANY($1) \
            AND job_status IN ('COMPLETED', 'FAILED', 'CANCELLED', 'REJECTED')""";

    // ---- Reads and counts ----

    static final String FIND_ONE = "SELECT %s FROM job_executions WHERE job_id = $1".formatted(COLUMNS);

    // Counts that each match a partial index's predicate, so the gauges never scan finished jobs; the PENDING ones
    // count the due jobs of each level only (an index range each), never the jobs waiting for a later start.
    static final String COUNT_ACTIVE = "SELECT (" + eachLevel("""
            (SELECT count(*) FROM job_executions WHERE job_status = 'PENDING' AND priority = '%s' \
            AND next_run_at <= now())""", " + ") + """
            ) AS pending, \
            (SELECT count(*) FROM job_executions WHERE job_status = 'RUNNING') AS running""";

    /**
     * The due backlog by priority and tenant: one group per pair that has a job waiting. The due index carries the
     * tenant (V11), so on all-visible pages this reads the index alone. The priorities are listed so that the index's
     * leading column is a condition too: without them the scan would walk the entries of every job for later.
     */
    static final String BACKLOG = """
            SELECT priority, tenant, count(*) AS depth,
             GREATEST(EXTRACT(EPOCH FROM now() - min(next_run_at)), 0)::float8 AS oldest_age
             FROM job_executions WHERE job_status = 'PENDING' AND priority IN (%s)
             AND next_run_at <= now() GROUP BY priority, tenant""".formatted(eachLevel("'%s'", ", "));

    /**
     * The jobs waiting to run by queue: the due {@code PENDING} ones, and those set aside because no live worker serves
     * them ({@code parked_jobs}), which are {@code PENDING} but due again only later and would otherwise vanish from
     * the count the moment a claim parks them. A parked job's wait counts from its parking, the first one (parking it
     * again keeps the row); its due time before that is not kept. The due branch reads the due entries of the index
     * as {@link #BACKLOG} does, plus each one's row for the queue; the parked branch reads {@code parked_jobs}, empty
     * while every job has its worker.
     */
    static final String QUEUE_BACKLOG = """
            SELECT queue, count(*) AS depth,
             GREATEST(EXTRACT(EPOCH FROM now() - min(since)), 0)::float8 AS oldest_age
             FROM (SELECT j.queue, j.next_run_at AS since FROM job_executions j
                    WHERE j.job_status = 'PENDING' AND j.priority IN (%s) AND j.next_run_at <= now()
                    AND NOT EXISTS (SELECT 1 FROM parked_jobs p WHERE p.job_id = j.job_id)
                   UNION ALL
                   SELECT j.queue, p.parked_at FROM parked_jobs p JOIN job_executions j ON j.job_id = p.job_id
                    WHERE j.job_status = 'PENDING') waiting
             GROUP BY queue""".formatted(eachLevel("'%s'", ", "));

    static final String COUNT_DELAYED = """
            SELECT count(*) AS delayed FROM job_executions WHERE job_status = 'PENDING' AND next_run_at > now()""";
}
