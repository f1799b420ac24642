package dev.jobweaver.scheduler.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.scheduler.SchedulerConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.math.BigInteger;
import java.time.Duration;

/**
 * How long an attempt may take before the scheduler counts it as lost: the longest run the job allows plus a grace
 * period, so that a healthy slow job is never declared lost.
 *
 * <p>The longest run is the job's {@code timeoutMs} when it sets one (the worker fails the attempt at that bound).
 * Otherwise, for a SIMULATION job, the sum over its steps: SLEEP and HTTP_CALL contribute their {@code durationMs} /
 * {@code latencyMs}; COMPUTE a pessimistic estimate per million iterations; LOG and FAIL nothing. An HTTP job's
 * longest run is its request's {@code timeoutMs}; a job of any other type, whose payload only its handler reads, may
 * run for the configured default. The grace covers the
 * wait in {@code run-job} before a worker picks the run up and the outcome's way back.
 */
@Singleton
public class LeasePolicy {

    /** A lease beyond a year is as good as none; it keeps instant arithmetic far from overflow. */
    private static final long MAX_MILLIS = Duration.ofDays(365).toMillis();
    private static final long MILLION = 1_000_000L;

    private final Duration grace;
    private final Duration computePerMillionIterations;
    private final Duration defaultRun;

    @Inject
    public LeasePolicy(SchedulerConfig config) {
        this(config.lease().grace(), config.lease().computePerMillionIterations(), config.lease().defaultRun());
    }

    public LeasePolicy(Duration grace, Duration computePerMillionIterations, Duration defaultRun) {
        this.grace = grace;
        this.computePerMillionIterations = computePerMillionIterations;
        this.defaultRun = defaultRun;
    }

    /** The lease of one attempt of a SIMULATION job with {@code payload}. */
    public Duration leaseFor(JobPayload payload) {
        return longestRun(payload).plus(grace);
    }

    /**
     * The lease of one attempt of a job of {@code type} with {@code payload} (its tree, as stored) and
     * {@code control}: never shorter than the job's {@code timeoutMs} plus the grace.
     *
     * @throws IllegalArgumentException if the payload does not fit the type
     */
    public Duration leaseFor(JobType type, JsonNode payload, JobControl control) {
        Long timeoutMs = JobControl.orDefaults(control).timeoutMs();
        if (timeoutMs != null && timeoutMs > 0) {
            return Duration.ofMillis(Math.min(timeoutMs, MAX_MILLIS)).plus(grace);
        }
        if (type.equals(JobType.SIMULATION)) {
            return leaseFor(Payloads.simulation(payload));
        }
        if (type.equals(JobType.HTTP)) {
            HttpCallPayload http = Payloads.http(payload);
            return (http.timeoutMs() != null && http.timeoutMs() > 0
                    ? Duration.ofMillis(Math.min(http.timeoutMs(), MAX_MILLIS)) : defaultRun).plus(grace);
        }
        return defaultRun.plus(grace);
    }

    /** The longest time the steps of {@code payload} can take on a healthy worker. */
    public Duration longestRun(JobPayload payload) {
        long millis = 0;
        BigInteger iterations = BigInteger.ZERO;
        if (payload != null && payload.steps() != null) {
            for (Step step : payload.steps()) {
                switch (step) {
                    case Step.Sleep s -> millis = saturatedAdd(millis, nonNegative(s.durationMs()));
                    case Step.HttpCall h -> millis = saturatedAdd(millis, nonNegative(h.latencyMs()));
                    case Step.Compute c -> iterations = iterations.add(BigInteger.valueOf(nonNegative(c.iterations())));
                    case Step.Log ignored -> { }
                    case Step.Fail ignored -> { }
                    case null -> { }
                }
            }
        }
        // Rounded up to the millisecond: a lease is never shorter than the estimate.
        BigInteger computeMillis = iterations.multiply(BigInteger.valueOf(computePerMillionIterations.toNanos()))
                .add(BigInteger.valueOf(MILLION * MILLION - 1))
                .divide(BigInteger.valueOf(MILLION * MILLION));
        long total = computeMillis.bitLength() < 63 ? saturatedAdd(millis, computeMillis.longValue()) : MAX_MILLIS;
        return Duration.ofMillis(Math.min(total, MAX_MILLIS));
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? MAX_MILLIS : sum;
    }

    private static long nonNegative(Long value) {
        return value == null || value < 0 ? 0 : value;
    }
}
