package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobCommand;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
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
 * @param jobIds {@code PURGE} only: every job the command purges, {@code jobId} among them, at most
 *     {@link #MAX_PURGED_JOBS}, all on the partition of the record's key ({@code jobId}), so that each job's commands
 *     stay in order; null purges {@code jobId} alone
 */
@RegisterForReflection
public record JobCommandEvent(
        UUID jobId,
        JobCommand command,
        String traceId,
        Instant requestedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode payload,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer maxRetryCount,
        @JsonInclude(JsonInclude.Include.NON_NULL) Instant failedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<UUID> jobIds) {

    /** The largest {@code maxRetryCount} of a requeue, as of a submission. */
    public static final int MAX_RETRY_COUNT = 10;

    /** The most jobs one {@code PURGE} names: about 40 KB of JSON, far below a record's limit. */
    public static final int MAX_PURGED_JOBS = 1_000;

    /**
     * A {@code CANCEL}, {@code DELETE} or {@code PURGE} of one job (or a requeue that changes neither payload nor
     * retries).
     */
    public JobCommandEvent(UUID jobId, JobCommand command, String traceId, Instant requestedAt) {
        this(jobId, command, traceId, requestedAt, null, null, null, null);
    }

    /** A command with the fields of a {@code REQUEUE}, naming one job. */
    public JobCommandEvent(UUID jobId, JobCommand command, String traceId, Instant requestedAt, JsonNode payload,
                           Integer maxRetryCount, Instant failedAt) {
        this(jobId, command, traceId, requestedAt, payload, maxRetryCount, failedAt, null);
    }

    /**
     * A {@code PURGE} of {@code jobIds} (at least one, all on one partition of {@code job-commands}), keyed by the
     * first of them; no trace of its own, since it concerns many jobs.
     */
    public static JobCommandEvent purge(List<UUID> jobIds, Instant requestedAt) {
        return new JobCommandEvent(jobIds.getFirst(), JobCommand.PURGE, null, requestedAt, null, null, null,
                List.copyOf(jobIds));
    }

    /** The jobs this command is about: its {@code jobIds}, or {@code jobId} alone. */
    public List<UUID> jobs() {
        return jobIds != null ? jobIds : List.of(jobId);
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
