package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A dead letter as the API answers it; a field without a value is left out. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "DeadLetter")
public record DeadLetterView(
        @Schema(description = "the job's id, which a requeue runs again") UUID jobId,
        @Schema(description = "the job's type", example = "SIMULATION") String jobType,
        @Schema(description = "the job's tenant", example = "default") String tenant,
        @Schema(description = "the job's labels") Map<String, String> labels,
        @Schema(description = "OPEN (waiting for review), REQUEUED (handed back to the scheduler; a failure after"
                + " that opens it again) or DISCARDED (archived, never runs)") DeadLetterState state,
        @Schema(description = "the error of the job's last attempt, as the scheduler reported it") String reason,
        @Schema(description = "attempts the job made in all, across requeues", example = "4") int attempts,
        @Schema(description = "the job's last error") String lastError,
        @Schema(description = "when the job exhausted its retries (the latest time, after a requeue)") Instant failedAt,
        @Schema(description = "the job's trace id") String traceId,
        @Schema(description = "times the job was dead-lettered", example = "1") int deadCount,
        @Schema(description = "when it was last requeued") Instant requeuedAt,
        @Schema(description = "times it was requeued", example = "0") int requeueCount,
        @Schema(description = "when it was discarded") Instant discardedAt,
        @Schema(description = "why it was discarded") String discardReason) {

    static DeadLetterView of(StoredDeadLetter stored) {
        return new DeadLetterView(stored.jobId(), stored.jobType(), stored.tenant(), stored.labels(), stored.state(),
                stored.reason(), stored.attempts(), stored.lastError(), stored.failedAt(), stored.traceId(),
                stored.deadCount(), stored.requeuedAt(), stored.requeueCount(), stored.discardedAt(),
                stored.discardReason());
    }
}
