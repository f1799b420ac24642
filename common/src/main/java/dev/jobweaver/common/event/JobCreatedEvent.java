package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A job was accepted by the API ({@code job-created}).
 *
 * @param payload what the job does, shaped by its {@code jobType} ({@link Payloads})
 * @param maxRetries retries allowed after the first attempt: at most {@code maxRetries + 1} runs
 * @param createdAt when the API accepted the job; the start of every submit-to-X latency
 * @param control priority, start time, timeout, retry delays, tenant and labels; absent in events from before job
 *                control, which read as {@link JobControl#DEFAULTS}
 * @param origin the schedule tick that made the job; null for a client's submission
 */
@RegisterForReflection
public record JobCreatedEvent(
        UUID jobId,
        JobType jobType,
        JsonNode payload,
        int maxRetries,
        String traceId,
        Instant createdAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) JobControl control,
        @JsonInclude(JsonInclude.Include.NON_NULL) JobOrigin origin) {

    /** A submitted job's event: no origin. */
    public JobCreatedEvent(UUID jobId, JobType jobType, JsonNode payload, int maxRetries, String traceId,
                           Instant createdAt, JobControl control) {
        this(jobId, jobType, payload, maxRetries, traceId, createdAt, control, null);
    }

    /** A SIMULATION job's event with default control. */
    public JobCreatedEvent(UUID jobId, JobType jobType, JobPayload payload, int maxRetries, String traceId,
                           Instant createdAt) {
        this(jobId, jobType, Payloads.tree(payload), maxRetries, traceId, createdAt, null, null);
    }
}
