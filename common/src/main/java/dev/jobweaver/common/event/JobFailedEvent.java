package dev.jobweaver.common.event;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * An attempt failed ({@code job-failed}).
 *
 * @param eventId the eventId of the run this reports on (from its {@link RunJobEvent})
 * @param errorMessage why, in words an operator can act on
 * @param startedAt when the worker started the run
 * @param failedAt when the run failed
 * @param workerId the worker instance that ran it, for operators
 */
@RegisterForReflection
public record JobFailedEvent(
        UUID eventId,
        UUID jobId,
        int attempt,
        String traceId,
        String errorMessage,
        Instant startedAt,
        Instant failedAt,
        String workerId) {
}
