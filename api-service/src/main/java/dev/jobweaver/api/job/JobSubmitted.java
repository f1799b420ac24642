package dev.jobweaver.api.job;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.UUID;

/**
 * The 202 answer to a submission.
 *
 * @param traceId the OpenTelemetry trace id of the job's trace (32 hex digits)
 */
@RegisterForReflection
public record JobSubmitted(UUID jobId, String traceId) {
}
