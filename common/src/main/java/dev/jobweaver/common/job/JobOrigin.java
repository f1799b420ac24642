package dev.jobweaver.common.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * What made a job, when not a client's submission: the tick of a recurring schedule. Absent on submitted jobs.
 *
 * @param scheduleId the schedule whose tick (or trigger) made the job
 * @param scheduledFor the tick's time; for a triggered run, when it was triggered
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobOrigin(UUID scheduleId, Instant scheduledFor) {
}
