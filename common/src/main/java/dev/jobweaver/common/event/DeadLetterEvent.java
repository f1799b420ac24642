package dev.jobweaver.common.event;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A job exhausted its retries and was marked {@code FAILED} ({@code job-dead-letter}).
 *
 * @param reason the error of the last attempt
 * @param finalRetryCount the retries that were made (attempts minus one)
 */
@RegisterForReflection
public record DeadLetterEvent(
        UUID jobId,
        String reason,
        int finalRetryCount,
        Instant failedAt,
        String traceId) {
}
