package dev.jobweaver.common.event;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A tick of a recurring schedule came ({@code schedule-fired}, keyed by scheduleId): the API makes its job.
 *
 * <p>{@code jobId} is derived from (scheduleId, scheduledFor) ({@code JobIds.forTick}), so a tick fired twice (a
 * scheduler that crashed after publishing and before committing) makes one job: the API stores jobs idempotently by id.
 *
 * @param scheduleVersion the schedule's version the scheduler fired from
 * @param scheduledFor the tick's time; the job's {@code scheduledFor}
 * @param firedAt when the scheduler fired it
 * @param catchUp whether this is the one catch-up job of {@code misfire: FIRE_ONCE} for ticks missed in downtime
 */
@RegisterForReflection
public record ScheduleFiredEvent(
        UUID scheduleId,
        long scheduleVersion,
        UUID jobId,
        Instant scheduledFor,
        Instant firedAt,
        boolean catchUp) {
}
