package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The life cycle of a job: {@code PENDING -> RUNNING -> COMPLETED | PENDING (retry) | FAILED}, and from
 * {@code PENDING} or {@code RUNNING} to {@code CANCELLED} when a client takes it back.
 *
 * <p>{@link #REJECTED} is a terminal status of the contract reserved for a job refused after it was stored; the API
 * answers a submission only once the job is committed (202) or before anything is stored (4xx, 503), so it never
 * produces it itself. The read model shows whatever the scheduler reports.
 */
@RegisterForReflection
public enum JobStatus {
    PENDING,
    RUNNING,
    COMPLETED,
    FAILED,
    REJECTED,
    /** Taken back by a client before it finished; it never runs again. */
    CANCELLED;

    /** Whether no further transition can follow. */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == REJECTED || this == CANCELLED;
    }
}
