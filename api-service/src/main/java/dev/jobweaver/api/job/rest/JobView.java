package dev.jobweaver.api.job.rest;

import dev.jobweaver.api.job.persistence.StoredJob;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A job as {@code GET /api/jobs/{id}} shows it.
 *
 * @param maxRetries retries allowed after the first attempt
 * @param retryCount retries made so far
 * @param attempts attempts started so far
 * @param nextRunAt when a {@code PENDING} job is due
 * @param lastError the error of the latest failed attempt
 */
@RegisterForReflection
public record JobView(UUID id, JobType type, JobStatus status, String traceId, int maxRetries, int retryCount,
                      int attempts, Instant nextRunAt, String lastError, Instant createdAt, Instant updatedAt,
                      Instant finishedAt, JobPayload payload) {

    static JobView of(StoredJob job) {
        return new JobView(job.id(), job.type(), job.status(), job.traceId(), job.maxRetries(), job.retryCount(),
                job.attempts(), job.nextRunAt(), job.lastError(), job.createdAt(), job.updatedAt(), job.finishedAt(),
                job.instruction());
    }
}
