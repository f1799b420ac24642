package dev.jobweaver.api.retention;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long the purge waits after a batch, so that it works only its duty cycle's share of the time. */
class RetentionPurgePaceTest {

    @Test
    void atAQuarterItWaitsThreeTimesAsLongAsTheBatchTook() {
        assertThat(RetentionPurge.pauseAfter(Duration.ofMillis(200), 0.25)).isEqualTo(Duration.ofMillis(600));
    }

    @Test
    void aSlowerBatchMeansALongerPause() {
        assertThat(RetentionPurge.pauseAfter(Duration.ofMillis(800), 0.5)).isEqualTo(Duration.ofMillis(800));
        assertThat(RetentionPurge.pauseAfter(Duration.ofMillis(80), 0.5)).isEqualTo(Duration.ofMillis(80));
    }

    @Test
    void atOneBatchesRunBackToBack() {
        assertThat(RetentionPurge.pauseAfter(Duration.ofSeconds(3), 1)).isZero();
    }
}
