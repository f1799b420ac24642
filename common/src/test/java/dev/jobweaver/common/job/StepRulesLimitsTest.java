package dev.jobweaver.common.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.StepRules.Limits;
import org.junit.jupiter.api.Test;

/** A configured bound above its ceiling is named with both values; the first such bound is the one reported. */
class StepRulesLimitsTest {

    @Test
    void limitsWithinTheCeilingsExceedNothing() {
        assertThat(Limits.DEFAULTS.exceeding(Limits.CEILINGS)).isNull();
        assertThat(Limits.CEILINGS.exceeding(Limits.CEILINGS)).isNull();
    }

    @Test
    void eachBoundIsNamedWithItsValueAndItsCeiling() {
        Limits c = Limits.CEILINGS;
        assertThat(new Limits(1001, 1, 1, 1, 1, 1, 1).exceeding(c)).isEqualTo("max-steps 1001 is above 1000");
        assertThat(new Limits(1, 3_600_001, 1, 1, 1, 1, 1).exceeding(c))
                .isEqualTo("max-duration-ms 3600001 is above 3600000");
        assertThat(new Limits(1, 1, 3_600_001, 1, 1, 1, 1).exceeding(c))
                .isEqualTo("max-latency-ms 3600001 is above 3600000");
        assertThat(new Limits(1, 1, 1, 100_000_000_001L, 1, 1, 1).exceeding(c))
                .isEqualTo("max-iterations 100000000001 is above 100000000000");
        assertThat(new Limits(1, 1, 1, 1, 65_537, 1, 1).exceeding(c))
                .isEqualTo("max-message-length 65537 is above 65536");
        assertThat(new Limits(1, 1, 1, 1, 1, 8193, 1).exceeding(c)).isEqualTo("max-url-length 8193 is above 8192");
        assertThat(new Limits(1, 1, 1, 1, 1, 1, 101).exceeding(c)).isEqualTo("max-retry-count 101 is above 100");
    }

    @Test
    void theFirstBoundAboveItsCeilingIsTheOneReported() {
        assertThat(new Limits(1, 1, 3_600_001, 1, 1, 1, 101).exceeding(Limits.CEILINGS))
                .startsWith("max-latency-ms");
    }
}
