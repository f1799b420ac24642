package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.List;

/** Submit-to-start per priority level, from jobs sent with a priority (the priorities workload). */
public final class PriorityLevels {

    /**
     * One level's figures.
     *
     * @param priority the level the jobs were sent with
     * @param accepted jobs of this level the API answered 202 for
     * @param completed of them, COMPLETED
     * @param recordedOtherwise of them, jobs the scheduler recorded under another priority (the field was dropped on
     *                          the way); 0 when the scheduler's column could not be read
     * @param toStart milliseconds from submit to the first attempt's start (the worker's {@code started_at})
     */
    public record Level(Priority priority, int accepted, int completed, int recordedOtherwise, Percentiles toStart) {
    }

    private PriorityLevels() {
    }

    /** One level per priority that some job was sent with, highest first; empty when no job was sent with one. */
    public static List<Level> of(List<JobRecord> jobs) {
        List<Level> levels = new ArrayList<>();
        for (Priority priority : Priority.values()) {
            List<JobRecord> level = jobs.stream().filter(j -> j.control().priority() == priority).toList();
            if (level.isEmpty()) {
                continue;
            }
            int completed = (int) level.stream().filter(JobRecord::completed).count();
            int otherwise = (int) level.stream()
                    .filter(j -> j.recordedPriority() != null && j.recordedPriority() != priority).count();
            double[] toStart = level.stream().mapToDouble(JobRecord::submitToStartMs).filter(v -> !Double.isNaN(v))
                    .toArray();
            levels.add(new Level(priority, level.size(), completed, otherwise, Percentiles.of(toStart)));
        }
        return List.copyOf(levels);
    }
}
