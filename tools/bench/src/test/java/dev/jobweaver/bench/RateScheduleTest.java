package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateScheduleTest {

    @Test
    void hundredPerSecondForThirtySeconds() {
        RateSchedule s = new RateSchedule(100, Duration.ofSeconds(30));
        assertThat(s.count()).isEqualTo(3_000);
        assertThat(s.offsetNanos(0)).isZero();
        assertThat(s.offsetNanos(1)).isEqualTo(10_000_000);
        assertThat(s.offsetNanos(2_999)).isEqualTo(29_990_000_000L);
    }

    @Test
    void fractionalRatesKeepTheirSpacing() {
        RateSchedule s = new RateSchedule(3, Duration.ofSeconds(2));
        assertThat(s.count()).isEqualTo(6);
        assertThat(s.offsetNanos(1)).isEqualTo(333_333_333);
        assertThat(s.offsetNanos(3)).isEqualTo(1_000_000_000);
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new RateSchedule(0, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateSchedule(10, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
