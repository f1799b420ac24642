package dev.jobweaver.api.schedule;

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
            jobs.put(kind, Counter.builder("jobweaver.schedule.jobs").tag("origin", kind.label())
                    .description("Jobs made by schedules: committed with their outbox row, by what made them")
                    .register(registry));
        }
        for (Ignored reason : Ignored.values()) {
            ignored.put(reason, Counter.builder("jobweaver.schedule.ticks.ignored").tag("reason", reason.label)
                    .description("Ticks of schedule-fired that made no job, by reason").register(registry));
        }
        this.republished = Counter.builder("jobweaver.schedules.republished")
                .description("Schedule timings (or tombstones) the republisher published: unacknowledged changes,"
                        + " refreshes and deletes").register(registry);
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
