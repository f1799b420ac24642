package dev.jobweaver.scheduler.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When contact with the broker begins, holds and breaks, from samples of the consumers' heartbeats. */
class OutcomeContactTest {

    private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void contactThatHoldsKeepsItsBeginning() {
        Instant since = OutcomeContact.next(null, true, T0);
        since = OutcomeContact.next(since, true, T0.plusSeconds(5));
        since = OutcomeContact.next(since, true, T0.plusSeconds(10));

        assertThat(since).isEqualTo(T0);
    }

    @Test
    void contactLostAndRegainedBeginsAgainAtTheSampleThatSawItBack() {
        Instant since = OutcomeContact.next(null, true, T0);
        since = OutcomeContact.next(since, false, T0.plusSeconds(5));
        assertThat(since).isNull();

        since = OutcomeContact.next(since, true, T0.plusSeconds(70));
        assertThat(since).isEqualTo(T0.plusSeconds(70));
    }

    @Test
    void aMemberIsInContactWhileItsLastHeartbeatIsWithinTheSessionTimeout() {
        Duration session = Duration.ofSeconds(10);

        assertThat(OutcomeContact.heardWithin(0.0, session)).isTrue();
        assertThat(OutcomeContact.heardWithin(9.9, session)).isTrue();
        assertThat(OutcomeContact.heardWithin(10.0, session)).isTrue();
        assertThat(OutcomeContact.heardWithin(10.5, session)).isFalse();
        assertThat(OutcomeContact.heardWithin(3600, session)).isFalse();
        // Kafka's reading before a consumer's first heartbeat
        assertThat(OutcomeContact.heardWithin(-1.0, session)).isFalse();
    }
}
