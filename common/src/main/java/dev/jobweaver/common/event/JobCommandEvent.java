package dev.jobweaver.common.event;

import dev.jobweaver.common.job.JobCommand;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * A client's command about one job: on {@code job-commands} from the API to the scheduler, and on
 * {@code worker-commands} from the scheduler to every worker. Applying one twice changes nothing.
 *
 * @param command what to do
 * @param traceId the job's trace id, so the command's spans join the job's trace; null if unknown
 * @param requestedAt when the API accepted the command
 */
@RegisterForReflection
public record JobCommandEvent(
        UUID jobId,
        JobCommand command,
        String traceId,
        Instant requestedAt) {
}
