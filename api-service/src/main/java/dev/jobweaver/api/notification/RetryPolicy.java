package dev.jobweaver.api.notification;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a failed delivery is tried again: {@code first-retry-delay} after the first failure, doubling with each
 * failure up to {@code max-retry-delay}, each delay drawn between 80 % and 100 % of that (jitter, so that the
 * deliveries of one outage do not all come back at once); never later than {@code give-up-after} past the delivery's
 * creation, when one last attempt is made. A failure at or after that instant gives the delivery up.
 */
record RetryPolicy(Duration firstDelay, Duration maxDelay, Duration giveUpAfter) {

    /** The delay after the {@code attempt}-th failure (1-based), before jitter. */
    public Duration delay(int attempt) {
        long first = firstDelay.toMillis();
        long max = maxDelay.toMillis();
        int doublings = Math.min(Math.max(0, attempt - 1), 40);
        long delay = first > (max >> doublings) ? max : first << doublings;
        return Duration.ofMillis(Math.min(delay, max));
    }

    /**
     * When to try again after the {@code attempt}-th attempt failed at {@code now}, for a delivery created at
     * {@code createdAt}; null when it is to be given up.
     */
    public Instant nextAttempt(int attempt, Instant createdAt, Instant now) {
        Instant deadline = createdAt.plus(giveUpAfter);
        if (!now.isBefore(deadline)) {
            return null;
        }
        long delay = delay(attempt).toMillis();
        long jittered = delay - (long) (delay * 0.2 * ThreadLocalRandom.current().nextDouble());
        Instant next = now.plusMillis(Math.max(1, jittered));
        return next.isAfter(deadline) ? deadline : next;
    }
}
