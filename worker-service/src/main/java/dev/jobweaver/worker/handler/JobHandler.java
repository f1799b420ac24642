package dev.jobweaver.worker.handler;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobType;
import java.time.Duration;

/**
 * Runs the jobs of one {@link JobType}: a CDI bean, found by the {@link HandlerRegistry}. The worker reads a run's
 * payload into {@link #payloadType()} once, gives the handler the attempt's deadline, and stores and publishes what
 * it returns.
 *
 * @param <P> the type's payload record
 */
public interface JobHandler<P> {

    /** The job type this handler runs; one handler per type. */
    JobType type();

    /** The record a payload of {@link #type()} is read into. */
    Class<P> payloadType();

    /**
     * How long an attempt of {@code payload} may take by its own description (sleeps, request timeouts), before the
     * worker's slack: the attempt's bound when the job sets no {@code timeoutMs}. May throw ArithmeticException on
     * absurd totals, which the worker then caps.
     */
    Duration expectedDuration(P payload);

    /**
     * Runs one attempt on the calling virtual thread, which it may block.
     *
     * <p>It should end by {@link RunContext#deadline()}; one that does not is interrupted there, and a failure after
     * that interrupt is reported as the deadline's ({@link Deadline#exceeded()}), whatever the handler said.
     *
     * @return the job's result (JSON, at most 64 KiB, no U+0000 in its strings), or null for none
     * @throws JobFailure the attempt failed; its message is the attempt's error
     * @throws InterruptedException the run's thread was interrupted (deadline or shutdown)
     */
    JsonNode run(RunContext<P> run) throws JobFailure, InterruptedException;
}
