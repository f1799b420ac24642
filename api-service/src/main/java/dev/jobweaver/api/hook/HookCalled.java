package dev.jobweaver.api.hook;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The answer to a call of a hook: the job it made, or the workflow run it started, and its trace; or the event it
 * published and the runs that started.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HookCalled(UUID hookId,
                         @Schema(description = "the job made, for a hook with a job") UUID jobId,
                         @Schema(description = "the run started, for a hook with a workflow") UUID runId,
                         @Schema(description = "the OpenTelemetry trace id of the job or the run") String traceId,
                         @Schema(description = "the event published, for a hook with an event") String eventId,
                         @Schema(description = "the runs the event started, for a hook with an event")
                         List<UUID> runs) {
}
