package dev.jobweaver.scheduler.testing;

import static dev.jobweaver.scheduler.testing.Waits.TIMEOUT;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.store.JobReads;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/** Reads and nudges {@code job_executions} from tests (the test thread may block). */
public final class TestDb {

    private final Pool pool;
    private final JobReads reads;

    public TestDb(Pool pool, JobReads reads) {
        this.pool = pool;
        this.reads = reads;
    }

    public Optional<JobExecution> find(UUID jobId) {
        return reads.find(jobId).await().atMost(TIMEOUT);
    }

    public JobExecution get(UUID jobId) {
        return find(jobId).orElseThrow(() -> new AssertionError("no job_executions row for " + jobId));
    }

    /** Waits until the job's row matches {@code condition}; returns it. */
    public JobExecution awaitJob(UUID jobId, Predicate<JobExecution> condition) {
        await().atMost(TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .until(() -> find(jobId).filter(condition).isPresent());
        return get(jobId);
    }

    /** Waits until the job is {@code status} at attempt {@code attempt}. */
    public JobExecution awaitJob(UUID jobId, JobStatus status, int attempt) {
        return awaitJob(jobId, j -> j.status() == status && j.attempt() == attempt);
    }

    /** Makes a PENDING job due now, as if its backoff had passed; returns the rows changed. */
    public int makeDue(UUID jobId) {
        return update("UPDATE job_executions SET next_run_at = now() - interval '1 millisecond'"
                + " WHERE job_id = $1 AND job_status = 'PENDING'", jobId);
    }

    /** Puts a RUNNING job's lease in the past, as if its worker had died; returns the rows changed. */
    public int expireLease(UUID jobId) {
        return update("UPDATE job_executions SET lease_until = now() - interval '1 second'"
                + " WHERE job_id = $1 AND job_status = 'RUNNING'", jobId);
    }

    /** As {@link #insertPending(UUID, String, int, long)}, for a job of its own; its id. */
    public UUID pending(String instructionJson, int maxRetries, long dueInSeconds) {
        UUID jobId = UUID.randomUUID();
        insertPending(jobId, instructionJson, maxRetries, dueInSeconds);
        return jobId;
    }

    /**
     * Inserts a PENDING job directly, due {@code dueInSeconds} from now (negative: already due), as ingestion
     * would have stored it.
     */
    public void insertPending(UUID jobId, String instructionJson, int maxRetries, long dueInSeconds) {
        update("INSERT INTO job_executions (job_id, job_type, trace_id, traceparent, instruction, job_status,"
                + " retry_count, max_retries, attempt, next_run_at, created_at, updated_at, version)"
                + " VALUES ($1, 'SIMULATION', $2, NULL, $3::text::jsonb, 'PENDING', 0, $4, 0,"
                + " now() + make_interval(secs => $5), now(), now(), 0)",
                jobId, TestJobs.traceId(jobId), instructionJson, maxRetries, (double) dueInSeconds);
    }

    /**
     * Inserts a PENDING job directly with a priority and a tenant, due {@code dueInSeconds} from now (negative:
     * already due), as ingestion would have stored it.
     */
    public void insertPending(UUID jobId, String instructionJson, Priority priority, String tenant,
                              double dueInSeconds) {
        update("INSERT INTO job_executions (job_id, job_type, trace_id, traceparent, instruction, job_status,"
                + " retry_count, max_retries, attempt, next_run_at, created_at, updated_at, version, priority, tenant)"
                + " VALUES ($1, 'SIMULATION', $2, NULL, $3::text::jsonb, 'PENDING', 0, 0, 0,"
                + " now() + make_interval(secs => $4), now(), now(), 0, $5, $6)",
                jobId, TestJobs.traceId(jobId), instructionJson, dueInSeconds, priority.name(), tenant);
    }

    /** Deletes the jobs of {@code tenant} (tests mark their bulk rows with a tenant of their own). */
    public int deleteTenant(String tenant) {
        return update("DELETE FROM job_executions WHERE tenant = $1", tenant);
    }

    /**
     * Dispatches every due PENDING job, so that a test starts without a waiting job (ingestion stores new jobs
     * PENDING while one waits).
     */
    public void dispatchAllDue(Dispatcher dispatcher) {
        Multi.createBy().repeating().uni(dispatcher::dispatchRound).whilst(claimed -> !claimed.isEmpty())
                .collect().last().await().atMost(TIMEOUT);
    }

    /**
     * Makes the database refuse, for good (SQL state 23514), any write of a row for which {@code condition} (a boolean
     * SQL expression over job_executions' columns) is false, until the returned handle is closed: a record the rules
     * let through but the database refuses, without a column the rules forgot. NOT VALID: rows already there stay.
     */
    public AutoCloseable refuseRowsUnless(String condition) {
        String name = "test_refuse_" + UUID.randomUUID().toString().replace("-", "");
        pool.query("ALTER TABLE job_executions ADD CONSTRAINT " + name + " CHECK (" + condition + ") NOT VALID")
                .execute().await().atMost(TIMEOUT);
        return () -> pool.query("ALTER TABLE job_executions DROP CONSTRAINT IF EXISTS " + name).execute()
                .await().atMost(TIMEOUT);
    }

    /**
     * Runs {@code sql} in a transaction that stays open until {@link OpenTransaction#commit}: a writer of the service
     * caught between its statement and its commit.
     */
    public OpenTransaction begin(String sql, Object... args) {
        SqlConnection connection = pool.getConnection().await().atMost(TIMEOUT);
        Transaction tx = connection.begin().await().atMost(TIMEOUT);
        int backend = backend(connection);
        connection.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(TIMEOUT);
        return new OpenTransaction(connection, tx, backend);
    }

    /** Waits until another session waits for a lock {@code open} holds: a writer of the service caught behind it. */
    public void awaitBlockedBehind(OpenTransaction open) {
        awaitBlockedBehind(open.backend());
    }

    /** Waits until another session waits for a lock that the server process {@code backend} holds. */
    public void awaitBlockedBehind(int backend) {
        await("a session waiting for backend " + backend).atMost(TIMEOUT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> pool.preparedQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE $1 = ANY(pg_blocking_pids(pid))").execute(Tuple.of(backend)).await().atMost(TIMEOUT)
                        .iterator().next().getLong(0) > 0);
    }

    /** The server process of {@code connection}, as {@link #awaitBlockedBehind(int)} names it. */
    public static int backend(SqlConnection connection) {
        return connection.query("SELECT pg_backend_pid()").execute().await().atMost(TIMEOUT).iterator().next()
                .getInteger(0);
    }

    /** A transaction {@link #begin} left open on the server process {@code backend}. */
    public record OpenTransaction(SqlConnection connection, Transaction tx, int backend) {

        public void commit() {
            tx.commit().await().atMost(TIMEOUT);
            connection.close().await().atMost(TIMEOUT);
        }
    }

    public int update(String sql, Object... args) {
        return pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(TIMEOUT).rowCount();
    }
}
