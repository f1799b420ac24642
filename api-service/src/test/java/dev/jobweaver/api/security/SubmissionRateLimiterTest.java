package dev.jobweaver.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The token buckets on a clock the test moves: burst, refill, Retry-After, overrides, no limit, replicas. */
class SubmissionRateLimiterTest {

    /** A clock that stands still until the test moves it. */
    static final class FakeClock implements TimeMeter {

        long nanos = 1_000_000_000L;

        void advance(Duration by) {
            nanos += by.toNanos();
        }

        @Override
        public long currentTimeNanos() {
            return nanos;
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    }

    private final FakeClock clock = new FakeClock();

    private SubmissionRateLimiter limiter(double perSecond, long burst, Map<String, SubmissionRateLimiter.Rate> tenants,
                                          int replicas) {
        return new SubmissionRateLimiter(new SubmissionRateLimiter.Rate(perSecond, burst), tenants, replicas, clock);
    }

    /** Takes {@code times} submissions of {@code tenant}, each of which must pass. */
    private static void acquire(SubmissionRateLimiter limiter, String tenant, int times) {
        for (int i = 0; i < times; i++) {
            limiter.acquire(tenant);
        }
    }

    private static RefusedException refusal(SubmissionRateLimiter limiter, String tenant) {
        RefusedException refused = catchThrowableOfType(RefusedException.class, () -> limiter.acquire(tenant));
        assertThat(refused).as("a refusal for " + tenant).isNotNull();
        assertThat(refused.code()).isEqualTo(ApiErrorCode.RATE_LIMITED);
        return refused;
    }

    @Test
    void aBurstPassesAtOnceAndTheNextIsRefusedUntilATokenIsBack() {
        SubmissionRateLimiter limiter = limiter(1, 3, Map.of(), 1);
        acquire(limiter, "acme", 3);
        RefusedException refused = refusal(limiter, "acme");
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        assertThat(refused.getMessage()).contains("tenant 'acme'").contains("1 jobs/s (burst 3)")
                .contains("retry after 1 s");

        clock.advance(Duration.ofMillis(999));
        refusal(limiter, "acme");
        clock.advance(Duration.ofMillis(1));
        limiter.acquire("acme");
        refusal(limiter, "acme");
    }

    @Test
    void theBucketRefillsAtTheRateAndNeverBeyondTheBurst() {
        SubmissionRateLimiter limiter = limiter(10, 5, Map.of(), 1);
        acquire(limiter, "acme", 5);
        clock.advance(Duration.ofMillis(300));
        acquire(limiter, "acme", 3);
        refusal(limiter, "acme");

        clock.advance(Duration.ofHours(1));
        acquire(limiter, "acme", 5);
        refusal(limiter, "acme");
    }

    @Test
    void retryAfterIsTheWholeSecondsToTheNextTokenRoundedUp() {
        SubmissionRateLimiter limiter = limiter(0.1, 1, Map.of(), 1);
        limiter.acquire("slow");
        assertThat(refusal(limiter, "slow").retryAfterSeconds()).isEqualTo(10);
        clock.advance(Duration.ofMillis(2_500));
        assertThat(refusal(limiter, "slow").retryAfterSeconds()).isEqualTo(8);
        clock.advance(Duration.ofMillis(7_400));
        assertThat(refusal(limiter, "slow").retryAfterSeconds()).isEqualTo(1);
        clock.advance(Duration.ofMillis(100));
        limiter.acquire("slow");

        assertThat(SubmissionRateLimiter.retryAfterSeconds(0)).isEqualTo(1);
        assertThat(SubmissionRateLimiter.retryAfterSeconds(1)).isEqualTo(1);
        assertThat(SubmissionRateLimiter.retryAfterSeconds(1_000_000_000L)).isEqualTo(1);
        assertThat(SubmissionRateLimiter.retryAfterSeconds(1_000_000_001L)).isEqualTo(2);
    }

    @Test
    void aTenantWithItsOwnRateIsLimitedByItAndOthersByTheDefault() {
        SubmissionRateLimiter limiter = limiter(1000, 2000,
                Map.of("small", new SubmissionRateLimiter.Rate(1, 2)), 1);
        limiter.acquire("small");
        limiter.acquire("small");
        refusal(limiter, "small");
        acquire(limiter, "big", 2000);
        refusal(limiter, "big");
    }

    @Test
    void rateZeroIsNoLimit() {
        SubmissionRateLimiter limiter = limiter(0, 1, Map.of("capped", new SubmissionRateLimiter.Rate(1, 1)), 1);
        assertThatCode(() -> acquire(limiter, "free", 100_000)).doesNotThrowAnyException();
        limiter.acquire("capped");
        refusal(limiter, "capped");

        SubmissionRateLimiter overridden = limiter(1, 1, Map.of("free", new SubmissionRateLimiter.Rate(0, 1)), 1);
        acquire(overridden, "free", 1_000);
    }

    @Test
    void aReleasedTokenIsBackButNeverBeyondTheBurst() {
        SubmissionRateLimiter limiter = limiter(1, 2, Map.of(), 1);
        limiter.acquire("acme");
        limiter.acquire("acme");
        limiter.release("acme");
        limiter.acquire("acme");
        refusal(limiter, "acme");

        SubmissionRateLimiter full = limiter(1, 2, Map.of(), 1);
        full.acquire("acme");
        full.release("acme");
        full.release("acme");
        full.acquire("acme");
        full.acquire("acme");
        refusal(full, "acme");
        full.release("unknown");
    }

    @Test
    void replicasShareTheRateAndTheBurst() {
        SubmissionRateLimiter limiter = limiter(10, 10, Map.of(), 2);
        acquire(limiter, "acme", 5);
        RefusedException refused = refusal(limiter, "acme");
        assertThat(refused.getMessage()).contains("10 jobs/s (burst 10) shared by 2 replicas");
        clock.advance(Duration.ofMillis(199));
        refusal(limiter, "acme");
        clock.advance(Duration.ofMillis(1));
        limiter.acquire("acme");
    }
}
