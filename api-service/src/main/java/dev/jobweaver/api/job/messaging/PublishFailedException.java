package dev.jobweaver.api.job.messaging;

/** Kafka did not acknowledge an event; {@link #inDoubt()} says whether it may still have been appended. */
public class PublishFailedException extends RuntimeException {

    private final boolean inDoubt;

    public PublishFailedException(String message, boolean inDoubt, Throwable cause) {
        super(message, cause);
        this.inDoubt = inDoubt;
    }

    /** True when the record reached the producer and the outcome is unknown (a timeout, not a refusal). */
    public boolean inDoubt() {
        return inDoubt;
    }
}
