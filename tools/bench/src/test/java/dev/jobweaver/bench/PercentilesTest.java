package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Percentiles from HdrHistogram: nearest rank, within its 3 significant digits, never above the largest value. */
class PercentilesTest {

    /** HdrHistogram with 3 significant digits: a percentile is at most 0.1% above the exact one, never below. */
    private static final double PRECISION_PERCENT = 0.1;

    @Test
    void nearestRankOfOneToHundred() {
        double[] values = new double[100];
        for (int i = 0; i < 100; i++) {
            values[99 - i] = i + 1;
        }
        Percentiles p = Percentiles.of(values);
        assertThat(p.count()).isEqualTo(100);
        assertThat(p.p50()).isBetween(50.0, 50.0 * 1.001);
        assertThat(p.p90()).isBetween(90.0, 90.0 * 1.001);
        assertThat(p.p99()).isBetween(99.0, 99.0 * 1.001);
        assertThat(p.max()).isEqualTo(100);
        assertThat(p.mean()).isEqualTo(50.5);
        assertThat(values[0]).as("input left unsorted").isEqualTo(100);
    }

    @Test
    void valuesUnderTwoMillisecondsAreExactToTheMicrosecond() {
        Percentiles p = Percentiles.of(new double[] {0.25, 1.5, 1.999, 0.001});
        assertThat(p.p50()).isEqualTo(0.25);
        assertThat(p.p90()).isEqualTo(1.999);
        assertThat(p.max()).isEqualTo(1.999);
    }

    @Test
    void smallSamplesTakeTheValueAtOrAboveTheRank() {
        Percentiles p = Percentiles.of(new double[] {10, 20, 30});
        assertThat(p.p50()).isBetween(20.0, 20.0 * 1.001);
        assertThat(p.p90()).as("capped at the largest value").isEqualTo(30);
        assertThat(p.p99()).isEqualTo(30);
        assertThat(Percentiles.of(new double[] {7}).p50()).isEqualTo(7);
    }

    @Test
    void oneSlowJobInAHundredIsTheMaxNotTheP99() {
        double[] values = new double[100];
        java.util.Arrays.fill(values, 5);
        values[42] = 900;
        Percentiles p = Percentiles.of(values);
        assertThat(p.p99()).isBetween(5.0, 5.0 * 1.001);
        assertThat(p.max()).isEqualTo(900);
    }

    @Test
    void aLargeSampleMatchesTheExactPercentilesWithinThePrecision() {
        Random random = new Random(42);
        double[] values = new double[100_000];
        for (int i = 0; i < values.length; i++) {
            // a latency-like spread: mostly tens of milliseconds, a long tail to minutes
            values[i] = Math.exp(random.nextGaussian() * 1.5 + 3.5);
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        Percentiles p = Percentiles.of(values);
        assertThat(p.p50()).isCloseTo(sorted[49_999], withinPercentage(PRECISION_PERCENT));
        assertThat(p.p90()).isCloseTo(sorted[89_999], withinPercentage(PRECISION_PERCENT));
        assertThat(p.p99()).isCloseTo(sorted[98_999], withinPercentage(PRECISION_PERCENT));
        assertThat(p.max()).isEqualTo(sorted[sorted.length - 1]);
        assertThat(p.count()).isEqualTo(100_000);
    }

    @Test
    void valuesBeyondAnHourStillFit() {
        double twoHours = 2 * 3_600_000.0;
        Percentiles p = Percentiles.of(new double[] {1, twoHours});
        assertThat(p.p50()).isEqualTo(1);
        assertThat(p.p99()).isEqualTo(twoHours);
    }

    @Test
    void slightlyNegativeDurationsAreKept() {
        Percentiles p = Percentiles.of(new double[] {-0.5, 0.5, 1.5, 2.5});
        assertThat(p.p50()).isCloseTo(0.5, offset(0.0005));
        assertThat(p.p99()).isEqualTo(2.5);
        assertThat(Percentiles.of(new double[] {-3, -2, -1}).p50()).isCloseTo(-2, offset(0.002));
    }

    @Test
    void emptyIsNaN() {
        assertThat(Percentiles.of(new double[0])).isEqualTo(Percentiles.EMPTY);
        assertThat(Percentiles.EMPTY.p99()).isNaN();
    }
}
