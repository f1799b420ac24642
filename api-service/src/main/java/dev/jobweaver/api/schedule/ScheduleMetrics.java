package dev.jobweaver.api.schedule;

import dev.jobweaver.common.metrics.Counters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;

/** The metrics of recurring schedules, exported at {@code /q/metrics} with the {@code jobweaver_} prefix. */
@ApplicationScoped
public class ScheduleMetrics {

    /** Why a tick made no job. */
    public enum Ignored {
        /** Its schedule is deleted, or the API never had it. */
        NO_SCHEDULE("no-schedule"),
        /** Its schedule is paused (the tick was fired before the scheduler saw the pause). */
        PAUSED("paused"),
        /** Its job (or workflow run) exists already: the tick was fired, or consumed, twice. */
        REPEATED("repeated"),
        /** Its schedule starts a workflow that has been deleted since. */
        NO_WORKFLOW("no-workflow");

        private final String label;

        Ignored(String label) {
            this.label = label;
        }
    }

    private final Map<ScheduledJobs.Kind, Counter> jobs = new EnumMap<>(ScheduledJobs.Kind.class);
    private final Map<Ignored, Counter> ignored = new EnumMap<>(Ignored.class);
    private final Counter republished;

    public ScheduleMetrics(MeterRegistry registry) {
        for (ScheduledJobs.Kind kind : ScheduledJobs.Kind.values()) {
            jobs.put(kind, Counters.of(registry, "jobweaver.schedule.jobs",
                    "Jobs made by schedules: committed with their outbox row, by what made them",
                    "origin", kind.label()));
        }
        for (Ignored reason : Ignored.values()) {
            ignored.put(reason, Counters.of(registry, "jobweaver.schedule.ticks.ignored",
                    "Ticks of schedule-fired that made no job, by reason", "reason", reason.label));
        }
        this.republished = Counters.of(registry, "jobweaver.schedules.republished",
                "Schedule timings (or tombstones) the republisher published: unacknowledged changes, refreshes"
                        + " and deletes");
    }

    /** {@code count} jobs of {@code kind} were committed. */
    public void made(ScheduledJobs.Kind kind, int count) {
        jobs.get(kind).increment(count);
    }

    /** A tick made no job, for {@code reason}. */
    public void ignored(Ignored reason) {
        ignored.get(reason).increment();
    }

    /** The republisher published {@code count} schedules. */
    public void republished(int count) {
        republished.increment(count);
    }
}
