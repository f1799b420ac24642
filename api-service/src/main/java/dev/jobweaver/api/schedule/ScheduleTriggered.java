package dev.jobweaver.api.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * The 202 answer to {@code POST /api/schedules/{id}/trigger}: the job of the run, committed, or the workflow run it
 * started.
 *
 * @param jobId the run's job; absent when the schedule starts a workflow
 * @param runId the workflow run started; absent when the schedule makes a job
 * @param traceId the OpenTelemetry trace id of the job's (or the run's) trace (32 hex digits)
 * @param scheduledFor the run's instant, the job's {@code scheduledFor}
 */
@RegisterForReflection
public record ScheduleTriggered(@JsonInclude(JsonInclude.Include.NON_NULL) UUID jobId,
                                @JsonInclude(JsonInclude.Include.NON_NULL) UUID runId,
                                String traceId, UUID scheduleId, Instant scheduledFor) {

    /** The answer for a trigger that made a job. */
    static ScheduleTriggered job(UUID jobId, String traceId, UUID scheduleId, Instant scheduledFor) {
        return new ScheduleTriggered(jobId, null, traceId, scheduleId, scheduledFor);
    }

    /** The answer for a trigger that started a workflow run. */
    static ScheduleTriggered run(UUID runId, String traceId, UUID scheduleId, Instant scheduledFor) {
        return new ScheduleTriggered(null, runId, traceId, scheduleId, scheduledFor);
    }
}
