package dev.jobweaver.bench;

import java.time.Duration;

/**
 * The set-based statements with which the purge workload seeds finished jobs of a tenant of its own straight into the
 * API's and the scheduler's databases, and those with which it follows them.
 *
 * <p>A seeded job looks to both services like a no-op job of that tenant that ran once and completed
 * {@link #FINISHED_AGO} ago: in the API a {@code jobs} row {@code COMPLETED} with one {@code job_attempts} row (what
 * the worker's outcome leaves), no outbox row (published long ago) and no idempotency key, subscription or dead letter; in
 * the scheduler a {@code job_executions} row {@code COMPLETED} at attempt 1. Job {@code g} of a run has the id
 * {@code md5(prefix || g)}, so that the two databases, which share no transaction, hold the same ids without the bench
 * carrying a million of them; the prefix names the run, so a seed never meets an earlier one's rows.
 *
 * <p>Each statement inserts one chunk, {@code generate_series(first, last)}: a chunk is one transaction, never the
 * whole seed, so neither database holds a million-row transaction open (nor its WAL at once).
 */
final class PurgeSeed {

    /** Rows per insert statement, hence per transaction. */
    static final int CHUNK = 100_000;

    /** How long before the seed its jobs finished: past the retention the workload sets, well before the run. */
    static final Duration FINISHED_AGO = Duration.ofHours(1);

    /** The seeded jobs' type and payload: the bench's no-op job ({@link JobKind#NOOP}). */
    static final String TYPE = "SIMULATION";
    static final String INSTRUCTION = "{\"steps\":[{\"action\":\"LOG\",\"message\":\"bench\"}]}";

    /**
     * The version a job that was ingested (0), dispatched (1) and completed (2) carries in both services: the API's
     * {@code status_version} is the last {@code JobStatusChangedEvent.version} it applied.
     */
    static final int VERSION = 2;

    /** The id of job {@code g}: the same expression in both databases. */
    private static final String ID = "md5(?::text || g)::uuid";

    /**
     * Parameters: id prefix, tenant, first, last, finished ago (s). created_at about a second before the finish of the
     * seed's newest job less {@link #FINISHED_AGO}, a microsecond apart; the start 11 ms after it, the finish 20 ms
     * after that: a no-op job's times.
     */
    static final String API_JOBS = "INSERT INTO jobs (id, type, instruction, trace_id, status, retry_count,"
            + " max_retries, attempts, next_run_at, created_at, updated_at, finished_at, status_version, priority,"
            + " tenant, queue, started_at)"
            + " SELECT " + ID + ", '" + TYPE + "', '" + INSTRUCTION + "'::jsonb, substr(md5('trace' || g), 1, 32),"
            + " 'COMPLETED', 0, 3, 1, s.at, s.at, s.at + interval '31 milliseconds',"
            + " s.at + interval '31 milliseconds', " + VERSION + ", 'NORMAL', ?, 'default',"
            + " s.at + interval '11 milliseconds'"
            + " FROM generate_series(?::bigint, ?::bigint) g"
            + " CROSS JOIN LATERAL (SELECT now() - make_interval(secs => ?) - interval '1 second'"
            + " + g * interval '1 microsecond' AS at) s";

    /** Parameters: id prefix, first, last, finished ago (s): the one attempt of each seeded job, as the API has it. */
    static final String API_ATTEMPTS = "INSERT INTO job_attempts (job_id, attempt, outcome, started_at, finished_at,"
            + " worker_id)"
            + " SELECT " + ID + ", 1, 'COMPLETED', s.at + interval '11 milliseconds',"
            + " s.at + interval '31 milliseconds',"
            + " 'bench-purge-seed'"
            + " FROM generate_series(?::bigint, ?::bigint) g"
            + " CROSS JOIN LATERAL (SELECT now() - make_interval(secs => ?) - interval '1 second'"
            + " + g * interval '1 microsecond' AS at) s";

    /** Parameters: id prefix, tenant, first, last, finished ago (s); the same ids and times as {@link #API_JOBS}. */
    static final String SCHEDULER_JOBS = "INSERT INTO job_executions (job_id, job_type, trace_id, instruction,"
            + " job_status, retry_count, max_retries, attempt, next_run_at, created_at, ingested_at, updated_at,"
            + " dispatched_at, started_at, finished_at, version, priority, tenant, queue)"
            + " SELECT " + ID + ", '" + TYPE + "', substr(md5('trace' || g), 1, 32), '" + INSTRUCTION + "'::jsonb,"
            + " 'COMPLETED', 0, 3, 1, s.at, s.at, s.at + interval '3 milliseconds', s.at + interval '31 milliseconds',"
            + " s.at + interval '5 milliseconds', s.at + interval '11 milliseconds', s.at + interval '31 milliseconds',"
            + " " + VERSION + ", 'NORMAL', ?, 'default'"
            + " FROM generate_series(?::bigint, ?::bigint) g"
            + " CROSS JOIN LATERAL (SELECT now() - make_interval(secs => ?) - interval '1 second'"
            + " + g * interval '1 microsecond' AS at) s";

    /** The seeded tenant's jobs left in the API (parameter: tenant); its partial tenant index serves it. */
    static final String API_LEFT = "SELECT count(*) FROM jobs WHERE tenant = ?";
    /**
     * The seeded jobs' attempt rows left in the API (parameters: id prefix, count): none may outlive its job. It
     * computes every seeded id, so it runs once, after the purge, not at every sample.
     */
    static final String API_ATTEMPTS_LEFT = "SELECT count(*) FROM job_attempts a"
            + " WHERE a.job_id IN (SELECT " + ID + " FROM generate_series(1::bigint, ?::bigint) g)";
    /** The seeded tenant's rows left in the scheduler (parameter: tenant); no index has tenant first: a scan. */
    static final String SCHEDULER_LEFT = "SELECT count(*) FROM job_executions WHERE tenant = ?";

    /**
     * Rows of every other tenant that no default retention can make due while the workload runs (parameters: the
     * seeded tenant, a day before the workload, the workload's start): unfinished, or finished within the day before
     * the workload (the shortest default is 7 days), and created before the start (later rows are the steady run's,
     * judged one by one). The count must not drop while the purge runs. A tenant that set a retention shorter than a
     * day may lose rows here rightly; the bench's own platform has none.
     */
    static final String API_OTHERS = "SELECT count(*) FROM jobs WHERE tenant <> ?"
            + " AND (finished_at IS NULL OR finished_at > ?) AND created_at < ?";
    /** {@link #API_OTHERS} in the scheduler's table. */
    static final String SCHEDULER_OTHERS = "SELECT count(*) FROM job_executions WHERE tenant <> ?"
            + " AND (finished_at IS NULL OR finished_at > ?) AND created_at < ?";

    /** One insert: series numbers {@code first..last}, both included. */
    record Chunk(long first, long last) {

        /** Rows it inserts. */
        long size() {
            return last - first + 1;
        }
    }

    private PurgeSeed() {
    }

    /** {@code count} jobs as chunks of at most {@code chunk} rows, numbered from 1. */
    static java.util.List<Chunk> chunks(long count, int chunk) {
        if (count < 0 || chunk <= 0) {
            throw new IllegalArgumentException("count " + count + " and chunk " + chunk);
        }
        java.util.List<Chunk> chunks = new java.util.ArrayList<>();
        for (long first = 1; first <= count; first += chunk) {
            chunks.add(new Chunk(first, Math.min(count, first + chunk - 1)));
        }
        return chunks;
    }

    /** The tenant of one run: {@code bench-purge-} and {@code stamp}, within the API's 63 characters. */
    static String tenant(String stamp) {
        String tenant = "bench-purge-" + stamp;
        if (tenant.length() > 63 || !tenant.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("not a tenant name: " + tenant);
        }
        return tenant;
    }

    /** The prefix of the ids of one run's jobs. */
    static String idPrefix(String tenant) {
        return tenant + ":";
    }
}
