package dev.jobweaver.common.schedule;

/**
 * What a schedule does with the ticks it missed while no scheduler could fire them (all replicas down, the schedule
 * paused is not a miss: a resumed schedule starts at its next tick). A tick is missed once it is later than the
 * scheduler's misfire threshold ({@code jobweaver.scheduler.schedules.misfire-threshold}); a tick only slightly late
 * still fires as itself.
 */
public enum Misfire {
    /** One catch-up job for the latest missed tick, however many were missed; then the ticks to come. */
    FIRE_ONCE,
    /** No job for missed ticks; the schedule goes on from its next tick. */
    SKIP
}
