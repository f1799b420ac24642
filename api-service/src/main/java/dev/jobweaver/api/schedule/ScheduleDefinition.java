package dev.jobweaver.api.schedule;

import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;

/**
 * A schedule's definition as a client gives it (the body of {@code POST} and {@code PUT /api/schedules}), validated.
 *
 * @param cron a cron expression, or null for an interval schedule
 * @param interval an ISO-8601 duration, or null for a cron schedule
 * @param tenant the tenant of the schedule and its runs; for a workflow's schedule, the workflow's, or null until the
 *     workflow is read ({@link #withTenant})
 * @param timezone the zone id the cron expression is read in
 */
record ScheduleDefinition(String name, String tenant, String cron, String interval, String timezone,
                                 Misfire misfire, Overlap overlap, boolean paused, ScheduleTarget target) {

    /** This definition with {@code other} as its tenant. */
    public ScheduleDefinition withTenant(String other) {
        return new ScheduleDefinition(name, other, cron, interval, timezone, misfire, overlap, paused, target);
    }
}
