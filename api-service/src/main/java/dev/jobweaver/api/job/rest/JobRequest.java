package dev.jobweaver.api.job.rest;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/jobs}, the wire format of the original JobWeaver API.
 *
 * <p>Read by {@link JobRequestReader} (not by the REST layer), hence registered for reflection.
 */
@RegisterForReflection
@Schema(name = "JobRequest", example = """
        {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi"},{"action":"SLEEP","durationMs":500}]},"maxRetryCount":3}""")
public record JobRequest(
        @Schema(required = true, description = "the kind of job") JobType jobType,
        @Schema(required = true, description = "the steps, run in order") JobPayload payload,
        @Schema(description = "retries after the first attempt, 0..10 (default 3)", minimum = "0", maximum = "10")
        Integer maxRetryCount) {
}
