package dev.jobweaver.sdk;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a job of a handler's type gets when it does not say: the time an attempt may take, the delays before its
 * retries, its priority. A job's own {@code timeoutMs}, {@code retryDelaysMs} and {@code priority} always win; a default
 * left unset here leaves the platform's. Immutable: each {@code with} returns a copy.
 *
 * <pre>{@code
 * HandlerDefaults.none().withTimeout(Duration.ofSeconds(30))
 *         .withRetryDelays(Duration.ofSeconds(1), Duration.ofSeconds(10)).withPriority(Priority.HIGH)
 * }</pre>
 *
 * <p>The worker announces them with its types, and the scheduler applies them to the jobs it accepts while a worker
 * declaring them lives; the worker itself applies the timeout to any attempt of a job that sets none. Workers that run
 * one type should declare the same defaults for it: where they differ, those of the worker whose id sorts first apply.
 *
 * @param timeout how long an attempt may take before it fails with {@code WORKER.TIMEOUT}, or null
 * @param retryDelays the delay before each retry (the last one repeats), or null
 * @param priority or null
 */
public record HandlerDefaults(Duration timeout, List<Duration> retryDelays, Priority priority) {

    /** The longest timeout: 24 h. */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(24);
    /** The most retry delays. */
    public static final int MAX_RETRY_DELAYS = 10;
    /** The longest retry delay: 365 days. */
    public static final Duration MAX_RETRY_DELAY = Duration.ofDays(365);

    private static final HandlerDefaults NONE = new HandlerDefaults(null, null, null);

    /** Checks each default against the bounds a job's own fields have; IllegalArgumentException naming the field. */
    public HandlerDefaults {
        if (timeout != null && (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0)) {
            throw new IllegalArgumentException("timeout must be between 1 ms and 24 h, got " + timeout);
        }
        if (retryDelays != null) {
            if (retryDelays.isEmpty() || retryDelays.size() > MAX_RETRY_DELAYS) {
                throw new IllegalArgumentException("retryDelays must hold 1 to " + MAX_RETRY_DELAYS
                        + " delays, got " + retryDelays.size());
            }
            for (int i = 0; i < retryDelays.size(); i++) {
                Duration delay = retryDelays.get(i);
                if (delay == null || delay.isNegative() || delay.compareTo(MAX_RETRY_DELAY) > 0) {
                    throw new IllegalArgumentException("retryDelays[" + i + "] must be between 0 and 365 days, got "
                            + delay);
                }
            }
            retryDelays = List.copyOf(retryDelays);
        }
    }

    /** No defaults of the type's own: the platform's apply. */
    public static HandlerDefaults none() {
        return NONE;
    }

    /** These defaults with attempts bounded by {@code timeout}. */
    public HandlerDefaults withTimeout(Duration timeout) {
        return new HandlerDefaults(Objects.requireNonNull(timeout, "timeout"), retryDelays, priority);
    }

    /** These defaults with retries after {@code delays} (the last one repeats for further retries). */
    public HandlerDefaults withRetryDelays(Duration... delays) {
        return new HandlerDefaults(timeout, List.of(delays), priority);
    }

    /** These defaults with {@code priority}. */
    public HandlerDefaults withPriority(Priority priority) {
        return new HandlerDefaults(timeout, retryDelays, Objects.requireNonNull(priority, "priority"));
    }

    /** Whether any default is set. */
    public boolean any() {
        return timeout != null || retryDelays != null || priority != null;
    }
}
