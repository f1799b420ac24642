package dev.jobweaver.api.schedule;

import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.schedule.ScheduleClock;
import java.time.Instant;
import java.util.UUID;

/**
 * A schedule as stored, read out of its entity within the session that loaded it, so that nothing reads an entity
 * after its session closed.
 *
 * @param job the job template (normalised submission body, JSON text); null with a workflow
 */
public record StoredSchedule(UUID id, String name, String tenant, String cron, String interval, String timezone,
                             Instant anchor, Misfire misfire, Overlap overlap, boolean paused, String job,
                             UUID workflowId, long version, Instant createdAt, Instant updatedAt) {

    /** The schedule's fields now; call it within the session that loaded it. */
    public static StoredSchedule of(Schedule s) {
        return new StoredSchedule(s.id, s.name, s.tenant, s.cron, s.interval, s.timezone, s.anchor, s.misfire,
                s.overlap, s.paused, s.job, s.workflowId, s.version, s.createdAt, s.updatedAt);
    }

    /** Its next tick after {@code now}; null while it is paused, or when its cron expression never fires again. */
    public Instant nextRunAfter(Instant now) {
        return paused ? null : ScheduleClock.of(cron, interval, timezone, anchor).nextAfter(now);
    }

    /** Its timing, as the scheduler learns it on {@code schedules}. */
    public ScheduleEvent event() {
        return new ScheduleEvent(id, version, cron, interval, timezone, anchor, misfire, overlap, paused, tenant,
                updatedAt);
    }
}
