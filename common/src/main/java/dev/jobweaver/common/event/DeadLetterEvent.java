package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * A job exhausted its retries and was marked {@code FAILED} ({@code job-dead-letter}).
 *
 * @param reason the error of the last attempt
 * @param finalRetryCount the retries that were made (attempts minus one)
 * @param tenant the job's tenant ({@code default} for a job that named none); null only from a scheduler that predates
 *               tenants
 * @param labels the job's labels, null when it has none
 */
@RegisterForReflection
public record DeadLetterEvent(
        UUID jobId,
        String reason,
        int finalRetryCount,
        Instant failedAt,
        String traceId,
        @JsonInclude(JsonInclude.Include.NON_NULL) String tenant,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> labels) {

    /** A dead letter without tenant or labels. */
    public DeadLetterEvent(UUID jobId, String reason, int finalRetryCount, Instant failedAt, String traceId) {
        this(jobId, reason, finalRetryCount, failedAt, traceId, null, null);
    }
}
