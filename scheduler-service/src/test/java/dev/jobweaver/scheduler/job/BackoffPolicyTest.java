package dev.jobweaver.scheduler.job;

import dev.jobweaver.common.job.JobControl;
import java.util.List;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BackoffPolicyTest {

    private static final BackoffPolicy DEFAULTS =
            new BackoffPolicy(Duration.ofSeconds(5), Duration.ofSeconds(300), Duration.ZERO, bound -> bound);

    @Test
    void doublesFromTheBaseUntilTheCap() {
        long[] expectedSeconds = {5, 10, 20, 40, 80, 160, 300, 300, 300};
        for (int retries = 0; retries < expectedSeconds.length; retries++) {
            assertThat(DEFAULTS.delay(retries)).as("after %d retries", retries)
                    .isEqualTo(Duration.ofSeconds(expectedSeconds[retries]));
        }
    }

    @Test
    void neverOverflowsForHugeRetryCounts() {
        assertThat(DEFAULTS.delay(63)).isEqualTo(Duration.ofSeconds(300));
        assertThat(DEFAULTS.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(300));
        BackoffPolicy huge = new BackoffPolicy(Duration.ofDays(1000), Duration.ofDays(100_000), Duration.ZERO, b -> b);
        assertThat(huge.delay(40)).isEqualTo(Duration.ofDays(100_000));
    }

    @Test
    void aBaseAboveTheCapIsCapped() {
        BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(10), Duration.ofSeconds(3), Duration.ZERO, b -> b);
        assertThat(policy.delay(0)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void jitterIsAddedWithinItsBound() {
        AtomicLong askedBound = new AtomicLong();
        BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(5), Duration.ofSeconds(300),
                Duration.ofMillis(750), bound -> {
                    askedBound.set(bound);
                    return 321;
                });
        assertThat(policy.delay(1)).isEqualTo(Duration.ofMillis(10_321));
        assertThat(askedBound).hasValue(750);
        assertThat(policy.exponential(1)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void zeroJitterNeverAsksForRandomness() {
        BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(5), Duration.ofSeconds(300), Duration.ZERO,
                bound -> {
                    throw new AssertionError("no randomness expected");
                });
        assertThat(policy.delay(2)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void rejectsNegativeSettingsAndRetryCounts() {
        assertThatThrownBy(() -> new BackoffPolicy(Duration.ofSeconds(-1), Duration.ofSeconds(1), Duration.ZERO, b -> b))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DEFAULTS.delay(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aJobsOwnRetryDelaysComeFirstEntryByRetryWithTheLastRepeatedAndNoJitter() {
        BackoffPolicy jittery = new BackoffPolicy(Duration.ofSeconds(5), Duration.ofSeconds(300), Duration.ofSeconds(1),
                bound -> bound);
        JobControl control = new JobControl(null, null, null, List.of(100L, 2_000L, 0L, 7_000L), null, null);
        long[] expectedMillis = {100, 2_000, 0, 7_000, 7_000, 7_000};
        for (int retries = 0; retries < expectedMillis.length; retries++) {
            assertThat(jittery.delay(retries, control)).as("after %d retries", retries)
                    .isEqualTo(Duration.ofMillis(expectedMillis[retries]));
        }
    }

    @Test
    void withoutRetryDelaysTheExponentialRuleApplies() {
        assertThat(DEFAULTS.delay(2, null)).isEqualTo(Duration.ofSeconds(20));
        assertThat(DEFAULTS.delay(2, JobControl.DEFAULTS)).isEqualTo(Duration.ofSeconds(20));
        assertThat(DEFAULTS.delay(3, new JobControl(null, null, 5_000L, null, "t", null)))
                .isEqualTo(Duration.ofSeconds(40));
    }
}
