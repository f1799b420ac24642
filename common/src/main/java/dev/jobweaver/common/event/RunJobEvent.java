package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.Payloads;
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
 * @param control the job's control as submitted (timeout, tenant, labels, ...); absent in events from before job
 *                control
 */
@RegisterForReflection
public record RunJobEvent(
        UUID eventId,
        UUID jobId,
        int attempt,
        JobType jobType,
        JsonNode payload,
        String traceId,
        Instant createdAt,
        Instant dispatchedAt,
        Instant leaseUntil,
        @JsonInclude(JsonInclude.Include.NON_NULL) JobControl control) {

    /** A SIMULATION run with default control. */
    public RunJobEvent(UUID eventId, UUID jobId, int attempt, JobType jobType, JobPayload payload, String traceId,
                       Instant createdAt, Instant dispatchedAt, Instant leaseUntil) {
        this(eventId, jobId, attempt, jobType, Payloads.tree(payload), traceId, createdAt, dispatchedAt, leaseUntil,
                null);
    }
}
