package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * An attempt failed ({@code job-failed}), or a worker handed its run back without running it.
 *
 * @param eventId the eventId of the run this reports on (from its {@link RunJobEvent})
 * @param errorMessage why, in words an operator can act on
 * @param startedAt when the worker started the run
 * @param failedAt when the run failed
 * @param workerId the worker instance that ran it, for operators
 * @param handedBack the worker did not run it: it has no handler for the job's type (it received a run of its queue
 *     meant for another worker of that queue). Not a failure of the job: the scheduler dispatches the run again, to a
 *     worker that declares the type, without spending a retry. Absent (false) in events of older workers.
 */
@RegisterForReflection
public record JobFailedEvent(
        UUID eventId,
        UUID jobId,
        int attempt,
        String traceId,
        String errorMessage,
        Instant startedAt,
        Instant failedAt,
        String workerId,
        // omitted when false: a reader of an older build, strict about unknown fields, still reads every failure
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean handedBack) {

    /** An attempt that ran and failed. */
    public JobFailedEvent(UUID eventId, UUID jobId, int attempt, String traceId, String errorMessage,
                          Instant startedAt, Instant failedAt, String workerId) {
        this(eventId, jobId, attempt, traceId, errorMessage, startedAt, failedAt, workerId, false);
    }
}
