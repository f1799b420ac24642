package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobCommand;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A client's command about one job: on {@code job-commands} from the API to the scheduler, and on
 * {@code worker-commands} from the scheduler to every worker ({@code CANCEL} and {@code DELETE}; a {@code REQUEUE} is
 * the scheduler's alone). Applying one twice changes nothing.
 *
 * @param command what to do
 * @param traceId the job's trace id, so the command's spans join the job's trace; null if unknown
 * @param requestedAt when the API accepted the command
 * @param payload {@code REQUEUE} only: the job's new payload, checked by the API against the job's type; null keeps
 *     the job's own
 * @param maxRetryCount {@code REQUEUE} only: the retries the requeued job may make, 0 to 10; null keeps the job's own
 * @param failedAt {@code REQUEUE} only: when the job failed in the dead letter being requeued (its
 *     {@code failedAt}). The scheduler requeues the job only while it is still {@code FAILED} from that failure, so a
 *     requeue delivered again after the job ran and failed anew changes nothing; null requeues any {@code FAILED} job
 *     (commands of an API that predates the field)
 */
@RegisterForReflection
public record JobCommandEvent(
        UUID jobId,
        JobCommand command,
        String traceId,
        Instant requestedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode payload,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer maxRetryCount,
        @JsonInclude(JsonInclude.Include.NON_NULL) Instant failedAt) {

    /** The largest {@code maxRetryCount} of a requeue, as of a submission. */
    public static final int MAX_RETRY_COUNT = 10;

    /** A {@code CANCEL} or {@code DELETE} (or a requeue that changes neither payload nor retries). */
    public JobCommandEvent(UUID jobId, JobCommand command, String traceId, Instant requestedAt) {
        this(jobId, command, traceId, requestedAt, null, null, null);
    }

    /**
     * A {@code REQUEUE} of {@code jobId} as it failed at {@code failedAt}, with a new payload and retry count when not
     * null.
     */
    public static JobCommandEvent requeue(UUID jobId, String traceId, Instant requestedAt, JsonNode payload,
                                          Integer maxRetryCount, Instant failedAt) {
        return new JobCommandEvent(jobId, JobCommand.REQUEUE, traceId, requestedAt, payload, maxRetryCount, failedAt);
    }
}
