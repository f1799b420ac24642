package dev.jobweaver.api.job;

import java.util.UUID;

/** An {@code Idempotency-Key} that is live for another body: the submission is refused (409), nothing stored. */
class IdempotencyConflictException extends RuntimeException {

    private final UUID jobId;

    public IdempotencyConflictException(String key, UUID jobId) {
        super("Idempotency-Key '" + key + "' was used for another request body (job " + jobId + "); send a new key"
                + " for a new job", null, false, false);
        this.jobId = jobId;
    }

    /** The job the key was first used for. */
    public UUID jobId() {
        return jobId;
    }
}
