package dev.jobweaver.worker.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A stalled delivery: paused, free slots, nothing new received; and everything that is not one. */
class DeliveryWatchTest {

    private static final long S = 1_000_000_000L;

    @Test
    void pausedWithFreeSlotsAndNothingReceivedCountsUpFromTheFirstSuchObservation() {
        DeliveryWatch watch = new DeliveryWatch();
        assertThat(watch.observe(true, 71, true, 10 * S)).isZero();
        assertThat(watch.observe(true, 71, true, 12 * S)).isEqualTo(2 * S);
        assertThat(watch.observe(true, 71, true, 15 * S)).isEqualTo(5 * S);
        assertThat(watch.firstReport()).isTrue();
        assertThat(watch.firstReport()).as("reported once per stall").isFalse();
    }

    @Test
    void aRecordReceivedEndsTheStall() {
        DeliveryWatch watch = new DeliveryWatch();
        watch.observe(true, 71, true, 0);
        assertThat(watch.observe(true, 71, true, 9 * S)).isEqualTo(9 * S);
        watch.firstReport();

        assertThat(watch.observe(true, 72, true, 10 * S)).isZero();
        assertThat(watch.observe(true, 72, true, 11 * S)).isEqualTo(S);
        assertThat(watch.firstReport()).as("a new stall is reported again").isTrue();
    }

    @Test
    void backPressureIsNotAStall() {
        DeliveryWatch watch = new DeliveryWatch();
        // Every slot taken: the partition is paused on purpose.
        assertThat(watch.observe(true, 5, false, 0)).isZero();
        assertThat(watch.observe(true, 5, false, 100 * S)).isZero();
        // Not paused: nothing is waiting in the connector.
        assertThat(watch.observe(false, 5, true, 200 * S)).isZero();
        assertThat(watch.observe(false, 5, true, 300 * S)).isZero();
        // Paused again with free slots: counted from here, not from the first observation.
        assertThat(watch.observe(true, 5, true, 400 * S)).isZero();
        assertThat(watch.observe(true, 5, true, 401 * S)).isEqualTo(S);
    }
}
