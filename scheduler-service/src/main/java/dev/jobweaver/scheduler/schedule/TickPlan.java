package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.schedule.ScheduleClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What one ticker round does with one due schedule: the pure rules of misfire and overlap, without I/O.
 *
 * <ul>
 *   <li>Ticks at most {@code misfireThreshold} late fire each as themselves, at most {@code maxTicks} per round; the
 *       next round takes the rest.</li>
 *   <li>A schedule whose next tick is later than the threshold has misfired (every replica was down): {@link
 *       Misfire#FIRE_ONCE} fires one catch-up job for the latest tick due, {@link Misfire#SKIP} none; both go on from
 *       the first tick after now, so that a long downtime costs one decision, not one per missed tick.</li>
 *   <li>{@link Overlap#SKIP}: a tick is skipped while the schedule is busy (its previous job has not finished or is on
 *       its way); a round fires at most one tick of such a schedule, since the tick it fired makes it busy.</li>
 * </ul>
 *
 * @param fire           the ticks to fire, in order
 * @param skippedOverlap ticks skipped by {@code overlap: SKIP}
 * @param skippedMisfire missed ticks that fire no job of their own
 * @param next           the next tick to fire, or null for never
 * @param more           whether ticks due now remain for the next round (the per-round cap was reached)
 */
record TickPlan(List<Tick> fire, long skippedOverlap, long skippedMisfire, Instant next, boolean more) {

    /**
     * Most ticks of a cron schedule counted for the metric of a misfire. They are counted one by one, on the event
     * loop, so a downtime longer than this many ticks is counted as this many; an interval schedule's are counted
     * exactly, by division.
     */
    static final int MISFIRE_COUNT_LIMIT = 1_000;

    /**
     * A tick to fire.
     *
     * @param catchUp whether it is the one job of {@code FIRE_ONCE} for ticks missed in downtime
     */
    public record Tick(Instant scheduledFor, boolean catchUp) {
    }

    /**
     * The plan for a schedule whose next tick {@code first} is due ({@code first <= now}).
     *
     * @param every the interval of an interval schedule's clock, or null for a cron schedule
     * @param busy  for {@code overlap: SKIP}, whether the previous job has not finished
     */
    public static TickPlan of(ScheduleClock clock, Duration every, Instant first, Instant now, Misfire misfire,
                              Overlap overlap, boolean busy, Duration misfireThreshold, int maxTicks) {
        boolean skipWhileBusy = overlap == Overlap.SKIP;
        if (Duration.between(first, now).compareTo(misfireThreshold) > 0) {
            Instant latest = latestDue(clock, first, now);
            long missed = every != null ? Duration.between(first, latest).dividedBy(every) + 1
                    : countTicks(clock, first, latest);
            Instant next = clock.nextAfter(now);
            if (misfire == Misfire.SKIP) {
                return new TickPlan(List.of(), 0, missed, next, false);
            }
            if (busy && skipWhileBusy) {
                return new TickPlan(List.of(), 1, missed - 1, next, false);
            }
            return new TickPlan(List.of(new Tick(latest, true)), 0, missed - 1, next, false);
        }
        List<Tick> fire = new ArrayList<>();
        long skipped = 0;
        boolean blocked = busy && skipWhileBusy;
        Instant tick = first;
        while (tick != null && !tick.isAfter(now) && fire.size() + skipped < maxTicks) {
            if (blocked) {
                skipped++;
            } else {
                fire.add(new Tick(tick, false));
                blocked = skipWhileBusy;
            }
            tick = clock.nextAfter(tick);
        }
        return new TickPlan(fire, skipped, 0, tick, tick != null && !tick.isAfter(now));
    }

    /**
     * The latest tick at or before {@code now}, given that {@code first} is one. Looks back from now over windows that
     * double, so that it costs a few steps of the clock however long the downtime was (walking forward from
     * {@code first} would cost one step per missed tick: 31 million for a year of a one-second schedule).
     */
    static Instant latestDue(ScheduleClock clock, Instant first, Instant now) {
        Instant floor = first.minusNanos(1);
        Duration window = Duration.ofSeconds(1);
        while (true) {
            Instant from = now.minus(window);
            if (from.isBefore(floor)) {
                from = floor;
            }
            Instant tick = clock.nextAfter(from);
            if (tick != null && !tick.isAfter(now)) {
                for (Instant after = clock.nextAfter(tick); after != null && !after.isAfter(now);
                     after = clock.nextAfter(tick)) {
                    tick = after;
                }
                return tick;
            }
            if (from.equals(floor)) {
                return first;
            }
            window = window.multipliedBy(2);
        }
    }

    /** How many ticks lie in {@code [first, last]}, both ticks; at most {@link #MISFIRE_COUNT_LIMIT}. */
    static long countTicks(ScheduleClock clock, Instant first, Instant last) {
        long count = 1;
        for (Instant tick = first; count < MISFIRE_COUNT_LIMIT; count++) {
            tick = clock.nextAfter(tick);
            if (tick == null || tick.isAfter(last)) {
                return count;
            }
        }
        return count;
    }
}
