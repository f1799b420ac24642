package dev.jobweaver.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * One accepted job as the platform recorded it: the raw figure behind every statistic.
 *
 * @param jobId the id the API returned
 * @param kind what the job does
 * @param submittedAt when the bench sent the request (this machine's clock, as the platform's)
 * @param acceptMs how long the API took to answer 202, in milliseconds
 * @param createdAt {@code jobweaver_api.jobs.created_at}, null when the API database has no row
 * @param ingestedAt {@code jobweaver_scheduler.job_executions.ingested_at}: the scheduler took the job from Kafka
 * @param dispatchedAt {@code jobweaver_scheduler.job_executions.dispatched_at}: the last attempt was dispatched
 * @param startedAt earliest {@code jobweaver_worker.execution_attempts.started_at}, null when it never ran
 * @param finishedAt {@code jobweaver_api.jobs.finished_at}, null until terminal
 * @param visibleAt when the API first showed the job terminal (the bench's poll of its database, to within one
 *                  poll period: 250 ms, up to 1 s while 20,000 jobs are open);
 *                  {@code jobweaver_api.jobs.updated_at} until the watcher sets it, which is the scheduler's time
 *                  of the change, not the read model's
 * @param visibleProbedAt when the {@link FreshnessProbe}, which follows a sample of the jobs closely, first saw the
 *                        job terminal in the API's database (to within its period, {@value FreshnessProbe#POLL_MS}
 *                        ms); null for a job it did not follow
 * @param status {@code jobweaver_api.jobs.status}, null when the row is missing
 * @param attempts {@code jobweaver_api.jobs.attempts}
 * @param executions how many {@code execution_attempts} rows the job has; -1 when they could not be read
 * @param control the job-control fields the bench sent with it
 * @param runAt the earliest start the platform recorded for it ({@code jobweaver_api.jobs.run_at}, what
 *              {@code GET /api/jobs/{id}} shows as {@code runAt}: its {@code delayMs} resolved at acceptance); null
 *              when it has none or it was not read
 * @param recordedPriority the priority the platform recorded for it
 *                         ({@code jobweaver_scheduler.job_executions.priority}, what the dispatch claim orders by);
 *                         null when not read
 */
public record JobRecord(UUID jobId, JobKind kind, Instant submittedAt, double acceptMs, Instant createdAt,
                        Instant ingestedAt, Instant dispatchedAt, Instant startedAt, Instant finishedAt,
                        Instant visibleAt, Instant visibleProbedAt, String status, int attempts, int executions,
                        Control control, Instant runAt, Priority recordedPriority) {

    /** A null {@code control} is {@link Control#NONE}. */
    public JobRecord {
        control = control == null ? Control.NONE : control;
    }

    /** A job sent without job-control fields, none read back. */
    public JobRecord(UUID jobId, JobKind kind, Instant submittedAt, double acceptMs, Instant createdAt,
                     Instant ingestedAt, Instant dispatchedAt, Instant startedAt, Instant finishedAt,
                     Instant visibleAt, Instant visibleProbedAt, String status, int attempts, int executions) {
        this(jobId, kind, submittedAt, acceptMs, createdAt, ingestedAt, dispatchedAt, startedAt, finishedAt,
                visibleAt, visibleProbedAt, status, attempts, executions, Control.NONE, null, null);
    }

    /** This record with {@code visibleAt} replaced. */
    public JobRecord withVisibleAt(Instant visible) {
        return new JobRecord(jobId, kind, submittedAt, acceptMs, createdAt, ingestedAt, dispatchedAt, startedAt,
                finishedAt, visible, visibleProbedAt, status, attempts, executions, control, runAt, recordedPriority);
    }

    /** This record with {@code visibleProbedAt} replaced. */
    public JobRecord withVisibleProbedAt(Instant probed) {
        return new JobRecord(jobId, kind, submittedAt, acceptMs, createdAt, ingestedAt, dispatchedAt, startedAt,
                finishedAt, visibleAt, probed, status, attempts, executions, control, runAt, recordedPriority);
    }

    /** This record with what was sent ({@code sent}) and what the platform recorded of it. */
    public JobRecord withControl(Control sent, Instant recordedRunAt, Priority recorded) {
        return new JobRecord(jobId, kind, submittedAt, acceptMs, createdAt, ingestedAt, dispatchedAt, startedAt,
                finishedAt, visibleAt, visibleProbedAt, status, attempts, executions, sent, recordedRunAt, recorded);
    }

    /**
     * When the job was due to start: the platform's {@link #runAt} when it recorded one, else, for a job sent with a
     * delay, the bench's send time plus that delay (no later than the API's acceptance plus it, since the API accepts
     * after the send; a job that started before it started early for certain); null for a job due at once.
     */
    public Instant dueAt() {
        if (runAt != null) {
            return runAt;
        }
        return control.hasDelay() && submittedAt != null ? submittedAt.plusMillis(control.delayMs()) : null;
    }

    /** Milliseconds from {@link #dueAt} to the first attempt's start (negative: early); NaN without either. */
    public double latenessMs() {
        return millisBetween(dueAt(), startedAt);
    }

    /** Whether the status is terminal (COMPLETED, FAILED, REJECTED). */
    public boolean terminal() {
        return "COMPLETED".equals(status) || "FAILED".equals(status) || "REJECTED".equals(status);
    }

    /** Whether the job is COMPLETED. */
    public boolean completed() {
        return "COMPLETED".equals(status);
    }

    /** Milliseconds from submission to the first attempt's start, NaN if it never started. */
    public double submitToStartMs() {
        return millisBetween(submittedAt, startedAt);
    }

    /** Milliseconds from submission to the terminal status, NaN if not finished. */
    public double submitToFinishMs() {
        return millisBetween(submittedAt, finishedAt);
    }

    /**
     * Milliseconds from the worker's finish ({@code finishedAt}, the time the worker's outcome carries) until the
     * {@link FreshnessProbe} saw the job terminal in the API; NaN for a job it did not follow or that did not finish.
     */
    public double finishToVisibleMs() {
        return millisBetween(finishedAt, visibleProbedAt);
    }

    /** Milliseconds between two instants, NaN if either is missing. */
    static double millisBetween(Instant from, Instant to) {
        return from == null || to == null ? Double.NaN : Duration.between(from, to).toNanos() / 1e6;
    }
}
