package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.schedule.ScheduleClock;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code schedule_timers}: a schedule's timing as the API last published it, and where its ticks have got
 * to. Immutable.
 *
 * @param version      the version of the {@code ScheduleEvent} applied last
 * @param cron         the cron expression, or null for an interval schedule
 * @param interval     the ISO-8601 interval, or null for a cron schedule
 * @param anchor       the origin of an interval schedule's ticks, at the database's microseconds
 * @param nextRunAt    the next tick to fire; null when the clock never fires again
 * @param lastFiredFor the latest tick fired, or null
 * @param lastJobId    the job of that tick ({@code JobIds.forTick}), or null
 * @param lastFiredAt  when that tick was fired, or null
 */
public record ScheduleTimer(
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
        Instant nextRunAt,
        Instant lastFiredFor,
        UUID lastJobId,
        Instant lastFiredAt) {

    /** The clock of this schedule's ticks; IllegalArgumentException if the stored timing is not a valid one. */
    public ScheduleClock clock() {
        return ScheduleClock.of(cron, interval, timezone, anchor);
    }

    /** This timer with another next tick. */
    public ScheduleTimer withNextRunAt(Instant next) {
        return new ScheduleTimer(scheduleId, version, cron, interval, timezone, anchor, misfire, overlap, paused, tenant,
                next, lastFiredFor, lastJobId, lastFiredAt);
    }
}
