package dev.jobweaver.common.event;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * Run one attempt of a job ({@code run-job}).
 *
 * @param eventId derived from (jobId, attempt) by {@code EventIds.runEventId}: the worker's idempotency key
 * @param attempt 1-based attempt number; the scheduler ignores outcomes for any other attempt
 * @param createdAt when the API accepted the job
 * @param dispatchedAt when the scheduler claimed this attempt
 * @param leaseUntil after this instant the scheduler treats the attempt as lost and retries it
 */
@RegisterForReflection
public record RunJobEvent(
        UUID eventId,
        UUID jobId,
        int attempt,
        JobType jobType,
        JobPayload payload,
        String traceId,
        Instant createdAt,
        Instant dispatchedAt,
        Instant leaseUntil) {
}
