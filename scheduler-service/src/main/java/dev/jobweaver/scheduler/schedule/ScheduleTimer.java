package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.schedule.ScheduleClock;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code schedule_timers}: a schedule's timing as the API last published it, and where its ticks have got
 * to. Immutable.
 *
 * @param schedule     the {@code ScheduleEvent} applied last, its anchor at the database's microseconds, without its
 *                     {@code changedAt} (null), which the row does not keep
 * @param nextRunAt    the next tick to fire; null when the clock never fires again
 * @param lastFiredFor the latest tick fired, or null
 * @param lastJobId    the job of that tick ({@code JobIds.forTick}), or null
 * @param lastFiredAt  when that tick was fired, or null
 */
public record ScheduleTimer(
        ScheduleEvent schedule,
        Instant nextRunAt,
        Instant lastFiredFor,
        UUID lastJobId,
        Instant lastFiredAt) {

    /** The clock of this schedule's ticks; IllegalArgumentException if the stored timing is not a valid one. */
    public ScheduleClock clock() {
        return ScheduleClock.of(schedule.cron(), schedule.interval(), schedule.timezone(), schedule.anchor());
    }

    /** This timer with another next tick. */
    public ScheduleTimer withNextRunAt(Instant next) {
        return new ScheduleTimer(schedule, next, lastFiredFor, lastJobId, lastFiredAt);
    }
}
