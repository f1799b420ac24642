package dev.jobweaver.common.event;

import dev.jobweaver.common.job.JobStatus;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A job changed state in the scheduler ({@code job-status}, compacted, keyed by jobId).
 *
 * <p>{@code version} increases with every change of the job; a reader keeps the highest version it has seen
 * and ignores older events, so redelivery and reordering never move a job backwards.
 *
 * @param version per-job, strictly increasing
 * @param attempts attempts started so far
 * @param retryCount retries scheduled so far (attempts minus one, once a retry has run)
 * @param nextRunAt when a {@code PENDING} job is due; null otherwise
 * @param lastError the error of the latest failed attempt, if any
 * @param startedAt when the worker started the latest attempt, if known
 * @param finishedAt when the job reached a terminal state
 * @param result what the job's handler reported when it completed, or null
 */
@RegisterForReflection
public record JobStatusChangedEvent(
        UUID jobId,
        JobStatus status,
        long version,
        int attempts,
        int retryCount,
        int maxRetries,
        Instant nextRunAt,
        String lastError,
        String traceId,
        Instant changedAt,
        Instant startedAt,
        Instant finishedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode result) {

    /** A change that carries no result. */
    public JobStatusChangedEvent(UUID jobId, JobStatus status, long version, int attempts, int retryCount,
                                 int maxRetries, Instant nextRunAt, String lastError, String traceId, Instant changedAt,
                                 Instant startedAt, Instant finishedAt) {
        this(jobId, status, version, attempts, retryCount, maxRetries, nextRunAt, lastError, traceId, changedAt,
                startedAt, finishedAt, null);
    }
}
