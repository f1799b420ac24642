package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A workflow run as {@code GET /api/workflow-runs/{runId}} shows it: its state as the scheduler last reported it
 * ({@code PENDING}, every node {@code WAITING}, until its first report).
 *
 * @param version the workflow's version the run keeps
 * @param nodes every node with its status and, once it has one, its job's id
 * @param cancelRequested whether a client asked to cancel it (it shows CANCELLED once the scheduler did)
 * @param scheduleId the schedule whose tick or trigger started the run; absent when none did
 * @param scheduledFor that tick's time (a trigger's instant); absent when no schedule started the run
 */
@RegisterForReflection
public record WorkflowRunView(UUID runId, UUID workflowId, int version, String tenant, WorkflowRunStatus status,
                              List<WorkflowProgressEvent.Node> nodes,
                              @JsonInclude(JsonInclude.Include.NON_NULL)
                              @Schema(type = SchemaType.OBJECT, description = "the run's input, any JSON")
                              JsonNode input,
                              String traceId, Instant createdAt,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Instant finishedAt,
                              boolean cancelRequested,
                              @JsonInclude(JsonInclude.Include.NON_NULL) UUID scheduleId,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Instant scheduledFor) {

    static WorkflowRunView of(StoredRun run) {
        return new WorkflowRunView(run.runId(), run.workflowId(), run.version(), run.tenant(), run.status(),
                run.nodes(), run.input(), run.traceId(), run.createdAt(), run.finishedAt(), run.cancelRequested(),
                run.scheduleId(), run.scheduledFor());
    }
}
