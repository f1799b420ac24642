package dev.jobweaver.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * Runs the jobs of one job type. Make it a CDI bean ({@code @ApplicationScoped}) of an application that depends on
 * {@code jobweaver-worker}, and that application becomes a worker of the platform for this type: it announces the type
 * on the queues it serves ({@code jobweaver.worker.queues}) and receives only their runs.
 *
 * <p>The contract, per attempt:
 * <ul>
 *   <li>The worker reads the job's payload (a JSON object) into {@link #payloadType()} once; a payload that does not
 *       read fails the attempt naming why, and the handler is not called.</li>
 *   <li>{@link #run} is called on a virtual thread of its own, which it may block. Many run at once (up to
 *       {@code jobweaver.worker.max-in-flight}): the handler is shared and must be thread-safe.</li>
 *   <li>It should end by {@link RunContext#deadline()}. One that does not is interrupted there; a cancel of the job
 *       interrupts it at once. Either way, what it returns or throws after the interrupt is ignored: the attempt fails
 *       with the deadline's or the cancel's error. Honour {@link InterruptedException} and
 *       {@link Thread#isInterrupted()} and the attempt ends as soon as it should.</li>
 *   <li>Return the result (JSON, at most 64 KiB, no U+0000 in its strings), or null for none; throw {@link JobFailure}
 *       to fail the attempt with its message, which the platform retries per the job's retry policy. Any other
 *       exception fails the attempt too, naming the exception.</li>
 *   <li>An attempt may run more than once (a worker that stops after running it and before reporting): make its
 *       effects idempotent, keyed by {@link RunContext#jobId()} where that matters.</li>
 * </ul>
 *
 * @param <P> the type's payload, a record (or any class Jackson reads); {@code JsonNode} takes it as it is
 */
public interface JobHandler<P> {

    /**
     * The job type this handler runs: {@code [A-Za-z][A-Za-z0-9_.-]{0,99}}, such as {@code image.resize}. One handler
     * per type and worker; a name that breaks the pattern stops the worker at start, naming it.
     */
    String type();

    /** The class a payload of {@link #type()} is read into. */
    Class<P> payloadType();

    /**
     * How long an attempt of {@code payload} may take by its own description (sizes, request timeouts), before the
     * worker's slack: the attempt's bound when the job sets no {@code timeoutMs}; the run is interrupted past it. May
     * throw ArithmeticException on absurd totals, which the worker then caps.
     */
    Duration expectedDuration(P payload);

    /**
     * The defaults of this type: its attempts' timeout, its retry delays and its priority, each used when a job of the
     * type does not set its own ({@link HandlerDefaults}). None unless overridden: the platform's apply.
     */
    default HandlerDefaults defaults() {
        return HandlerDefaults.none();
    }

    /**
     * Runs one attempt on the calling virtual thread, which it may block.
     *
     * @return the job's result, or null for none
     * @throws JobFailure the attempt failed; its message is the attempt's error
     * @throws InterruptedException the run's thread was interrupted (deadline, cancel or shutdown)
     */
    JsonNode run(RunContext<P> run) throws JobFailure, InterruptedException;
}
