package dev.jobweaver.scheduler.dispatch.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DispatcherRoundSizeTest {

    @Test
    void aRoundClaimsAFullBatchWhileTheInFlightLimitIsFar() {
        assertThat(Dispatcher.roundSize(50, 256, 0)).isEqualTo(50);
        assertThat(Dispatcher.roundSize(50, 256, 206)).isEqualTo(50);
    }

    @Test
    void aRoundClaimsOnlyTheFreeSlotsNearTheLimit() {
        assertThat(Dispatcher.roundSize(50, 256, 230)).isEqualTo(26);
        assertThat(Dispatcher.roundSize(50, 256, 256)).isZero();
        // Replicas may overshoot together: never a negative limit.
        assertThat(Dispatcher.roundSize(50, 256, 300)).isZero();
    }

    @Test
    void zeroMeansNoLimit() {
        assertThat(Dispatcher.roundSize(50, 0, 1_000_000)).isEqualTo(50);
    }
}
