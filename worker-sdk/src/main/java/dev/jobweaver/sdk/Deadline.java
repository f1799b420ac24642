package dev.jobweaver.sdk;

import java.time.Duration;

/**
 * When an attempt must have ended, on the {@link System#nanoTime()} clock, and what running past it is called: the
 * job's own {@code timeoutMs} ({@code WORKER.TIMEOUT}) or the bound the worker derived from the payload.
 *
 * @param nanoTime the deadline, as {@link System#nanoTime()}
 * @param length the bound it was made from
 * @param fromTimeoutMs whether the bound is the job's {@code timeoutMs}
 */
public record Deadline(long nanoTime, Duration length, boolean fromTimeoutMs) {

    /** The code that starts the error of an attempt that ran past its job's own {@code timeoutMs}. */
    public static final String TIMEOUT_CODE = "WORKER.TIMEOUT";

    /** A deadline {@code length} from now. */
    public static Deadline in(Duration length, boolean fromTimeoutMs) {
        return new Deadline(System.nanoTime() + length.toNanos(), length, fromTimeoutMs);
    }

    /** Nanoseconds left, zero once passed. */
    public long remainingNanos() {
        return Math.max(0, nanoTime - System.nanoTime());
    }

    /** Whether it has passed. */
    public boolean passed() {
        return System.nanoTime() - nanoTime >= 0;
    }

    /** The error of an attempt that ran past it. */
    public String exceeded() {
        return fromTimeoutMs
                ? TIMEOUT_CODE + ": the attempt ran longer than its timeoutMs of " + length.toMillis()
                        + " ms"
                : "run exceeded its time bound of " + length.toMillis() + " ms";
    }
}
