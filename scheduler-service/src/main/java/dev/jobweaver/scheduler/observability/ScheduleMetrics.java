package dev.jobweaver.scheduler.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of recurring schedules' ticks: {@code jobweaver_schedule_ticks_total{outcome}},
 * {@code jobweaver_schedule_tick_lag_seconds} and the gauge {@code jobweaver_schedule_timers_active}.
 *
 * <p>Created at start, as {@link SchedulerMetrics}, so that every meter is in the first scrape.
 */
@Startup
@ApplicationScoped
public class ScheduleMetrics {

    /** A tick fired as itself. */
    public static final String FIRED = "fired";
    /** The one job of {@code misfire: FIRE_ONCE} for ticks missed in downtime. */
    public static final String CATCH_UP = "catch-up";
    /** A tick skipped by {@code overlap: SKIP}: the schedule's previous job had not finished. */
    public static final String SKIPPED_OVERLAP = "skipped-overlap";
    /** A missed tick that fired no job of its own. */
    public static final String SKIPPED_MISFIRE = "skipped-misfire";

    private final AtomicLong activeTimers = new AtomicLong();
    private final Counter fired;
    private final Counter catchUp;
    private final Counter skippedOverlap;
    private final Counter skippedMisfire;
    private final Timer lag;

    public ScheduleMetrics(MeterRegistry registry) {
        registry.gauge("jobweaver.schedule.timers.active", activeTimers);
        this.fired = ticks(registry, FIRED);
        this.catchUp = ticks(registry, CATCH_UP);
        this.skippedOverlap = ticks(registry, SKIPPED_OVERLAP);
        this.skippedMisfire = ticks(registry, SKIPPED_MISFIRE);
        this.lag = Timer.builder("jobweaver.schedule.tick.lag")
                .description("From a tick's time to the round that fired it (firedAt - scheduledFor)")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .register(registry);
    }

    private static Counter ticks(MeterRegistry registry, String outcome) {
        return Counter.builder("jobweaver.schedule.ticks")
                .description("Ticks of recurring schedules, by what became of them")
                .tag("outcome", outcome).register(registry);
    }

    /** A tick was fired (committed); {@code late} is firedAt - scheduledFor. */
    public void fired(boolean isCatchUp, Duration late) {
        (isCatchUp ? catchUp : fired).increment();
        if (!isCatchUp && !late.isNegative()) {
            lag.record(late);
        }
    }

    /** Ticks a round planned without a job: {@code overlap} by {@code overlap: SKIP}, {@code misfire} missed. */
    public void skipped(long overlap, long misfire) {
        skippedOverlap.increment(overlap);
        skippedMisfire.increment(misfire);
    }

    /** Sets the gauge of timers that will fire (not paused, a next tick). */
    public void activeTimers(long count) {
        activeTimers.set(count);
    }
}
