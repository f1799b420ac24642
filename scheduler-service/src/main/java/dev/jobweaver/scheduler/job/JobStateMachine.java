package dev.jobweaver.scheduler.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.messaging.EventIds;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The rules of a job's life cycle: {@code PENDING -> RUNNING -> COMPLETED | PENDING (retry) | FAILED}, and
 * {@code PENDING | RUNNING -> CANCELLED} when its client takes it back, and {@code FAILED -> PENDING} when it is
 * requeued ({@code CANCELLED -> PENDING} too for a workflow node's job, when its run is retried).
 *
 * <p>Pure functions of the current row and what happened; every transition increments {@code version}, which is
 * also the version of the status event it publishes. Instants come from the caller (the database's clock).
 */
public final class JobStateMachine {

    /** The reason recorded when an attempt's lease expired before its outcome arrived. */
    public static final String LEASE_EXPIRED = "lease expired";

    private JobStateMachine() {
    }

    /** What to do with an outcome. */
    public enum Verdict {
        /** The outcome is for the current attempt and moves the job. */
        APPLY,
        /** The outcome of this attempt was already applied (a redelivery): re-publish the current status. */
        ALREADY_APPLIED,
        /** The outcome is for another attempt than the current one, or its eventId does not match: ignore it. */
        STALE,
        /**
         * The job was cancelled: whatever its run reports (a success that came too late, the worker's report of the
         * interruption) changes nothing and publishes nothing.
         */
        CANCELLED
    }

    /** Judges {@code outcome} against the job's current state. */
    public static Verdict judge(JobExecution job, Outcome outcome) {
        if (job.status() == JobStatus.CANCELLED) {
            return Verdict.CANCELLED;
        }
        if (outcome.attempt() < 1 || outcome.attempt() != job.attempt()) {
            return Verdict.STALE;
        }
        if (outcome.eventId() != null && !outcome.eventId().equals(EventIds.runEventId(job.jobId(), job.attempt()))) {
            return Verdict.STALE;
        }
        return switch (job.status()) {
            case RUNNING -> Verdict.APPLY;
            // The attempt's lease expired and a retry is scheduled but not dispatched yet: a late success still
            // counts, so the job is not run again; a late failure is the one already applied.
            case PENDING -> outcome.kind() == Outcome.Kind.COMPLETED ? Verdict.APPLY : Verdict.ALREADY_APPLIED;
            case COMPLETED, FAILED, REJECTED -> Verdict.ALREADY_APPLIED;
            case CANCELLED -> Verdict.CANCELLED;
        };
    }

    /** A {@code PENDING} job dispatched now as its next attempt, leased until {@code leaseUntil}. */
    public static JobExecution dispatch(JobExecution job, Instant now, Instant leaseUntil) {
        require(job.status() == JobStatus.PENDING, job, "dispatch");
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                JobStatus.RUNNING, job.retryCount(), job.maxRetries(), job.attempt() + 1, job.nextRunAt(), leaseUntil,
                job.lastError(), job.createdAt(), now, now, null, null, job.version() + 1, job.control(), null);
    }

    /**
     * A {@code PENDING} job that no live worker serves, set aside until {@code until} (a worker that comes for it
     * releases it sooner): still {@code PENDING}, its attempt unchanged, nothing published.
     */
    public static JobExecution park(JobExecution job, Instant now, Instant until) {
        require(job.status() == JobStatus.PENDING, job, "park");
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                JobStatus.PENDING, job.retryCount(), job.maxRetries(), job.attempt(), until, job.leaseUntil(),
                job.lastError(), job.createdAt(), now, job.dispatchedAt(), job.startedAt(), job.finishedAt(),
                job.version() + 1, job.control(), job.result());
    }

    /** The current attempt succeeded. */
    public static JobExecution complete(JobExecution job, Outcome outcome, Instant now) {
        require(job.status() == JobStatus.RUNNING || job.status() == JobStatus.PENDING, job, "complete");
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                JobStatus.COMPLETED, job.retryCount(), job.maxRetries(), job.attempt(), job.nextRunAt(), null,
                job.lastError(), job.createdAt(), now, job.dispatchedAt(), or(outcome.startedAt(), job.startedAt()),
                or(outcome.finishedAt(), now), job.version() + 1, job.control(), outcome.result());
    }

    /**
     * The current attempt failed with {@code error}: back to {@code PENDING} after {@code retryDelay} while retries
     * remain ({@code retryCount < maxRetries}), otherwise {@code FAILED} (see {@link #isDeadLetter}).
     *
     * @param startedAt when the worker started the attempt, if it said so
     */
    public static JobExecution fail(JobExecution job, String error, Instant startedAt, Instant now,
                                    Duration retryDelay) {
        require(job.status() == JobStatus.RUNNING, job, "fail");
        if (hasRetriesLeft(job)) {
            return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                    JobStatus.PENDING, job.retryCount() + 1, job.maxRetries(), job.attempt(), now.plus(retryDelay),
                    null, error, job.createdAt(), now, job.dispatchedAt(), or(startedAt, job.startedAt()), null,
                    job.version() + 1, job.control(), null);
        }
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                JobStatus.FAILED, job.retryCount(), job.maxRetries(), job.attempt(), job.nextRunAt(), null, error,
                job.createdAt(), now, job.dispatchedAt(), or(startedAt, job.startedAt()), now, job.version() + 1,
                job.control(), null);
    }

    /**
     * The current attempt's run was handed back unrun by a worker without a handler for the job's type: {@code PENDING}
     * again, due at {@code dueAt}, with {@code why} as its last error. No retry is spent ({@code retryCount} stays),
     * since the job did not fail; the attempt number stays as dispatched, so the next dispatch is a new attempt and a
     * late report of the handed-back one is stale.
     */
    public static JobExecution handBack(JobExecution job, String why, Instant now, Instant dueAt) {
        require(job.status() == JobStatus.RUNNING, job, "hand back");
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                JobStatus.PENDING, job.retryCount(), job.maxRetries(), job.attempt(), dueAt, null, why,
                job.createdAt(), now, job.dispatchedAt(), job.startedAt(), null, job.version() + 1, job.control(),
                null);
    }

    /**
     * A {@code PENDING} job that can never run (its stored instruction cannot be read): {@code FAILED} at once, so
     * that it is dead-lettered instead of failing every dispatch round that claims it.
     */
    public static JobExecution failUnrunnable(JobExecution job, String error, Instant now) {
        require(job.status() == JobStatus.PENDING, job, "fail an unrunnable");
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                JobStatus.FAILED, job.retryCount(), job.maxRetries(), job.attempt(), job.nextRunAt(), null, error,
                job.createdAt(), now, job.dispatchedAt(), job.startedAt(), now, job.version() + 1, job.control(), null);
    }

    /**
     * A {@code PENDING} (due, for later, or waiting for a retry) or {@code RUNNING} job taken back by its client:
     * {@code CANCELLED} at {@code now}, its lease cleared; its last error, attempt and start stay as they were.
     */
    public static JobExecution cancel(JobExecution job, Instant now) {
        require(isCancellable(job), job, "cancel");
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), job.instruction(),
                JobStatus.CANCELLED, job.retryCount(), job.maxRetries(), job.attempt(), job.nextRunAt(), null,
                job.lastError(), job.createdAt(), now, job.dispatchedAt(), job.startedAt(), now, job.version() + 1,
                job.control(), null);
    }

    /**
     * A {@code FAILED} job (or a workflow node's {@code CANCELLED} one, {@link #isNodeRequeueable}) run again under its
     * own id: {@code PENDING} and due at {@code now}, its retries counted again from 0 up to {@code maxRetries}, with
     * {@code instruction} as its payload. Its attempt number stays, so the next dispatch is numbered after the last
     * attempt; its last error stays until that attempt reports; its lease and end are cleared.
     */
    public static JobExecution requeue(JobExecution job, String instruction, int maxRetries, Instant now) {
        require(job.status() == JobStatus.FAILED || job.status() == JobStatus.CANCELLED, job, "requeue");
        return new JobExecution(job.jobId(), job.jobType(), job.traceId(), job.traceparent(), instruction,
                JobStatus.PENDING, 0, maxRetries, job.attempt(), now, null, job.lastError(), job.createdAt(), now,
                job.dispatchedAt(), job.startedAt(), null, job.version() + 1, job.control(), null);
    }

    /**
     * Whether a requeue of the failure at {@code failedAt} moves the job: it exhausted its retries (dead-lettered) and
     * that failure is its current one. A requeue delivered again after the job was requeued, ran and failed anew
     * names the earlier failure and changes nothing. A null {@code failedAt} (a command that names no failure)
     * requeues whatever failure the job is in. Instants are compared to the microsecond, the precision PostgreSQL
     * keeps on both sides.
     */
    public static boolean isRequeueable(JobExecution job, Instant failedAt) {
        return job.status() == JobStatus.FAILED
                && (failedAt == null || job.finishedAt() != null
                        && micros(failedAt).equals(micros(job.finishedAt())));
    }

    /**
     * Whether a requeue moves a workflow node's job: as {@link #isRequeueable} (its dead letter requeued), or
     * {@code CANCELLED} by a command that names no failure, which is how its run's retry runs a cancelled node again
     * (a client's requeue always names the failure of its dead letter, so it never moves a cancelled job).
     */
    public static boolean isNodeRequeueable(JobExecution job, Instant failedAt) {
        return isRequeueable(job, failedAt) || job.status() == JobStatus.CANCELLED && failedAt == null;
    }

    private static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    /** Whether a cancel moves the job: it has not finished. */
    public static boolean isCancellable(JobExecution job) {
        return job.status() == JobStatus.PENDING || job.status() == JobStatus.RUNNING;
    }

    /** Whether a failure of the current attempt is followed by a retry. */
    public static boolean hasRetriesLeft(JobExecution job) {
        return job.retryCount() < job.maxRetries();
    }

    /** Whether the job ended {@code FAILED}, which publishes a dead letter. */
    public static boolean isDeadLetter(JobExecution job) {
        return job.status() == JobStatus.FAILED;
    }

    /** The status event of the job's current state; republishing it later yields the same version. */
    public static JobStatusChangedEvent statusEvent(JobExecution job) {
        return new JobStatusChangedEvent(job.jobId(), job.status(), job.version(), job.attempt(), job.retryCount(),
                job.maxRetries(), job.status() == JobStatus.PENDING ? job.nextRunAt() : null, job.lastError(),
                job.traceId(), job.updatedAt(), or(job.startedAt(), job.dispatchedAt()), job.finishedAt(),
                job.status() == JobStatus.COMPLETED ? job.result() : null);
    }

    /**
     * The run of a dispatched attempt, with the job's control (its timeout travels to the worker this way); its
     * eventId is derived from (jobId, attempt), so a re-dispatch repeats it.
     */
    public static RunJobEvent runEvent(JobExecution attempt, JsonNode payload) {
        require(attempt.status() == JobStatus.RUNNING, attempt, "run");
        return new RunJobEvent(EventIds.runEventId(attempt.jobId(), attempt.attempt()), attempt.jobId(),
                attempt.attempt(), JobType.of(attempt.jobType()), payload, attempt.traceId(),
                attempt.createdAt(), attempt.dispatchedAt(), attempt.leaseUntil(), attempt.control());
    }

    /** The dead letter of a {@code FAILED} job. */
    public static DeadLetterEvent deadLetter(JobExecution job) {
        require(job.status() == JobStatus.FAILED, job, "dead-letter");
        JobControl control = JobControl.orDefaults(job.control());
        return new DeadLetterEvent(job.jobId(), job.lastError(), job.retryCount(), job.finishedAt(), job.traceId(),
                control.tenantOrDefault(), control.labels());
    }

    private static void require(boolean condition, JobExecution job, String transition) {
        if (!condition) {
            throw new IllegalStateException("cannot " + transition + " job " + job.jobId() + " in state " + job.status());
        }
    }

    private static Instant or(Instant value, Instant fallback) {
        return value != null ? value : fallback;
    }
}
