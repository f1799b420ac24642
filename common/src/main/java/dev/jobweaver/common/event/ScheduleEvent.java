package dev.jobweaver.common.event;

import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * The timing of a recurring schedule, as the API last stored it ({@code schedules}, compacted, keyed by scheduleId; a
 * deleted schedule's key gets a tombstone).
 *
 * <p>Only what the scheduler needs to fire ticks travels: the job (or workflow) a tick starts stays in the API, which
 * makes the job when the tick's {@link ScheduleFiredEvent} arrives. A reader keeps the highest {@code version} per
 * schedule and ignores older events.
 *
 * @param version per schedule, strictly increasing with every change the API stores
 * @param cron a cron expression ({@code dev.jobweaver.common.schedule.ScheduleClock}), or null for an interval
 * @param interval an ISO-8601 duration, or null for a cron schedule
 * @param timezone the zone id the cron expression is read in
 * @param anchor the origin of an interval schedule's ticks ({@code anchor + k * interval}): when it was created, or
 *               when its interval last changed
 * @param paused a paused schedule fires nothing until it is resumed
 * @param changedAt when the API stored this version
 */
@RegisterForReflection
public record ScheduleEvent(
        UUID scheduleId,
        long version,
        String cron,
        String interval,
        String timezone,
        Instant anchor,
        Misfire misfire,
        Overlap overlap,
        boolean paused,
        String tenant,
        Instant changedAt) {
}
