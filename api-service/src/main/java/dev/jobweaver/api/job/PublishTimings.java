package dev.jobweaver.api.job;

import java.time.Duration;

/**
 * The Kafka producer timeouts derived from the one bound the relay gives an event ({@code delivery-timeout}), sized so
 * that the producer itself gives a definitive answer inside it.
 *
 * <p>A record is handed to {@code KafkaProducer.send} only within {@code handoff} of the publish call (otherwise it is
 * failed without being sent); {@code send} blocks at most {@code max.block.ms} for metadata or buffer space; once it
 * returns, the producer reports success or failure within {@code delivery.timeout.ms}. So every callback arrives within
 * {@code handoff + maxBlock + deliveryTimeout = total}, and a record that failed is never retried by the producer
 * afterwards: once {@link #callerWait()} has passed, no relay holds the record any more, and the sweeper may take its
 * row without racing a late append.
 *
 * @param handoff latest moment (after the publish call) the record may enter the producer
 * @param maxBlock {@code max.block.ms}
 * @param requestTimeout {@code request.timeout.ms}
 * @param deliveryTimeout {@code delivery.timeout.ms}; at least {@code request.timeout.ms + linger.ms}
 * @param callerWait how long the relay waits for the callback: the total plus a small grace
 */
public record PublishTimings(Duration handoff, Duration maxBlock, Duration requestTimeout, Duration deliveryTimeout,
                             Duration callerWait) {

    /** The shortest delivery timeout the derivation supports. */
    public static final Duration MIN_TOTAL = Duration.ofSeconds(2);

    /** Timings for an event the relay tries to deliver for at most {@code total}. */
    public static PublishTimings of(Duration total) {
        return of("jobweaver.api.publish.delivery-timeout", total);
    }

    /** Timings for a record delivered within at most {@code total}, configured as {@code key} (named when refused). */
    public static PublishTimings of(String key, Duration total) {
        if (total.compareTo(MIN_TOTAL) < 0) {
            throw new IllegalArgumentException(key + " must be at least " + MIN_TOTAL.toSeconds() + "s, got " + total);
        }
        long totalMs = total.toMillis();
        Duration handoff = Duration.ofMillis(totalMs / 10);
        Duration maxBlock = Duration.ofMillis(totalMs * 2 / 10);
        Duration requestTimeout = Duration.ofMillis(totalMs * 5 / 10);
        Duration deliveryTimeout = Duration.ofMillis(totalMs - handoff.toMillis() - maxBlock.toMillis());
        return new PublishTimings(handoff, maxBlock, requestTimeout, deliveryTimeout,
                total.plusMillis(Math.max(250, totalMs / 10)));
    }
}
