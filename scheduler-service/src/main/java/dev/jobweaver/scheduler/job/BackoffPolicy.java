package dev.jobweaver.scheduler.job;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.scheduler.SchedulerConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * The delay before a retry: the job's own {@code retryDelaysMs} entry for it when the job sets them (retry n waits
 * entry min(n, last), exactly, without jitter: the client chose it), else
 * {@code min(base * 2^retriesSoFar, cap) + random(0..jitter)}.
 *
 * <p>{@code retriesSoFar} is the job's retry count before this retry, so with the defaults the first retry waits
 * 5 s, then 10 s, 20 s, 40 s, 80 s, 160 s, and 300 s from the seventh on.
 */
@Singleton
public class BackoffPolicy {

    private final Duration base;
    private final Duration cap;
    private final Duration jitter;
    private final LongUnaryOperator random;

    @Inject
    public BackoffPolicy(SchedulerConfig config) {
        this(config.backoff().base(), config.backoff().cap(), config.backoff().jitter(),
                bound -> ThreadLocalRandom.current().nextLong(bound + 1));
    }

    /**
     * A policy with an explicit source of randomness.
     *
     * @param random given {@code n >= 1}, a value in {@code [0, n]} (milliseconds of jitter)
     */
    public BackoffPolicy(Duration base, Duration cap, Duration jitter, LongUnaryOperator random) {
        if (base.isNegative() || cap.isNegative() || jitter.isNegative()) {
            throw new IllegalArgumentException("retry base, cap and jitter must not be negative");
        }
        this.base = base;
        this.cap = cap;
        this.jitter = jitter;
        this.random = random;
    }

    /** The delay before the retry that follows {@code retriesSoFar} retries. */
    public Duration delay(int retriesSoFar) {
        return exponential(retriesSoFar).plusMillis(jitterMillis());
    }

    /** The delay before the retry that follows {@code retriesSoFar} retries of a job with {@code control}. */
    public Duration delay(int retriesSoFar, JobControl control) {
        Long own = JobControl.orDefaults(control).retryDelayMs(retriesSoFar + 1);
        return own != null ? Duration.ofMillis(own) : delay(retriesSoFar);
    }

    /** The delay without jitter. */
    public Duration exponential(int retriesSoFar) {
        if (retriesSoFar < 0) {
            throw new IllegalArgumentException("retriesSoFar must not be negative: " + retriesSoFar);
        }
        long capMillis = cap.toMillis();
        long delay = base.toMillis();
        for (int i = 0; i < retriesSoFar && delay < capMillis; i++) {
            delay = delay > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : delay * 2;
        }
        return Duration.ofMillis(Math.min(delay, capMillis));
    }

    private long jitterMillis() {
        long bound = jitter.toMillis();
        return bound <= 0 ? 0 : random.applyAsLong(bound);
    }
}
