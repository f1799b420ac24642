package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** What a client asks of a job after submitting it. */
@RegisterForReflection
public enum JobCommand {
    /**
     * Take the job back: a {@code PENDING} job never runs, a {@code RUNNING} one is interrupted; either ends
     * {@code CANCELLED}. A finished job is left as it is.
     */
    CANCEL,
    /** Forget a finished job: every service removes what it stores of it. */
    DELETE
}
