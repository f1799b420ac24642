package dev.jobweaver.bench;

import java.time.Duration;

/**
 * When each send of an open-loop run is due: job {@code i} at {@code i / rate} seconds after the start, regardless
 * of how long earlier requests take.
 *
 * @param rate jobs per second
 * @param duration how long the load is offered
 */
public record RateSchedule(double rate, Duration duration) {

    /** Validates the arguments. */
    public RateSchedule {
        if (!(rate > 0) || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("rate and duration must be positive");
        }
    }

    /** How many jobs the run sends: rate × duration, rounded. */
    public int count() {
        return (int) Math.round(rate * duration.toNanos() / 1e9);
    }

    /** Nanoseconds after the start at which job {@code index} is due. */
    public long offsetNanos(int index) {
        return Math.round(index * 1e9 / rate);
    }
}
