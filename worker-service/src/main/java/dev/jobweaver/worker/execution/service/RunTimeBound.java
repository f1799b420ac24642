package dev.jobweaver.worker.execution.service;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.worker.config.WorkerConfig;
import dev.jobweaver.worker.execution.handler.Deadline;
import java.time.Duration;
import java.util.List;

/**
 * The longest an attempt may take. A job's {@code timeoutMs}, when it sets one, is the bound (past it the attempt
 * fails with {@code WORKER.TIMEOUT}); otherwise the worker derives one from the payload (a SIMULATION's sleeps and
 * latencies plus an allowance per COMPUTE iteration, an HTTP job's request timeout) plus a fixed slack. Every run
 * honours it, so no job, valid or not, can hold a worker slot forever.
 *
 * @param length the bound
 * @param fromTimeoutMs whether it is the job's {@code timeoutMs}
 */
public record RunTimeBound(Duration length, boolean fromTimeoutMs) {

    /** The bound when a payload's own description overflows. */
    static final Duration CAP = Duration.ofDays(1);

    /** The bound of an attempt whose payload describes {@code expected}, under {@code control}. */
    public static RunTimeBound of(Duration expected, JobControl control, WorkerConfig.Run config) {
        Long timeoutMs = control == null ? null : control.timeoutMs();
        if (timeoutMs != null && timeoutMs > 0) {
            return new RunTimeBound(Duration.ofMillis(timeoutMs), true);
        }
        Duration derived = expected.plus(config.timeBoundSlack());
        return new RunTimeBound(derived.compareTo(CAP) > 0 ? CAP : derived, false);
    }

    /** The derived bound of a run of {@code steps}: their own duration plus the slack. */
    public static Duration of(List<Step> steps, WorkerConfig.Run config) {
        return steps(steps, config.computeNanosPerIteration()).plus(config.timeBoundSlack());
    }

    /** How long {@code steps} take by their own description; ArithmeticException if that overflows. */
    public static Duration steps(List<Step> steps, long computeNanosPerIteration) {
        long millis = 0;
        long computeNanos = 0;
        for (Step step : steps == null ? List.<Step>of() : steps) {
            switch (step) {
                case Step.Sleep s -> millis = Math.addExact(millis, positive(s.durationMs()));
                case Step.HttpCall h -> millis = Math.addExact(millis, positive(h.latencyMs()));
                case Step.Compute c -> computeNanos = Math.addExact(computeNanos,
                        Math.multiplyExact(positive(c.iterations()), computeNanosPerIteration));
                case null, default -> {
                }
            }
        }
        return Duration.ofMillis(millis).plusNanos(computeNanos);
    }

    /** The deadline of an attempt starting now. */
    public Deadline start() {
        return Deadline.in(length, fromTimeoutMs);
    }

    private static long positive(Long value) {
        return value == null || value < 0 ? 0 : value;
    }
}
