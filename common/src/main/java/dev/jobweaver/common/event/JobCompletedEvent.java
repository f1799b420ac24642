package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * An attempt succeeded ({@code job-completed}).
 *
 * @param eventId the eventId of the run this reports on (from its {@link RunJobEvent})
 * @param startedAt when the worker started the run
 * @param finishedAt when the worker finished it
 * @param workerId the worker instance that ran it, for operators
 * @param result what the job's handler reported (JSON, at most 64 KiB), or null
 */
@RegisterForReflection
public record JobCompletedEvent(
        UUID eventId,
        UUID jobId,
        int attempt,
        String traceId,
        Instant startedAt,
        Instant finishedAt,
        String workerId,
        @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode result) {
}
