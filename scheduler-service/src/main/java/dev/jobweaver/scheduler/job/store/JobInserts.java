package dev.jobweaver.scheduler.job.store;

import static dev.jobweaver.scheduler.job.store.JobRows.*;
import static dev.jobweaver.scheduler.job.store.JobSql.*;

import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.scheduler.job.JobExecution;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.UUID;

/**
 * Stores new jobs ({@code job-created}), dispatching the first of a poll in the same statement while slots last, and
 * keeps the cancels that came before their job as placeholders.
 *
 * <p>Methods taking a {@link SqlConnection} or {@link SqlClient} run inside the caller's transaction: the rows stored
 * RUNNING are committed only after the caller published their runs. Nothing here blocks a thread.
 */
@ApplicationScoped
public class JobInserts {

    /**
     * The {@code job_type} of a placeholder: a cancel kept for a job not ingested yet (migration V5 says why it is a
     * row of this table). No job type is empty.
     */
    public static final String EARLY_CANCEL = JobSql.EARLY_CANCEL;

    @Inject Pool pool;

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
    public Uni<Stored> insertIfAbsent(SqlConnection tx, List<NewJob> jobs, int dispatchAtMost, int maxInFlight) {
        return insertIfAbsent(tx, jobs, dispatchAtMost, maxInFlight, Set.of());
    }

    /**
     * As {@link #insertIfAbsent(SqlConnection, List, int, int)}, never dispatching a job to which a concurrency limit
     * applies: one of {@code limitedTypes}, of a tenant with a limit, or of a workflow that limits its concurrency.
     */
    public Uni<Stored> insertIfAbsent(SqlConnection tx, List<NewJob> jobs, int dispatchAtMost, int maxInFlight,
                                      Set<String> limitedTypes) {
        return insertIfAbsent(tx, jobs, dispatchAtMost, maxInFlight, limitedTypes, job -> false);
    }

    /**
     * As {@link #insertIfAbsent(SqlConnection, List, int, int, Set)}, never dispatching a job that {@code held}
     * holds back (no live worker would take its run): it is stored {@code PENDING}, due, for the dispatcher to park.
     *
     * <p>{@code tx} must be in a transaction: the statement runs with the plan its connection keeps for it
     * ({@link JobSql#KEEP_PLAN}), and the transaction's later statements are planned afresh again.
     */
    public Uni<Stored> insertIfAbsent(SqlConnection tx, List<NewJob> jobs, int dispatchAtMost, int maxInFlight,
                                      Set<String> limitedTypes, Predicate<NewJob> held) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().item(new Stored(null, Map.of()));
        }
        Tuple arrays = insertArguments(jobs, dispatchAtMost, maxInFlight, limitedTypes, held);
        // Sent together, run in this order: the two settings cost no round trip of their own.
        Uni<RowSet<Row>> keptPlan = tx.query(KEEP_PLAN).execute();
        Uni<RowSet<Row>> insert = tx.preparedQuery(INSERT).execute(arrays);
        Uni<RowSet<Row>> planAfresh = tx.query(PLAN_AFRESH).execute();
        return Uni.combine().all().unis(keptPlan, insert, planAfresh).with((kept, rows, afresh) -> rows).map(rows -> {
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

    /** What {@link JobSql#INSERT} binds ({@code $1} to {@code $25}) to store {@code jobs}. */
    static Tuple insertArguments(List<NewJob> jobs, int dispatchAtMost, int maxInFlight, Set<String> limitedTypes,
                                 Predicate<NewJob> held) {
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
        arrays.addValue(queueColumn(jobs));
        arrays.addValue(Columns.of(jobs, held::test, Boolean[]::new));
        return arrays;
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
        arrays.addValue(queueColumn(jobs));
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

    /** The array of each of {@code jobs}' queue, bound last by both. */
    private static String[] queueColumn(List<NewJob> jobs) {
        return Columns.of(jobs, j -> j.control().queueOrDefault(), String[]::new);
    }

    /** Deletes the placeholders of cancels older than {@code ttl} whose job never came; the number deleted. */
    public Uni<Integer> expireEarlyCancels(Duration ttl) {
        return pool.preparedQuery(EXPIRE_EARLY_CANCELS).execute(Tuple.of(ttl.toMillis())).map(RowSet::rowCount);
    }

    /**
     * {@code control} as a row stores it and a read returns it: the priority and tenant always set (the defaults for
     * a job that named none), the queue only when not the default, the start time at the database's microseconds.
     */
    public static JobControl asStored(JobControl control) {
        JobControl c = JobControl.orDefaults(control);
        return new JobControl(c.priorityOrDefault(), c.runAt() == null ? null : c.runAt().truncatedTo(
                ChronoUnit.MICROS), c.timeoutMs(), c.retryDelaysMs(), c.tenantOrDefault(),
                c.labels(), JobRows.storedQueue(c.queue()));
    }
}
