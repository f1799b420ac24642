package dev.jobweaver.local.bench;

import java.util.Arrays;

/**
 * Nearest-rank percentiles of a sample, in milliseconds; all NaN when the sample is empty.
 *
 * @param count how many values
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param max largest value
 * @param mean arithmetic mean
 */
public record Percentiles(int count, double p50, double p90, double p99, double max, double mean) {

    /** No values. */
    public static final Percentiles EMPTY = new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN);

    /** The percentiles of {@code values} (not modified). */
    public static Percentiles of(double[] values) {
        if (values.length == 0) {
            return EMPTY;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        return new Percentiles(sorted.length, rank(sorted, 50), rank(sorted, 90), rank(sorted, 99),
                sorted[sorted.length - 1], sum / sorted.length);
    }

    /** The nearest-rank {@code p}-th percentile of an ascending array: the smallest value with p% at or below it. */
    static double rank(double[] sorted, double p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
