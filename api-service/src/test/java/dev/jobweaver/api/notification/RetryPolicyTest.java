package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The backoff of failed deliveries: doubling from the first delay up to the largest, with jitter, until give-up. */
class RetryPolicyTest {

    private final RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(5), Duration.ofHours(1),
            Duration.ofHours(25));

    @Test
    void delaysDoubleFromTheFirstUpToTheLargest() {
        assertThat(policy.delay(1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(policy.delay(2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(policy.delay(3)).isEqualTo(Duration.ofSeconds(20));
        assertThat(policy.delay(10)).isEqualTo(Duration.ofSeconds(2560));
        assertThat(policy.delay(11)).isEqualTo(Duration.ofHours(1));
        assertThat(policy.delay(500)).isEqualTo(Duration.ofHours(1));
    }

    @RepeatedTest(20)
    void theNextAttemptIsJitteredBetween80And100PercentOfTheDelay() {
        Instant created = Instant.parse("2026-11-26T10:00:00Z");
        Instant now = created.plusSeconds(60);

        Instant next = policy.nextAttempt(3, created, now);

        assertThat(Duration.between(now, next)).isBetween(Duration.ofSeconds(16), Duration.ofSeconds(20));
    }

    @Test
    void theLastAttemptIsAtTheGiveUpInstantAndAFailureThenGivesUp() {
        Instant created = Instant.parse("2026-11-26T10:00:00Z");
        Instant deadline = created.plus(Duration.ofHours(25));

        assertThat(policy.nextAttempt(30, created, deadline.minusSeconds(10))).isEqualTo(deadline);
        assertThat(policy.nextAttempt(31, created, deadline)).isNull();
        assertThat(policy.nextAttempt(31, created, deadline.plusSeconds(1))).isNull();
    }

    @Test
    void theDefaultsRetryForMoreThan24Hours() {
        Instant created = Instant.parse("2026-11-26T10:00:00Z");
        Instant now = created;
        int attempt = 1;
        Instant next;
        while ((next = policy.nextAttempt(attempt, created, now)) != null) {
            now = next;
            attempt++;
        }
        assertThat(Duration.between(created, now)).isGreaterThanOrEqualTo(Duration.ofHours(24));
        assertThat(attempt).as("attempts over 25 h").isBetween(30, 40);
    }
}
