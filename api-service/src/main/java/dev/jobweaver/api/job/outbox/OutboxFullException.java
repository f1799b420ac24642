package dev.jobweaver.api.job.outbox;

import java.time.Duration;

/**
 * A submission refused because the unpublished outbox is over its bound: Kafka has not taken jobs for a while. Nothing
 * was stored; the client may retry.
 */
public class OutboxFullException extends RuntimeException {

    public OutboxFullException(long jobs, long bytes, Duration oldestAge, String bounds) {
        super("the outbox holds " + jobs + " jobs (" + bytes + " bytes) that Kafka has not taken yet, the oldest for "
                + oldestAge.toSeconds() + " s, over its bound of " + bounds + "; nothing was stored");
    }
}
