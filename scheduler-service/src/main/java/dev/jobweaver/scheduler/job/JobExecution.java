package dev.jobweaver.scheduler.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code job_executions}: the scheduler's state of a job. Immutable; a transition makes a new one.
 *
 * @param traceparent W3C traceparent of the ingestion span, the remote parent of later spans of this job
 * @param instruction the job's payload as JSON, shaped by its {@code jobType}
 * @param attempt the current (or last) attempt's number; 0 before the first dispatch
 * @param createdAt when the API accepted the job
 * @param dispatchedAt when the current attempt was dispatched
 * @param startedAt when a worker started the latest attempt, as its outcome reported
 * @param version optimistic-locking version, also the version of the job's status events
 * @param control how the job is to be run, as submitted; never null (a row from before job control reads as its
 *                defaults, NORMAL and tenant {@value JobControl#DEFAULT_TENANT})
 * @param result what the job's handler reported when it completed, or null
 */
public record JobExecution(
        UUID jobId,
        String jobType,
        String traceId,
        String traceparent,
        String instruction,
        JobStatus status,
        int retryCount,
        int maxRetries,
        int attempt,
        Instant nextRunAt,
        Instant leaseUntil,
        String lastError,
        Instant createdAt,
        Instant updatedAt,
        Instant dispatchedAt,
        Instant startedAt,
        Instant finishedAt,
        long version,
        JobControl control,
        JsonNode result) {

    /** This row with another {@link #result}. */
    public JobExecution withResult(JsonNode value) {
        return new JobExecution(jobId, jobType, traceId, traceparent, instruction, status, retryCount, maxRetries,
                attempt, nextRunAt, leaseUntil, lastError, createdAt, updatedAt, dispatchedAt, startedAt, finishedAt,
                version, control, value);
    }
}
