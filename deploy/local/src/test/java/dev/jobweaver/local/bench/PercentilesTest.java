package dev.jobweaver.local.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void nearestRankOfOneToHundred() {
        double[] values = new double[100];
        for (int i = 0; i < 100; i++) {
            values[99 - i] = i + 1;
        }
        Percentiles p = Percentiles.of(values);
        assertThat(p.count()).isEqualTo(100);
        assertThat(p.p50()).isEqualTo(50);
        assertThat(p.p90()).isEqualTo(90);
        assertThat(p.p99()).isEqualTo(99);
        assertThat(p.max()).isEqualTo(100);
        assertThat(p.mean()).isEqualTo(50.5);
        assertThat(values[0]).as("input left unsorted").isEqualTo(100);
    }

    @Test
    void smallSamplesTakeTheValueAtOrAboveTheRank() {
        Percentiles p = Percentiles.of(new double[] {10, 20, 30});
        assertThat(p.p50()).isEqualTo(20);
        assertThat(p.p90()).isEqualTo(30);
        assertThat(p.p99()).isEqualTo(30);
        assertThat(Percentiles.of(new double[] {7}).p50()).isEqualTo(7);
    }

    @Test
    void oneSlowJobInAHundredIsTheMaxNotTheP99() {
        double[] values = new double[100];
        java.util.Arrays.fill(values, 5);
        values[42] = 900;
        Percentiles p = Percentiles.of(values);
        assertThat(p.p99()).isEqualTo(5);
        assertThat(p.max()).isEqualTo(900);
    }

    @Test
    void emptyIsNaN() {
        assertThat(Percentiles.of(new double[0])).isEqualTo(Percentiles.EMPTY);
        assertThat(Percentiles.EMPTY.p99()).isNaN();
    }
}
