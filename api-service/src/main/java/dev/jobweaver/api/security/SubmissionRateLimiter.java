package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-tenant rate limit of job submissions: a token bucket per tenant (Bucket4j's lock-free local bucket), filled
 * at the tenant's rate up to its burst. A submission takes one token or is refused with
 * {@code 429 API.RATE_LIMITED} and a {@code Retry-After} of the whole seconds until the next token (at least 1).
 *
 * <p>Per replica: the buckets live in this JVM, so {@code jobweaver.security.rate-limit.replicas} divides each rate and
 * burst among the replicas. Buckets are made on a tenant's first submission and kept (one small object per tenant);
 * a tenant without a limit ({@code per-second} 0) has none and costs one map read.
 */
@ApplicationScoped
public class SubmissionRateLimiter {

    /** The period the refill is expressed in: fine enough for rates far below one a second. */
    private static final Duration PERIOD = Duration.ofHours(1);
    private static final double NANOS_PER_SECOND = 1_000_000_000d;

    /** A configured rate: jobs a second ({@code 0}: no limit) and jobs at once. */
    record Rate(double perSecond, long burst) {

        boolean unlimited() {
            return perSecond <= 0;
        }
    }

    /** A tenant's bucket (null: no limit) and how its limit reads in a refusal. */
    private record Limit(Bucket bucket, String described) {
    }

    private static final Limit UNLIMITED = new Limit(null, "unlimited");

    private final Rate defaults;
    private final Map<String, Rate> tenants;
    private final int replicas;
    private final TimeMeter clock;
    private final ConcurrentHashMap<String, Limit> limits = new ConcurrentHashMap<>();

    @Inject
    public SubmissionRateLimiter(SecurityConfig config) {
        this(rate(config.rateLimit().perSecond(), config.rateLimit().burst()), tenants(config.rateLimit().tenants()),
                config.rateLimit().replicas(), TimeMeter.SYSTEM_NANOTIME);
    }

    SubmissionRateLimiter(Rate defaults, Map<String, Rate> tenants, int replicas, TimeMeter clock) {
        if (replicas < 1) {
            throw new IllegalArgumentException("jobweaver.security.rate-limit.replicas must be at least 1, got "
                    + replicas);
        }
        this.defaults = defaults;
        this.tenants = Map.copyOf(tenants);
        this.replicas = replicas;
        this.clock = clock;
    }

    /**
     * Takes one submission of {@code tenant} from its bucket.
     *
     * @throws RefusedException {@code 429 API.RATE_LIMITED} with {@code Retry-After} when the bucket is empty
     */
    public void acquire(String tenant) {
        Limit limit = limitOf(tenant);
        if (limit.bucket == null) {
            return;
        }
        ConsumptionProbe probe = limit.bucket.tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return;
        }
        long seconds = retryAfterSeconds(probe.getNanosToWaitForRefill());
        throw new RefusedException(ApiErrorCode.RATE_LIMITED, "tenant '" + tenant + "' is over its submission rate of "
                + limit.described + "; nothing was stored, retry after " + seconds + " s", null, seconds);
    }

    /** Gives back a submission {@link #acquire} took that stored nothing new (an idempotent replay). */
    public void release(String tenant) {
        Limit limit = limits.get(tenant);
        if (limit != null && limit.bucket != null) {
            limit.bucket.addTokens(1);
        }
    }

    /** Whole seconds until a token is there: rounded up, at least 1 (RFC 9110 {@code Retry-After}). */
    static long retryAfterSeconds(long nanos) {
        return Math.max(1, (long) Math.ceil(nanos / NANOS_PER_SECOND));
    }

    private Limit limitOf(String tenant) {
        Limit limit = limits.get(tenant);
        return limit != null ? limit : limits.computeIfAbsent(tenant, this::newLimit);
    }

    private Limit newLimit(String tenant) {
        Rate rate = tenants.getOrDefault(tenant, defaults);
        if (rate.unlimited()) {
            return UNLIMITED;
        }
        long burst = Math.max(1, (rate.burst + replicas - 1) / replicas);
        long tokensPerPeriod = Math.max(1, Math.round(rate.perSecond * PERIOD.toSeconds() / replicas));
        Bucket bucket = Bucket.builder()
                .addLimit(limit -> limit.capacity(burst).refillGreedy(tokensPerPeriod, PERIOD))
                .withCustomTimePrecision(clock)
                .build();
        String described = number(rate.perSecond) + " jobs/s (burst " + rate.burst + ")"
                + (replicas > 1 ? " shared by " + replicas + " replicas" : "");
        return new Limit(bucket, described);
    }

    private static Rate rate(double perSecond, long burst) {
        return new Rate(perSecond, Math.max(1, burst));
    }

    private static Map<String, Rate> tenants(Map<String, SecurityConfig.TenantRate> configured) {
        Map<String, Rate> rates = new HashMap<>();
        configured.forEach((tenant, rate) -> rates.put(tenant, rate(rate.perSecond(),
                rate.burst().orElse((long) Math.ceil(rate.perSecond())))));
        return rates;
    }

    private static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
