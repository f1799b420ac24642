package dev.jobweaver.api.quarantine;

/** Kafka did not acknowledge a replayed record in time, or refused it; the record stays {@code KEPT}. */
public class ReplayFailedException extends RuntimeException {

    public ReplayFailedException(String message) {
        super(message);
    }

    public ReplayFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
