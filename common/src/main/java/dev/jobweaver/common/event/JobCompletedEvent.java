package dev.jobweaver.common.event;

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
 */
@RegisterForReflection
public record JobCompletedEvent(
        UUID eventId,
        UUID jobId,
        int attempt,
        String traceId,
        Instant startedAt,
        Instant finishedAt,
        String workerId) {
}
