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
    DELETE,
    /**
     * Run a dead-lettered job again under its own id: a {@code FAILED} job goes back to {@code PENDING}, due at once,
     * with its retries counted again from 0 up to the command's {@code maxRetryCount} (its own when absent) and the
     * command's {@code payload} in place of its own when one is given. Its attempts go on numbering from the last, so
     * the history before and after stays one sequence. A job in any other status is left as it is. The scheduler
     * applies it; workers never see it.
     */
    REQUEUE,
    /**
     * Forget a finished job whose retention has ended: the scheduler removes its row, like a {@code DELETE}, but
     * publishes nothing (its last {@code job-status} record expires with the topic's retention, and the workers' rows
     * go by their own age). A job that has not finished is left as it is. Sent by the API's retention purge; workers
     * never see it.
     */
    PURGE
}
