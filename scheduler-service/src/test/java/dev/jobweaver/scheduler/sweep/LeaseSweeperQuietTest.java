package dev.jobweaver.scheduler.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A scheduler expires no lease while its outcomes cannot arrive, nor within {@code lease.sweep-after-start} of their
 * being able to again (a start, the broker's return): the outcomes that waited come first.
 */
class LeaseSweeperQuietTest {

    private static final Instant CONTACT = Instant.parse("2026-11-30T12:00:00Z");
    private static final Duration QUIET = Duration.ofSeconds(30);

    @Test
    void noLeaseExpiresWithinTheQuietPeriodAfterContactBegan() {
        assertThat(LeaseSweeper.mayExpire(CONTACT, CONTACT, QUIET)).isFalse();
        assertThat(LeaseSweeper.mayExpire(CONTACT.plusSeconds(29), CONTACT, QUIET)).isFalse();
        assertThat(LeaseSweeper.mayExpire(CONTACT.plusSeconds(30), CONTACT, QUIET)).isTrue();
        assertThat(LeaseSweeper.mayExpire(CONTACT.plusSeconds(600), CONTACT, QUIET)).isTrue();
    }

    @Test
    void noLeaseExpiresWhileTheOutcomesCannotArrive() {
        assertThat(LeaseSweeper.mayExpire(CONTACT.plusSeconds(600), null, QUIET)).isFalse();
        assertThat(LeaseSweeper.mayExpire(CONTACT, null, Duration.ZERO)).isFalse();
    }

    @Test
    void aZeroQuietPeriodSweepsFromTheContactOn() {
        assertThat(LeaseSweeper.mayExpire(CONTACT, CONTACT, Duration.ZERO)).isTrue();
    }
}
