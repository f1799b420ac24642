package dev.jobweaver.api.job;

/**
 * Kafka did not acknowledge an event. Whatever the reason, its outbox row stays: the relay retries it, or the sweeper
 * publishes it, so no caller needs to tell a refusal from a timeout.
 */
public class PublishFailedException extends RuntimeException {

    public PublishFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
