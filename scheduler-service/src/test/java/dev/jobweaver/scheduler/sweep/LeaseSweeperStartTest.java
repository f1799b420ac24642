package dev.jobweaver.scheduler.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A scheduler expires no lease in its first {@code lease.sweep-after-start}: the outcomes that waited come first. */
class LeaseSweeperStartTest {

    private static final Instant STARTED = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void noLeaseExpiresWithinTheQuietPeriodAfterTheStart() {
        Duration quiet = Duration.ofSeconds(30);

        assertThat(LeaseSweeper.justStarted(STARTED, STARTED, quiet)).isTrue();
        assertThat(LeaseSweeper.justStarted(STARTED.plusSeconds(29), STARTED, quiet)).isTrue();
        assertThat(LeaseSweeper.justStarted(STARTED.plusSeconds(30), STARTED, quiet)).isFalse();
        assertThat(LeaseSweeper.justStarted(STARTED.plusSeconds(600), STARTED, quiet)).isFalse();
    }

    @Test
    void zeroSweepsFromTheStart() {
        assertThat(LeaseSweeper.justStarted(STARTED, STARTED, Duration.ZERO)).isFalse();
    }
}
