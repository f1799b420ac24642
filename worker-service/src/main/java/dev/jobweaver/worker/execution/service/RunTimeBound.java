package dev.jobweaver.worker.execution.service;

import dev.jobweaver.common.job.Step;
import dev.jobweaver.worker.config.WorkerConfig;
import java.time.Duration;
import java.util.List;

/**
 * The longest a run may take, derived from its steps: their sleeps and latencies, an allowance per COMPUTE
 * iteration, plus a fixed slack. Every step honours it, so no job, valid or not, can hold a worker slot forever.
 */
public final class RunTimeBound {

    private RunTimeBound() {
    }

    /** The bound of a run of {@code steps}. */
    public static Duration of(List<Step> steps, WorkerConfig.Run config) {
        long millis = config.timeBoundSlack().toMillis();
        long computeNanos = 0;
        for (Step step : steps == null ? List.<Step>of() : steps) {
            switch (step) {
                case Step.Sleep s -> millis = Math.addExact(millis, positive(s.durationMs()));
                case Step.HttpCall h -> millis = Math.addExact(millis, positive(h.latencyMs()));
                case Step.Compute c -> computeNanos = Math.addExact(computeNanos,
                        Math.multiplyExact(positive(c.iterations()), config.computeNanosPerIteration()));
                case null, default -> {
                }
            }
        }
        return Duration.ofMillis(millis).plusNanos(computeNanos);
    }

    private static long positive(Long value) {
        return value == null || value < 0 ? 0 : value;
    }
}
