package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The life cycle of a job: {@code PENDING -> RUNNING -> COMPLETED | PENDING (retry) | FAILED}.
 *
 * <p>{@link #REJECTED} exists only in the API's read model: the API stored the job but Kafka would not take
 * its {@code JobCreatedEvent}, so the client was answered 503 and the job never runs.
 */
@RegisterForReflection
public enum JobStatus {
    PENDING,
    RUNNING,
    COMPLETED,
    FAILED,
    REJECTED;

    /** Whether no further transition can follow. */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == REJECTED;
    }
}
