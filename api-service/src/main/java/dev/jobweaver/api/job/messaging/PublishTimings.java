package dev.jobweaver.api.job.messaging;

import java.time.Duration;

/**
 * The Kafka producer timeouts derived from the one bound a submission waits ({@code send-timeout}), sized so that
 * the producer itself gives a definitive answer inside it.
 *
 * <p>A record is handed to {@code KafkaProducer.send} only within {@code handoff} of the publish call (otherwise it is
 * failed without being sent); {@code send} blocks at most {@code max.block.ms} for metadata; once it returns, the
 * producer reports success or failure within {@code delivery.timeout.ms}. So every callback arrives within
 * {@code handoff + maxBlock + deliveryTimeout = sendTimeout}, and a record that failed is never retried by the
 * producer afterwards: the 503 answer that follows is definitive, never contradicted by a late append.
 *
 * @param handoff latest moment (after the publish call) the record may enter the producer
 * @param maxBlock {@code max.block.ms}
 * @param requestTimeout {@code request.timeout.ms}
 * @param deliveryTimeout {@code delivery.timeout.ms}; at least {@code request.timeout.ms + linger.ms}
 * @param callerWait how long the caller waits for the callback: the send timeout plus a small grace
 */
public record PublishTimings(Duration handoff, Duration maxBlock, Duration requestTimeout, Duration deliveryTimeout,
                             Duration callerWait) {

    /** The shortest send timeout the derivation supports. */
    public static final Duration MIN_SEND_TIMEOUT = Duration.ofSeconds(2);

    /** Timings for a submission that waits at most {@code sendTimeout}. */
    public static PublishTimings of(Duration sendTimeout) {
        if (sendTimeout.compareTo(MIN_SEND_TIMEOUT) < 0) {
            throw new IllegalArgumentException("jobweaver.api.publish.send-timeout must be at least "
                    + MIN_SEND_TIMEOUT.toSeconds() + "s, got " + sendTimeout);
        }
        long total = sendTimeout.toMillis();
        Duration handoff = Duration.ofMillis(total / 10);
        Duration maxBlock = Duration.ofMillis(total * 2 / 10);
        Duration requestTimeout = Duration.ofMillis(total * 5 / 10);
        Duration deliveryTimeout = Duration.ofMillis(total - handoff.toMillis() - maxBlock.toMillis());
        return new PublishTimings(handoff, maxBlock, requestTimeout, deliveryTimeout,
                sendTimeout.plusMillis(Math.max(250, total / 10)));
    }
}
