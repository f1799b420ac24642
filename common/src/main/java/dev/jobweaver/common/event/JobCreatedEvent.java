package dev.jobweaver.common.event;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A job was accepted by the API ({@code job-created}).
 *
 * @param maxRetries retries allowed after the first attempt: at most {@code maxRetries + 1} runs
 * @param createdAt when the API accepted the job; the start of every submit-to-X latency
 */
@RegisterForReflection
public record JobCreatedEvent(
        UUID jobId,
        JobType jobType,
        JobPayload payload,
        int maxRetries,
        String traceId,
        Instant createdAt) {
}
