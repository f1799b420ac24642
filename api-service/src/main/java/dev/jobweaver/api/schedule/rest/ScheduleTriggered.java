package dev.jobweaver.api.schedule.rest;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * The 202 answer to {@code POST /api/schedules/{id}/trigger}: the job of the run, committed.
 *
 * @param traceId the OpenTelemetry trace id of the job's trace (32 hex digits)
 * @param scheduledFor the run's instant, the job's {@code scheduledFor}
 */
@RegisterForReflection
public record ScheduleTriggered(UUID jobId, String traceId, UUID scheduleId, Instant scheduledFor) {
}
