package dev.jobweaver.api.job.persistence;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code jobs}: what was submitted, plus the latest state the scheduler reported.
 *
 * @param statusVersion version of the last {@code JobStatusChangedEvent} applied; an event is applied only when its
 *                      version is higher, so redelivered or reordered events never move a job backwards
 */
public record StoredJob(UUID id, JobType type, JobPayload instruction, String traceId, JobStatus status, int retryCount,
                        int maxRetries, int attempts, Instant nextRunAt, String lastError, Instant createdAt,
                        Instant updatedAt, Instant finishedAt, long statusVersion) {
}
