package dev.jobweaver.worker.run;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.sdk.Deadline;
import dev.jobweaver.sdk.HandlerDefaults;
import java.time.Duration;

/**
 * The longest an attempt may take. A job's {@code timeoutMs}, when it sets one, is the bound (past it the attempt
 * fails with {@code WORKER.TIMEOUT}), else its type's declared timeout, likewise; otherwise it is what the handler expects of the payload ({@link dev.jobweaver.sdk.JobHandler#expectedDuration}: a SIMULATION's sleeps and
 * latencies plus an allowance per COMPUTE iteration, an HTTP job's request timeout) plus a fixed slack. Every run
 * honours it, so no job, valid or not, can hold a worker slot forever.
 *
 * @param length the bound
 * @param fromTimeoutMs whether it is the job's {@code timeoutMs}
 */
record RunTimeBound(Duration length, boolean fromTimeoutMs) {

    /** The bound when a payload's own description overflows. */
    static final Duration CAP = Duration.ofDays(1);

    /** The bound of an attempt whose payload describes {@code expected}, under {@code control}. */
    static RunTimeBound of(Duration expected, JobControl control, WorkerConfig.Run config) {
        return of(expected, control, HandlerDefaults.none(), config);
    }

    /**
     * As above, with the defaults of the job's type: its declared timeout bounds an attempt of a job that sets none
     * (the scheduler fills it in for jobs it accepted while this worker lived; this covers those it accepted before).
     */
    static RunTimeBound of(Duration expected, JobControl control, HandlerDefaults defaults, WorkerConfig.Run config) {
        Long timeoutMs = control == null ? null : control.timeoutMs();
        if (timeoutMs != null && timeoutMs > 0) {
            return new RunTimeBound(Duration.ofMillis(timeoutMs), true);
        }
        if (defaults != null && defaults.timeout() != null) {
            return new RunTimeBound(defaults.timeout(), true);
        }
        Duration derived = expected.plus(config.timeBoundSlack());
        return new RunTimeBound(derived.compareTo(CAP) > 0 ? CAP : derived, false);
    }

    /** The deadline of an attempt starting now. */
    Deadline start() {
        return Deadline.in(length, fromTimeoutMs);
    }
}
