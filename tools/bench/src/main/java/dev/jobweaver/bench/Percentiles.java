package dev.jobweaver.bench;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Percentiles of a sample of durations, in milliseconds; all NaN when the sample is empty.
 *
 * <p>The percentiles come from an HdrHistogram of the values in microseconds with 3 significant digits: each is the
 * nearest-rank value (the smallest with p% of the sample at or below it), rounded up to the end of its histogram
 * bucket, so at most 0.1% above the exact figure (and never above the largest value). Count, max and mean are exact.
 *
 * @param count how many values
 * @param p50 median
 * @param p90 90th percentile
 * @param p95 95th percentile
 * @param p99 99th percentile
 * @param max largest value
 * @param mean arithmetic mean
 */
public record Percentiles(int count, double p50, double p90, double p95, double p99, double max, double mean) {

    /** No values. */
    public static final Percentiles EMPTY = new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN);

    /** Significant decimal digits the histogram keeps: values within 0.1%. */
    static final int SIGNIFICANT_DIGITS = 3;

    /**
     * The range the histogram is sized for at first, in microseconds: 1 µs to an hour, from the API's answer to a job
     * that waited out a whole run. A longer value still fits: the histogram grows.
     */
    private static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    /** The percentiles of {@code values}, in milliseconds (not modified). */
    public static Percentiles of(double[] values) {
        if (values.length == 0) {
            return EMPTY;
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        // The histogram holds no negative values, and a duration between timestamps that two processes recorded can
        // come out slightly below zero: the whole sample is then shifted up by its lowest value.
        long offset = Math.min(0, micros(min));
        Histogram histogram = new Histogram(1, HIGHEST_MICROS, SIGNIFICANT_DIGITS);
        histogram.setAutoResize(true);
        for (double v : values) {
            histogram.recordValue(micros(v) - offset);
        }
        return new Percentiles(values.length, at(histogram, 50, offset, max), at(histogram, 90, offset, max),
                at(histogram, 95, offset, max), at(histogram, 99, offset, max), max, sum / values.length);
    }

    /** The {@code p}-th percentile in milliseconds, capped at the exact largest value. */
    private static double at(Histogram histogram, double p, long offset, double max) {
        return Math.min(max, (histogram.getValueAtPercentile(p) + offset) / 1_000.0);
    }

    private static long micros(double millis) {
        return Math.round(millis * 1_000);
    }
}
