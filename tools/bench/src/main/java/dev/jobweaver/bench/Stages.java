package dev.jobweaver.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Where the time of a job goes, stage by stage, from the timestamps each service records: the breakdown that says
 * which part of the platform bounds a figure.
 */
public final class Stages {

    /**
     * One stage's durations.
     *
     * @param name e.g. {@code scheduler: ingested to dispatched}
     * @param millis percentiles over the jobs that have both timestamps
     */
    public record Stage(String name, Percentiles millis) {
    }

    /** The stages, in the order a job passes them. */
    static final List<String> NAMES = List.of("api: submit to stored", "kafka: stored to ingested",
            "scheduler: ingested to dispatched", "kafka+worker: dispatched to started", "worker: started to finished",
            "status: finished to visible in API");

    private Stages() {
    }

    /**
     * The stages over the jobs that ran exactly once and COMPLETED (for them every timestamp belongs to the same
     * attempt); a stage without data has empty percentiles. The last stage ends when the {@link FreshnessProbe} saw
     * the job terminal, so it covers the jobs the probe followed: the watcher's own observation is up to a second late
     * while many jobs are open.
     */
    public static List<Stage> of(List<JobRecord> jobs) {
        List<JobRecord> clean = jobs.stream()
                .filter(j -> j.completed() && j.attempts() == 1 && j.executions() == 1).toList();
        List<Function<JobRecord, Instant>> points = List.of(JobRecord::submittedAt, JobRecord::createdAt,
                JobRecord::ingestedAt, JobRecord::dispatchedAt, JobRecord::startedAt, JobRecord::finishedAt,
                JobRecord::visibleProbedAt);
        List<Stage> stages = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            Function<JobRecord, Instant> from = points.get(i);
            Function<JobRecord, Instant> to = points.get(i + 1);
            double[] values = clean.stream().mapToDouble(j -> JobRecord.millisBetween(from.apply(j), to.apply(j)))
                    .filter(v -> !Double.isNaN(v)).toArray();
            stages.add(new Stage(NAMES.get(i), Percentiles.of(values)));
        }
        return stages;
    }
}
